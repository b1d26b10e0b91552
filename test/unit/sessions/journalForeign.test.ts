import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventBus } from '../../../src/main/core/events/bus';
import { openStore } from '../../../src/main/core/migrations';
import type { JournalEvent } from '../../../src/main/core/sessions/events';
import { Journal } from '../../../src/main/core/sessions/journal';
import { claimHost, HostIdentity, hostedElsewhereMessage, isHostAlive, readHost } from '../../../src/main/core/sessions/ownership';
import { emptyRecord } from '../../../src/main/core/sessions/placement';
import { toSession, type SessionRecord } from '../../../src/main/core/sessions/records';
import { recoverInterrupted } from '../../../src/main/core/sessions/sessionQueries';
import { SessionTables } from '../../../src/main/core/sessions/tables';
import type { Store } from '../../../src/main/core/store/database';
import { tempDir } from '../../support/tempDir';

const stores: Store[] = [];
const identities: HostIdentity[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const i of identities.splice(0)) i.unregister();
  vi.restoreAllMocks();
});

/** Two real connections (as two processes have) on one SQLite file, with one session row. */
function twoConnections(state: SessionRecord['state'] = 'busy') {
  const dataDir = tempDir('atrium-journal-');
  const a = openStore(dataDir);
  const b = openStore(dataDir);
  stores.push(a, b);
  const now = new Date().toISOString();
  const record: SessionRecord = { ...emptyRecord(), id: 's1', cwd: '/w', agentId: 'scripted', state, createdAt: now, updatedAt: now };
  a.transaction(() => SessionTables.of(a.db).createSession(record));
  return { a, b, record };
}

function identity(kind: 'cli' | 'serve' | 'app'): HostIdentity {
  const id = new HostIdentity(kind);
  id.register();
  identities.push(id);
  return id;
}

function journal(store: Store, record: SessionRecord, extra: Partial<ConstructorParameters<typeof Journal>[3]> = {}): Journal {
  return new Journal(store, new EventBus(), structuredClone(record), { batchMs: 0, summarize: (r) => toSession(r, { live: false, queue: [], pendingPermissions: 0 }), ...extra });
}

const chunk = (text: string): JournalEvent => ({ kind: 'update', data: { update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } as never } });
const seqs = (store: Store) => (store.db.prepare("SELECT seq FROM session_events WHERE session_id = 's1' ORDER BY seq").all() as Array<{ seq: number }>).map((r) => r.seq);
const kinds = (store: Store) => (store.db.prepare("SELECT kind FROM session_events WHERE session_id = 's1' ORDER BY seq").all() as Array<{ kind: string }>).map((r) => r.kind);

