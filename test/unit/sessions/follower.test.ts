import { afterEach, describe, expect, it } from 'vitest';
import type { Session, TranscriptItem } from '../../../src/shared/contract';
import { EventBus } from '../../../src/main/core/events/bus';
import { openStore } from '../../../src/main/core/migrations';
import type { JournalEvent } from '../../../src/main/core/sessions/events';
import { ExternalSessionFollower } from '../../../src/main/core/sessions/follower';
import { Journal } from '../../../src/main/core/sessions/journal';
import { claimHost, HostIdentity, releaseHost } from '../../../src/main/core/sessions/ownership';
import { emptyRecord } from '../../../src/main/core/sessions/placement';
import { toSession, type SessionRecord } from '../../../src/main/core/sessions/records';
import { SessionTables } from '../../../src/main/core/sessions/tables';
import type { Store } from '../../../src/main/core/store/database';
import { tempDir } from '../../support/tempDir';

const stores: Store[] = [];
const identities: HostIdentity[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const i of identities.splice(0)) i.unregister();
});

function identity(kind: 'cli' | 'serve' | 'app'): HostIdentity {
  const id = new HostIdentity(kind);
  id.register();
  identities.push(id);
  return id;
}

/** A viewer connection (the follower's, as `atrium serve` has) and a host connection (a terminal's) on one SQLite file. */
function setup() {
  const dataDir = tempDir('atrium-follow-');
  const viewer = openStore(dataDir);
  const hostStore = openStore(dataDir);
  stores.push(viewer, hostStore);
  const now = new Date().toISOString();
  const record: SessionRecord = { ...emptyRecord(), id: 's1', cwd: '/w', agentId: 'scripted', state: 'busy', createdAt: now, updatedAt: now };
  const cli = identity('cli');
  hostStore.transaction(() => {
    SessionTables.of(hostStore.db).createSession(record);
    claimHost(hostStore.db, 's1', cli);
  });
  const journal = new Journal(hostStore, new EventBus(), structuredClone(record), {
    batchMs: 0,
    summarize: (r) => toSession(r, { live: true, queue: [], pendingPermissions: 0 }),
    host: { identity: cli, hosting: () => true },
  });
  const bus = new EventBus();
  const pushes: Array<{ event: string; payload: unknown }> = [];
  bus.subscribe((event, payload) => pushes.push({ event, payload }));
  const tables = SessionTables.of(viewer.db);
  const follower = new ExternalSessionFollower(tables, bus, identity('serve'), () => false);
  return { viewer, hostStore, journal, follower, pushes, tables, cli };
}

const chunk = (text: string): JournalEvent => ({ kind: 'update', data: { update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } as never } });
const changes = (store: Store) => (store.db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
const textOf = (items: TranscriptItem[]) => items.map((i) => ('text' in i ? i.text : '')).join('|');

describe('ExternalSessionFollower', () => {
  it('writes nothing and pushes nothing when no followed session changed', () => {
    const { viewer, hostStore, follower, pushes, tables } = setup();
    expect(follower.poll()).toEqual([]); // nothing followed yet
    follower.note(tables.session('s1')!, true);
    const before = changes(viewer);
    for (let i = 0; i < 3; i++) expect(follower.poll()).toEqual([]);
    // a lease renewal by the host rewrites owner_json: not a change to show
    hostStore.db.prepare("UPDATE sessions SET owner_json = json_set(owner_json, '$.leaseUntil', ?) WHERE id = 's1'").run(new Date(Date.now() + 30_000).toISOString());
    expect(follower.poll()).toEqual([]);
    expect(pushes).toEqual([]);
    expect(changes(viewer)).toBe(before);
  });

  it('pushes the header and the growing item of a session another connection streams, then the host going away', () => {
    const { viewer, follower, pushes, tables, journal, hostStore, cli } = setup();
    follower.note(tables.session('s1')!, true);
    const before = changes(viewer);

    journal.append(chunk('Hello, '));
    expect(follower.poll()).toEqual(['s1']);
    const first = pushes.find((p) => p.event === 'sessionEvent')?.payload as { items: TranscriptItem[] };
    expect(textOf(first.items)).toBe('Hello, ');
    const header = pushes.find((p) => p.event === 'sessionUpdated')?.payload as { session: Session };
    expect(header.session.hostedElsewhere).toMatchObject({ kind: 'cli', pid: process.pid });
    expect(header.session.hostedElsewhere?.description).toContain('a terminal');

    pushes.length = 0;
    journal.append(chunk('world'));
    expect(follower.poll()).toEqual(['s1']);
    const second = pushes.find((p) => p.event === 'sessionEvent')?.payload as { items: TranscriptItem[] };
    // the last pushed item again (it grew), whole, as read through the chunk rows
    expect(second.items.map((i) => i.id)).toEqual([first.items[0].id]);
    expect(textOf(second.items)).toBe('Hello, world');

    pushes.length = 0;
    expect(follower.poll()).toEqual([]); // nothing new since
    expect(pushes).toEqual([]);

    journal.append({ kind: 'state', data: { state: 'idle' } });
    expect(follower.poll()).toEqual(['s1']);
    // the host lets go in its own transaction, with no new event: pushed all the same
    hostStore.transaction(() => releaseHost(hostStore.db, 's1', cli));
    pushes.length = 0;
    expect(follower.poll()).toEqual(['s1']);
    expect(pushes.some((p) => p.event === 'sessionEvent')).toBe(false); // no item changed
    const last = pushes.filter((p) => p.event === 'sessionUpdated').pop()?.payload as { session: Session };
    expect(last.session.state).toBe('idle');
    expect(last.session.hostedElsewhere).toBeNull();
    expect(changes(viewer)).toBe(before); // the follower only reads
  });

  it('pushes the header again when the host dies without writing (kill -9): no host, interrupted', () => {
    const { follower, pushes, tables, journal, cli } = setup();
    follower.note(tables.session('s1')!, true);
    journal.append(chunk('partial'));
    expect(follower.poll()).toEqual(['s1']);
    pushes.length = 0;
    expect(follower.checkHosts()).toEqual([]); // host alive: nothing read, nothing pushed
    expect(pushes).toEqual([]);
    cli.unregister(); // in this process, a closed engine's leases are dead at once: as a killed process's
    expect(follower.checkHosts()).toEqual(['s1']);
    const header = pushes.find((p) => p.event === 'sessionUpdated')?.payload as { session: Session };
    expect(header.session.hostedElsewhere).toBeNull();
    expect(header.session.state).toBe('interrupted');
    pushes.length = 0;
    expect(follower.checkHosts()).toEqual([]); // once
  });

  it('leaves sessions hosted in this process to their own journal', () => {
    const { follower, tables, journal, pushes } = setup();
    const hostedHere = new ExternalSessionFollower(tables, new EventBus(), null, () => true);
    hostedHere.note(tables.session('s1')!, true);
    journal.append(chunk('x'));
    expect(hostedHere.poll()).toEqual([]);
    expect(follower.poll()).toEqual([]); // not followed: never noted
    expect(pushes).toEqual([]);
  });
});
