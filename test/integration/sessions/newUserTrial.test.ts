import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionTables } from '../../../src/main/core/sessions/tables';
import { items, lastTurnText, policyWorlds, promptAndWait } from '../../support/policy';
import { repoRoot } from '../../support/corpus';
import { testDispatcher, waitFor } from '../../support/sessions';
import type { Engine } from '../../../src/main/core/engine';

/**
 * What a trial user tripped on in a first session, with the README's scripted agent and
 * its ui-tour scenario over real ACP, real SQLite and a trusted workspace whose rules say "write":
 * the prompt "ask" plays the "ask" turn (only the user's own text picks a turn), a title the user
 * typed survives the agent's session_info_update (also after a reload), and "permission: allow" and
 * "write ok" are two messages.
 */

const UI_TOUR = JSON.parse(fs.readFileSync(path.join(repoRoot, 'test/fixtures/agents/scenarios/ui-tour.json'), 'utf8')) as Record<string, unknown>;
/** Project rules that mention every scenario keyword; they go with the first prompt as text. */
const RULES = { 'AGENTS.md': 'Always write tests first. Ask before you delete anything. Keep long functions short.\n' };

const worlds = policyWorlds();

/** Answers the session's next pending permission request with `optionId` and returns its title. */
async function answerNext(engine: Engine, sessionId: string, optionId: string): Promise<string> {
  const request = await waitFor(() => engine.sessions.show(sessionId).permissions[0], 'a permission request');
  engine.sessions.answerPermission(sessionId, request.requestId, optionId);
  return request.title;
}

describe('a first session with the scripted agent (trial user report)', () => {
  it('"ask" plays the ask turn although the rules say "write"; the typed title wins; messages stay apart', async () => {
    const world = worlds.create(UI_TOUR, RULES);
    const engine = world.openTrusted();
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted', title: 'Handover test' });

    const ask = engine.sessions.prompt(s.id, 'ask');
    expect(await answerNext(engine, s.id, 'reject')).toBe('Delete build/');
    expect(await engine.sessions.waitForTurn(s.id, ask.promptId)).toBe('end_turn');
    // the rules did reach the agent with that first prompt (so they were there to mislead it)
    expect(items(engine, s.id).some((i) => i.kind === 'notice' && i.code === 'rules_loaded')).toBe(true);
    expect(fs.existsSync(path.join(world.ws, 'notes.md'))).toBe(false);

    const write = engine.sessions.prompt(s.id, 'write');
    expect(await answerNext(engine, s.id, 'allow')).toBe('Write notes.md');
    expect(await engine.sessions.waitForTurn(s.id, write.promptId)).toBe('end_turn');
    expect(fs.readFileSync(path.join(world.ws, 'notes.md'), 'utf8')).toBe('# Notes\n\n- first\n- second\n');
    expect(engine.sessions.show(s.id).title).toBe('Handover test');
    const messages = lastTurnText(engine, s.id).split('\n');
    expect(messages).toContain('permission: allow');
    expect(messages).toContain('write ok');

    // a new engine over the same database: the stored title is still the user's
    await world.closeAll();
    const again = world.openTrusted();
    const rewrite = again.sessions.prompt(s.id, 'write');
    expect(await answerNext(again, s.id, 'allow')).toBe('Write notes.md');
    expect(await again.sessions.waitForTurn(s.id, rewrite.promptId)).toBe('end_turn');
    expect(again.sessions.list({ cwd: world.ws }).find((x) => x.id === s.id)?.title).toBe('Handover test');
  }, 60_000);

  it('an agent title fills an empty title and may change it until the user renames; clearing hands it back', async () => {
    const world = worlds.create({ capabilities: { resume: true, loadSession: true }, turns: [{ match: '^name ', steps: [{ title: '{{userText}}' }] }] }, RULES);
    const engine = world.openTrusted();
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    expect(await promptAndWait(engine, s.id, 'name First')).toBe('end_turn');
    expect(engine.sessions.show(s.id).title).toBe('name First');

    // reloaded: the log says the stored title is the agent's, so a newer agent title replaces it
    await world.closeAll();
    const second = world.openTrusted();
    expect(SessionTables.of(second.store.db).titleFromAgent(s.id, 'name First', Number.MAX_SAFE_INTEGER)).toBe(true);
    expect(await promptAndWait(second, s.id, 'name Second')).toBe('end_turn');
    expect(second.sessions.show(s.id).title).toBe('name Second');

    const renamed = await testDispatcher(second).call('sessions.rename', { sessionId: s.id, title: '  Mine  ' });
    expect(renamed.session.title).toBe('Mine');
    expect(await promptAndWait(second, s.id, 'name Third')).toBe('end_turn');
    expect(second.sessions.show(s.id).title).toBe('Mine');

    await world.closeAll();
    const third = world.openTrusted();
    expect(SessionTables.of(third.store.db).titleFromAgent(s.id, 'Mine', Number.MAX_SAFE_INTEGER)).toBe(false);
    expect(await promptAndWait(third, s.id, 'name Fourth')).toBe('end_turn');
    expect(third.sessions.show(s.id).title).toBe('Mine');
    await testDispatcher(third).call('sessions.rename', { sessionId: s.id, title: '' });
    expect(await promptAndWait(third, s.id, 'name Fifth')).toBe('end_turn');
    expect(third.sessions.show(s.id).title).toBe('name Fifth');
  }, 60_000);
});