describe('Journal: writes by another connection to the same session', () => {
  it('resynchronises after a foreign write: continues with the next seq, records a notice, restores the state it hosts', () => {
    const { a, b, record } = twoConnections();
    const me = identity('cli');
    a.transaction(() => claimHost(a.db, 's1', me));
    const host = journal(a, record, { host: { identity: me, hosting: () => true } });
    host.append(chunk('one '));
    // another process (an older Atrium's recovery) writes two events and marks the session interrupted
    const foreign = journal(b, SessionTables.of(b.db).session('s1')!);
    foreign.append({ kind: 'interrupted', data: { reason: 'foreign recovery' } });
    foreign.append({ kind: 'state', data: { state: 'interrupted' } });
    b.db.prepare("UPDATE sessions SET owner_json = NULL WHERE id = 's1'").run();

    host.append(chunk('two'));
    expect(seqs(a)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(kinds(a)).toEqual(['update', 'interrupted', 'state', 'policy_notice', 'state', 'update']);
    const stored = SessionTables.of(a.db).session('s1')!;
    expect(stored.state).toBe('busy');
    expect(stored.lastSeq).toBe(6);
    expect(host.record.lastSeq).toBe(6);
    // the host is recorded again, and the foreign notice is in the transcript
    expect(me.isMe(readHost(a.db, 's1'))).toBe(true);
    const notice = SessionTables.of(a.db).page('s1', 100).find((i) => i.kind === 'notice' && i.code === 'foreign_write');
    expect(notice).toMatchObject({ title: 'Another Atrium process wrote to this session' });
    const messages = SessionTables.of(a.db).page('s1', 100).filter((i) => i.kind === 'agent_message').map((i) => (i.kind === 'agent_message' ? i.text : ''));
    expect(messages.join('')).toBe('one two');
  });

  it('stops writing when another live process took the session over: the reason names it, nothing more is written, no throw', () => {
    const { a, b, record } = twoConnections();
    const me = identity('cli');
    const other = identity('serve');
    other.origin = 'http://127.0.0.1:4321';
    a.transaction(() => claimHost(a.db, 's1', me));
    const halted: string[] = [];
    const host = journal(a, record, { host: { identity: me, hosting: () => true }, onHalted: (reason) => halted.push(reason) });
    host.append(chunk('mine'));
    b.db.prepare("UPDATE sessions SET owner_json = ? WHERE id = 's1'").run(JSON.stringify(other.host()));

    expect(() => host.append(chunk('lost'))).not.toThrow();
    expect(() => host.append({ kind: 'turn_end', data: { stopReason: 'end_turn', error: null } })).not.toThrow();
    expect(halted).toEqual([hostedElsewhereMessage('s1', other.host())]);
    expect(halted[0]).toContain('atrium serve (pid');
    expect(halted[0]).toContain('at http://127.0.0.1:4321');
    expect(host.haltedReason).toBe(halted[0]);
    expect(seqs(a)).toEqual([1]);
    expect(JSON.parse((a.db.prepare("SELECT owner_json FROM sessions WHERE id = 's1'").get() as { owner_json: string }).owner_json)).toMatchObject({ kind: 'serve', instance: other.instance });
  });

  it('a failing timer flush drops its batch and halts after repeated failures instead of failing forever', async () => {
    const { a, b, record } = twoConnections();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    b.db.exec("CREATE TRIGGER refuse BEFORE INSERT ON session_events BEGIN SELECT RAISE(ABORT, 'disk says no'); END");
    const halted: string[] = [];
    const host = journal(a, record, { batchMs: 5, onHalted: (reason) => halted.push(reason) });
    for (let i = 0; i < 10 && halted.length === 0; i++) {
      host.append(chunk(`c${i} `));
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(halted).toHaveLength(1);
    expect(halted[0]).toContain('disk says no');
    const failures = errors.mock.calls.length;
    expect(failures).toBe(3);
    // the database works again: the dropped batches are not written later, and a halted journal writes nothing
    b.db.exec('DROP TRIGGER refuse');
    host.append(chunk('after'));
    host.flush();
    await new Promise((r) => setTimeout(r, 30));
    expect(seqs(a)).toEqual([]);
    expect(errors.mock.calls.length).toBe(failures);
  });
});

describe('ownership', () => {
  it('a host is alive while its engine is open and its lease unexpired; recovery skips live hosts and takes dead ones', () => {
    const { a, record } = twoConnections();
    const live = identity('serve');
    a.transaction(() => claimHost(a.db, 's1', live));
    expect(isHostAlive(readHost(a.db, 's1'))).toBe(true);
    expect(recoverInterrupted(a, new EventBus())).toEqual([]);
    // a second claim by another host is refused while the first is alive
    const second = identity('cli');
    expect(a.transaction(() => claimHost(a.db, 's1', second))).toMatchObject({ instance: live.instance });
    // an expired lease is dead, whatever the process
    expect(isHostAlive({ ...live.host(), leaseUntil: new Date(Date.now() - 1).toISOString() })).toBe(false);
    // a gone engine's host is dead at once
    live.unregister();
    expect(isHostAlive(readHost(a.db, 's1'))).toBe(false);
    expect(recoverInterrupted(a, new EventBus())).toEqual([record.id]);
    const stored = SessionTables.of(a.db).session('s1')!;
    expect(stored.state).toBe('interrupted');
    expect(readHost(a.db, 's1')).toBeNull();
  });

  it('reads a malformed or missing host as free', () => {
    const { a } = twoConnections();
    a.db.prepare("UPDATE sessions SET owner_json = '{not json' WHERE id = 's1'").run();
    expect(readHost(a.db, 's1')).toBeNull();
    expect(readHost(a.db, 'missing')).toBeNull();
    expect(isHostAlive(null)).toBe(false);
  });
});
