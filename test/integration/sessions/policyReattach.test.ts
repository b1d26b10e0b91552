import { describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/main/core/engine';
import { idleShutdown, lastTurnText, NESTED_RULES, notices, policyWorlds, promptAndWait, READ_PKG_TURN, sessionWithNestedRules } from '../../support/policy';
import { waitFor } from '../../support/sessions';

/**
 * "On resume it is recomputed; a mismatch fails closed", within one Atrium process: every
 * re-attach of an agent process to an existing session (after idle shutdown, after a crash, after
 * close and resume) recomputes the static provenance and hydrates the loaded contextual
 * references, exactly as after a restart.
 */

const SCENARIO = {
  capabilities: { resume: true, loadSession: true },
  turns: [READ_PKG_TURN, { match: '^crash', steps: [{ crash: { exitCode: 3, stderr: 'scripted crash' } }] }],
};

const worlds = policyWorlds();

/** Asserts the fail-closed state after a re-attach attempt, as after a restart. */
function expectPausedClosed(engine: Engine, sessionId: string, change: [string, string, string], before: string, after: string) {
  const paused = engine.sessions.show(sessionId);
  expect(paused.state).toBe('paused');
  expect(paused.pausedReason).toBe('rules_changed');
  expect(paused.live).toBe(false);
  expect(paused.lastError).toContain('Project rule provenance mismatch');
  expect(paused.lastError).toContain(change[0]);
  const policy = engine.policy.view(sessionId);
  expect(policy.mismatch?.actions).toEqual(['continue', 'new']);
  expect(policy.mismatch!.changes.map((c) => [c.relativePath, c.change, c.scope])).toEqual([change]);
  expect(policy.mismatch!.changes[0].diff).toContain(`-${before}`);
  expect(policy.mismatch!.changes[0].diff).toContain(`+${after}`);
  expect(notices(engine, sessionId, 'rules_mismatch')).toHaveLength(1);
}

describe('re-attaching an agent in the same Atrium process re-checks the rules (scripted agent)', () => {
  it('after idle shutdown: an edited static rule fails the next prompt closed; "continue" records the new rules and proceeds', async () => {
    const world = worlds.create(SCENARIO, NESTED_RULES);
    const engine = world.openTrusted({ sessions: { idleMs: 300 } });
    const s = await sessionWithNestedRules(engine, world.ws);
    const recorded = engine.policy.view(s.id).staticRules!.provenanceSha256;
    await idleShutdown(engine, s.id);

    world.write({ 'AGENTS.md': 'Root rule: be very kind.\n' });
    const blocked = engine.sessions.prompt(s.id, 'continue');
    expect(await engine.sessions.waitForTurn(s.id, blocked.promptId)).toBe('dropped');
    expectPausedClosed(engine, s.id, ['AGENTS.md', 'edited', 'static'], 'Root rule: always be kind.', 'Root rule: be very kind.');
    expect(engine.policy.view(s.id).mismatch?.recordedProvenanceSha256).toBe(recorded);

    const continued = await engine.policy.resolveMismatch(s.id, 'continue');
    expect(continued.state).toBe('idle');
    expect(notices(engine, s.id, 'rules_accepted')[0].detail).toContain('edited AGENTS.md (static)');
    expect(engine.policy.view(s.id).mismatch).toBeNull();
    expect(await promptAndWait(engine, s.id, 'after accept')).toBe('end_turn');
    expect(lastTurnText(engine, s.id)).toContain('Root rule: be very kind.');

    // unchanged rules: the next idle respawn resumes without complaint and sends nothing again
    await idleShutdown(engine, s.id, 2);
    expect(await promptAndWait(engine, s.id, 'quiet')).toBe('end_turn');
    expect(lastTurnText(engine, s.id)).not.toContain('Root rule');
    expect(engine.sessions.show(s.id).resume?.outcome).toBe('resumed');
  }, 90_000);

  it('after close and resume: an edited contextual rule the session loaded fails closed (hydration); "continue" drops it so it loads again', async () => {
    const world = worlds.create(SCENARIO, NESTED_RULES);
    const engine = world.openTrusted();
    const s = await sessionWithNestedRules(engine, world.ws);
    await engine.sessions.closeSession(s.id);

    world.write({ 'pkg/AGENTS.md': 'Nested rule: use spaces in pkg.\n' });
    await engine.sessions.resume(s.id);
    expectPausedClosed(engine, s.id, ['pkg/AGENTS.md', 'edited', 'contextual'], 'Nested rule: use tabs in pkg.', 'Nested rule: use spaces in pkg.');
    // another attempt stays closed, with one notice
    await engine.sessions.resume(s.id);
    expect(engine.sessions.show(s.id).state).toBe('paused');
    expect(notices(engine, s.id, 'rules_mismatch')).toHaveLength(1);

    const continued = await engine.policy.resolveMismatch(s.id, 'continue');
    expect(continued.state).toBe('idle');
    expect(engine.policy.view(s.id).contextualRules).toEqual([]);
    // accepting records new rules: the static ones go again with the next prompt
    expect(await promptAndWait(engine, s.id, 'after accept')).toBe('end_turn');
    expect(lastTurnText(engine, s.id)).toContain('Root rule: always be kind.');
    expect(await promptAndWait(engine, s.id, 'read pkg')).toBe('end_turn');
    expect(await promptAndWait(engine, s.id, 'next')).toBe('end_turn');
    expect(lastTurnText(engine, s.id)).toContain('Nested rule: use spaces in pkg.');
  }, 90_000);

  it('after the agent crashed: resuming with a changed static rule fails closed', async () => {
    const world = worlds.create(SCENARIO, NESTED_RULES);
    const engine = world.openTrusted();
    const s = await sessionWithNestedRules(engine, world.ws);
    expect(await promptAndWait(engine, s.id, 'crash now')).toBe('crashed');
    await waitFor(() => engine.sessions.show(s.id).state === 'failed' && !engine.sessions.show(s.id).live, 'the crash');

    world.write({ 'AGENTS.md': 'Root rule: always be kind.\nAnd tidy.\n' });
    await engine.sessions.resume(s.id);
    const policy = engine.policy.view(s.id);
    expect(policy.mismatch?.changes.map((c) => [c.relativePath, c.change, c.scope])).toEqual([['AGENTS.md', 'edited', 'static']]);
    expect(engine.sessions.show(s.id).lastError).toContain('Project rule provenance mismatch');
    expect(notices(engine, s.id, 'rules_mismatch')).toHaveLength(1);
  }, 90_000);

  it('after the agent lost the session (replaced-by-new): the static rules and the loaded contextual rules go again with the next prompt', async () => {
    const world = worlds.create({ ...SCENARIO, persist: false }, NESTED_RULES);
    const engine = world.openTrusted({ sessions: { idleMs: 300 } });
    const s = await sessionWithNestedRules(engine, world.ws);
    await idleShutdown(engine, s.id);

    expect(await promptAndWait(engine, s.id, 'where were we')).toBe('end_turn');
    expect(engine.sessions.show(s.id).resume?.outcome).toBe('replaced-by-new');
    const text = lastTurnText(engine, s.id);
    expect(text).toContain('Root rule: always be kind.');
    expect(text).toContain('Nested rule: use tabs in pkg.');
    expect(notices(engine, s.id, 'rules_loaded').at(-1)?.title).toBe('Static rules sent again (the agent started a new session) (1 file, text)');
    // recorded once: the contextual reference is not duplicated, and nothing is sent a third time
    expect(engine.policy.view(s.id).contextualRules.map((r) => r.relativePath)).toEqual(['pkg/AGENTS.md']);
    expect(await promptAndWait(engine, s.id, 'and now')).toBe('end_turn');
    expect(lastTurnText(engine, s.id)).toBe('echo: and now');
  }, 90_000);
});
