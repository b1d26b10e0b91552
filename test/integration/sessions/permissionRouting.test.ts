import { describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/main/core/engine';
import type { JournalEvent } from '../../../src/main/core/sessions/events';
import { Projector } from '../../../src/main/core/sessions/projector';
import { SessionTables } from '../../../src/main/core/sessions/tables';
import { ConnectionSurfaces } from '../../../src/main/server/connectionSurfaces';
import type { PayloadOf, PermissionItem } from '../../../src/shared/contract';
import { policyWorlds } from '../../support/policy';
import { testDispatcher, waitFor } from '../../support/sessions';

/**
 * Durable permission routing: the transcript's permission item records the surface that
 * should answer (persisted with the request), and a request whose surface detaches is re-targeted
 * (recorded, pushed as an item upsert and as `permissionRequested` again).
 */

const worlds = policyWorlds();

/** Records the bus events this test reads. */
function recorder(engine: Engine) {
  const asked: Array<PayloadOf<'permissionRequested'>> = [];
  const upserts: PermissionItem[] = [];
  engine.bus.subscribe((event, payload) => {
    if (event === 'permissionRequested') asked.push(payload as PayloadOf<'permissionRequested'>);
    if (event === 'sessionEvent') for (const i of (payload as PayloadOf<'sessionEvent'>).items) if (i.kind === 'permission') upserts.push(i);
  });
  return { asked, upserts };
}

/** The stored permission item of a request (read from SQLite, as a surface opened later sees it). */
function storedItem(engine: Engine, sessionId: string, requestId: string): PermissionItem {
  const item = SessionTables.of(engine.store.db).itemByRef(sessionId, requestId);
  if (item?.kind !== 'permission') throw new Error(`no permission item ${requestId}`);
  return item;
}

/** The session's journal, in order. */
function journal(engine: Engine, sessionId: string): Array<{ kind: string; data: Record<string, unknown> }> {
  const rows = engine.store.db.prepare('SELECT kind, data FROM session_events WHERE session_id = ? ORDER BY seq').all(sessionId) as Array<{ kind: string; data: string }>;
  return rows.map((r) => ({ kind: r.kind, data: JSON.parse(r.data) as Record<string, unknown> }));
}

/** Rebuilds a session's permission items by replaying its journal into a fresh projector. */
function replayPermissions(engine: Engine, sessionId: string): PermissionItem[] {
  const record = SessionTables.of(engine.store.db).session(sessionId)!;
  const rows = engine.store.db.prepare('SELECT kind, data, at FROM session_events WHERE session_id = ? ORDER BY seq').all(sessionId) as Array<{ kind: string; data: string; at: string }>;
  const items = new Map<number, PermissionItem>();
  const byRef = new Map<string, PermissionItem>();
  const projector = new Projector(
    { ...record, lastItem: 0, lastSeq: 0, turnCount: 0 },
    { load: (id) => items.get(id) ?? null, findByRef: (ref) => byRef.get(ref) ?? null, openIds: () => [] },
  );
  for (const row of rows) {
    projector.apply({ kind: row.kind, data: JSON.parse(row.data) } as JournalEvent, row.at);
    for (const item of projector.takeDirty()) {
      if (item.kind !== 'permission') continue;
      items.set(item.id, item);
      byRef.set(item.requestId, item);
    }
  }
  return [...items.values()];
}

describe('permission routing is recorded with the request', () => {
  it('the item names the prompting surface; detaching it re-targets to the surface left, then to any', async () => {
    const world = worlds.create({ turns: [{ match: 'ask', steps: [{ permission: { title: 'Write notes', kind: 'edit' } }] }] });
    const engine = world.open();
    const dispatcher = testDispatcher(engine);
    const { asked, upserts } = recorder(engine);
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    await dispatcher.call('sessions.attach', { sessionId: s.id, surfaceId: 'app-window', kind: 'app', label: 'Desktop app' });
    await dispatcher.call('sessions.attach', { sessionId: s.id, surfaceId: 'browser-b', kind: 'browser', label: 'Browser tab B' });

    const turn = engine.sessions.prompt(s.id, 'ask please', 'browser-b');
    await waitFor(() => asked.length === 1, 'the permission request');
    const requestId = asked[0].permission.requestId;
    expect(asked[0].surfaceId).toBe('browser-b');
    expect(asked[0].permission).toMatchObject({ surfaceId: 'browser-b', surfaceLabel: 'Browser tab B', surfaceKind: 'browser' });
    // what a surface opened after the request reads: the stored item and sessions.show
    expect(storedItem(engine, s.id, requestId)).toMatchObject({ state: 'pending', surfaceId: 'browser-b', surfaceLabel: 'Browser tab B', surfaceKind: 'browser' });
    const shown = await dispatcher.call('sessions.show', { sessionId: s.id });
    expect(shown.session.permissions.map((p) => p.surfaceId)).toEqual(['browser-b']);
    // persisted with the request itself (journal first), not added afterwards
    const requested = journal(engine, s.id).filter((e) => e.kind === 'permission_requested');
    expect(requested.map((e) => e.data.route)).toEqual([{ surfaceId: 'browser-b', label: 'Browser tab B', kind: 'browser' }]);

    // the tab closes: the request goes to the window still attached, recorded then pushed twice over
    const upsertsBefore = upserts.length;
    await dispatcher.call('sessions.detach', { sessionId: s.id, surfaceId: 'browser-b' });
    expect(asked).toHaveLength(2);
    expect(asked[1]).toMatchObject({ surfaceId: 'app-window', permission: { requestId, state: 'pending', surfaceId: 'app-window', surfaceLabel: 'Desktop app', surfaceKind: 'app' } });
    expect(upserts.slice(upsertsBefore).map((i) => [i.requestId, i.surfaceId])).toEqual([[requestId, 'app-window']]);
    expect(storedItem(engine, s.id, requestId).surfaceId).toBe('app-window');

    // detaching a surface that was not asked changes nothing
    await dispatcher.call('sessions.attach', { sessionId: s.id, surfaceId: 'cli-c', kind: 'cli', label: 'Terminal' });
    await dispatcher.call('sessions.detach', { sessionId: s.id, surfaceId: 'cli-c' });
    expect(asked).toHaveLength(2);

    // the last surface goes: any surface may answer
    await dispatcher.call('sessions.detach', { sessionId: s.id, surfaceId: 'app-window' });
    expect(asked).toHaveLength(3);
    expect(asked[2].surfaceId).toBeNull();
    expect(storedItem(engine, s.id, requestId)).toMatchObject({ surfaceId: null, surfaceLabel: null, surfaceKind: null });
    expect(journal(engine, s.id).filter((e) => e.kind === 'permission_routed').map((e) => (e.data.route as { surfaceId: string } | null)?.surfaceId ?? null)).toEqual(['app-window', null]);

    // replaying the journal rebuilds the same item (the route is part of the durable log)
    expect(replayPermissions(engine, s.id).find((i) => i.requestId === requestId)).toMatchObject({ surfaceId: null, state: 'pending' });

    engine.sessions.answerPermission(s.id, requestId, 'allow');
    expect(await engine.sessions.waitForTurn(s.id, turn.promptId)).toBe('end_turn');
    // an answered request is never re-targeted again
    await dispatcher.call('sessions.attach', { sessionId: s.id, surfaceId: 'app-window', kind: 'app' });
    await dispatcher.call('sessions.detach', { sessionId: s.id, surfaceId: 'app-window' });
    expect(asked).toHaveLength(3);
    expect(storedItem(engine, s.id, requestId)).toMatchObject({ state: 'selected', optionId: 'allow' });
    const replayed = replayPermissions(engine, s.id).find((i) => i.requestId === requestId);
    expect(replayed).toMatchObject({ state: 'selected', optionId: 'allow', surfaceId: null });
  }, 60_000);

  it('a request with no attached surface is for any surface; a connection that closes re-targets its surface', async () => {
    const world = worlds.create({ turns: [{ match: 'ask', steps: [{ permission: { title: 'Run tests', kind: 'execute' } }, { permission: { toolCallId: 'p2', title: 'Write file', kind: 'edit' } }] }] });
    const engine = world.open();
    const dispatcher = testDispatcher(engine);
    const { asked } = recorder(engine);
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });

    // nobody attached: the item says "any surface"
    const turn = engine.sessions.prompt(s.id, 'ask twice');
    await waitFor(() => asked.length === 1, 'the first request');
    expect(asked[0].surfaceId).toBeNull();
    expect(storedItem(engine, s.id, asked[0].permission.requestId)).toMatchObject({ surfaceId: null, surfaceKind: null });

    // the server's bookkeeping: two tabs on two connections, then the asked tab's socket closes
    const connections = new ConnectionSurfaces((sessionId, surfaceId) => dispatcher.dispatch('sessions.detach', { sessionId, surfaceId }));
    for (const [conn, surfaceId] of [['ws-a', 'browser-a'], ['ws-b', 'browser-b']] as const) {
      const params = { sessionId: s.id, surfaceId, kind: 'browser' as const, label: `Tab ${surfaceId.slice(-1).toUpperCase()}` };
      connections.observe(conn, 'sessions.attach', params, await dispatcher.dispatch('sessions.attach', params));
    }
    engine.sessions.answerPermission(s.id, asked[0].permission.requestId, 'allow');
    await waitFor(() => asked.length === 2, 'the second request');
    // the prompt came from no surface: the earliest attached one is asked
    expect(asked[1].surfaceId).toBe('browser-a');
    await connections.release('ws-a');
    expect(asked).toHaveLength(3);
    expect(asked[2]).toMatchObject({ surfaceId: 'browser-b', permission: { requestId: asked[1].permission.requestId, surfaceLabel: 'Tab B' } });
    engine.sessions.answerPermission(s.id, asked[1].permission.requestId, 'reject');
    expect(await engine.sessions.waitForTurn(s.id, turn.promptId)).toBe('end_turn');
  }, 60_000);

  it('"Answer here instead" re-addresses one request to the taking surface (recorded, pushed); only the holder of that surface may', async () => {
    const world = worlds.create({ turns: [{ match: 'ask', steps: [{ permission: { title: 'Delete build', kind: 'delete' } }] }] });
    const engine = world.open();
    const { asked } = recorder(engine);
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    const a = { connection: 'ws-a', key: 'key-a-0123456789abcdef' };
    const stranger = { connection: 'ws-x', key: 'key-x-0123456789abcdef' };
    engine.policy.attach(s.id, { surfaceId: 'browser-a', kind: 'browser', label: 'Tab A' }, a);
    engine.policy.attach(s.id, { surfaceId: 'browser-b', kind: 'browser', label: 'Tab B' });
    const turn = engine.sessions.prompt(s.id, 'ask please', 'browser-b');
    await waitFor(() => asked.length === 1, 'the request');
    const requestId = asked[0].permission.requestId;
    expect(asked[0].surfaceId).toBe('browser-b');

    // another connection cannot move a request to a surface it does not hold
    expect(() => engine.policy.takeOverPermission(s.id, requestId, 'browser-a', stranger)).toThrow(expect.objectContaining({ code: 'HANDOVER_REQUIRED' }));
    expect(() => engine.policy.takeOverPermission(s.id, requestId, 'browser-nobody', a)).toThrow(expect.objectContaining({ code: 'HANDOVER_REQUIRED' }));
    expect(storedItem(engine, s.id, requestId).surfaceId).toBe('browser-b');

    const taken = engine.policy.takeOverPermission(s.id, requestId, 'browser-a', a);
    expect(taken).toMatchObject({ requestId, state: 'pending', surfaceId: 'browser-a', surfaceLabel: 'Tab A', surfaceKind: 'browser' });
    expect(storedItem(engine, s.id, requestId)).toMatchObject({ surfaceId: 'browser-a', surfaceLabel: 'Tab A' });
    expect(asked).toHaveLength(2);
    expect(asked[1]).toMatchObject({ surfaceId: 'browser-a', permission: { requestId } });
    const routed = journal(engine, s.id).filter((e) => e.kind === 'permission_routed');
    expect(routed.map((e) => e.data)).toEqual([{ requestId, route: { surfaceId: 'browser-a', label: 'Tab A', kind: 'browser' }, reason: 'taken over by Tab A' }]);
    // the journal alone rebuilds the same route
    expect(replayPermissions(engine, s.id).find((p) => p.requestId === requestId)).toMatchObject({ surfaceId: 'browser-a' });

    engine.sessions.answerPermission(s.id, requestId, 'allow');
    // answered: nothing left to take over
    expect(engine.policy.takeOverPermission(s.id, requestId, 'browser-a', a)).toBeNull();
    expect(await engine.sessions.waitForTurn(s.id, turn.promptId)).toBe('end_turn');
  }, 60_000);
});
