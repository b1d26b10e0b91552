import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/main/core/engine';
import { permissionGrants } from '../../../src/main/core/sessions/grants';
import { sessionEngine, testDispatcher, waitFor, type Scenario } from '../../support/sessions';
import { tempDir } from '../../support/tempDir';

const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
});

const OPTIONS = [
  { optionId: 'yes', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'always', name: 'Always allow edits', kind: 'allow_always' },
  { optionId: 'no', name: 'Reject', kind: 'reject_once' },
];

/** A turn `match` that asks permission to edit `file` (a diff) and then says "done <match>". */
const askTurn = (match: string, file: string) => ({
  match,
  steps: [
    { toolCall: { id: `t-${match}`, title: `Edit ${file}`, kind: 'edit', status: 'pending', locations: [{ path: `{{cwd}}/${file}` }] } },
    { permission: { toolCallId: `t-${match}`, title: `Edit ${file}`, kind: 'edit', options: OPTIONS } },
    { text: `done ${match}` },
  ],
});

/** An engine on a temp data dir with one session (never started) in a temp workspace, for items written straight to the store. */
function idleSession(prefix: string) {
  const base = tempDir(prefix);
  const engine = sessionEngine(path.join(base, 'data'), base, { turns: [] });
  engines.push(engine);
  const ws = path.join(base, 'ws');
  fs.mkdirSync(ws);
  return { engine, s: engine.sessions.create({ cwd: ws, agentId: 'scripted' }) };
}

describe('sessions.permissionsGranted: the "Always allow" answers agents keep', () => {
  it('lists only allow_always answers, newest first, with the session, what was asked and who answered; other answers, cancels and other workspaces are not grants', async () => {
    const base = tempDir('atrium-grants-');
    const ws = path.join(base, 'ws');
    const other = path.join(base, 'other');
    fs.mkdirSync(ws);
    fs.mkdirSync(other);
    const scenario: Scenario = { turns: [askTurn('first', 'a.md'), askTurn('second', 'b.md'), askTurn('third', 'c.md')] };
    const engine = sessionEngine(path.join(base, 'data'), base, scenario);
    engines.push(engine);
    const wsId = engine.workspaces.add(ws).workspace.id;
    const otherId = engine.workspaces.add(other).workspace.id;
    const dispatch = testDispatcher(engine);

    const answer = async (sessionId: string, prompt: string, optionId: string) => {
      const { promptId } = engine.sessions.prompt(sessionId, prompt);
      const pending = await waitFor(() => engine.sessions.show(sessionId).permissions[0], 'a pending permission');
      engine.sessions.answerPermission(sessionId, pending.requestId, optionId);
      await engine.sessions.waitForTurn(sessionId, promptId);
    };
    const s1 = engine.sessions.create({ cwd: ws, agentId: 'scripted', title: 'Docs pass' });
    await answer(s1.id, 'first', 'always');
    await answer(s1.id, 'second', 'yes');
    const s2 = engine.sessions.create({ cwd: other, agentId: 'scripted' });
    await answer(s2.id, 'third', 'always');

    const all = await waitFor(() => {
      const g = permissionGrants(engine.store);
      return g.length === 2 ? g : null;
    }, 'two grants stored');
    expect(all.map((g) => [g.sessionId, g.title, g.optionName, g.answeredBy, g.toolKind])).toEqual([
      [s2.id, 'Edit c.md', 'Always allow edits', 'user', 'edit'],
      [s1.id, 'Edit a.md', 'Always allow edits', 'user', 'edit'],
    ]);
    expect(all[1]).toMatchObject({ sessionTitle: 'Docs pass', workspaceId: wsId, cwd: ws, agentId: 'scripted', paths: [path.join(ws, 'a.md')] });
    expect(all[0].workspaceId).toBe(otherId);
    // both agents still run: they hold their grants
    expect(all.map((g) => g.agentRunning)).toEqual([true, true]);

    // through the contract: validated, filtered by workspace, limited
    const mine = (await dispatch.call('sessions.permissionsGranted', { workspaceId: wsId }));
    expect(mine.grants.map((g) => g.title)).toEqual(['Edit a.md']);
    const one = (await dispatch.call('sessions.permissionsGranted', { limit: 1 }));
    expect(one.grants.map((g) => g.title)).toEqual(['Edit c.md']);

    // closing the session (the revocation Atrium can do) shows in the grant's session state
    await engine.sessions.closeSession(s1.id);
    expect(permissionGrants(engine.store, { workspaceId: wsId })[0].sessionState).toBe('closed');
  });

  it('a malformed stored permission item is skipped, not thrown', async () => {
    const { engine, s } = idleSession('atrium-grants-bad-');
    engine.store.db.prepare("INSERT INTO session_items (session_id, item, kind, ref, status, data) VALUES (?, 999, 'permission', 'r', 'selected', ?)").run(s.id, '{"allow_always": broken');
    engine.store.db
      .prepare("INSERT INTO session_items (session_id, item, kind, ref, status, data) VALUES (?, 1000, 'permission', 'r2', 'selected', ?)")
      .run(s.id, JSON.stringify({ kind: 'permission', state: 'selected', optionId: 'x', answeredBy: 'user', options: [{ optionId: 'y', name: 'Always', kind: 'allow_always' }] }));
    expect(permissionGrants(engine.store)).toEqual([]);
  });

  it('a grant whose session has no agent process running is not held by any running agent; an item without who answered is listed with answeredBy null', async () => {
    const { engine, s } = idleSession('atrium-grants-stopped-');
    const item = { kind: 'permission', state: 'selected', title: 'Run make', optionId: 'y', options: [{ optionId: 'y', name: 'Always allow make', kind: 'allow_always' }], updatedAt: '2026-01-01T00:00:00.000Z' };
    engine.store.db.prepare("INSERT INTO session_items (session_id, item, kind, ref, status, data) VALUES (?, 1000, 'permission', 'r', 'selected', ?)").run(s.id, JSON.stringify(item));
    for (const [state, running] of [['paused', false], ['failed', false], ['interrupted', false], ['idle', true], ['busy', true], ['closed', false]] as const) {
      engine.store.db.prepare('UPDATE sessions SET state = ? WHERE id = ?').run(state, s.id);
      const [g] = permissionGrants(engine.store);
      expect({ state: g.sessionState, running: g.agentRunning, by: g.answeredBy }).toEqual({ state, running, by: null });
    }
  });
});
