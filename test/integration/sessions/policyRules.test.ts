import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveFolder } from '../../../src/main/core/workspaces/paths';
import type { AgentPreset } from '../../../src/main/core/sessions/presets';
import type { RuleFormat } from '../../../src/main/core/rules/types';
import { agentText, items, type PolicyWorld, lastTurnText, NESTED_RULES, notices, policyWorlds, promptAndWait, READ_PKG_TURN, sessionWithNestedRules } from '../../support/policy';
import { scriptedAgentCommand, waitFor } from '../../support/sessions';

/**
 * Session policy with the scripted ACP agent: the session snapshot and its provenance,
 * static rules with the first prompt, contextual rules after reads, the first-write barrier, and
 * resume failing closed after a rule changed.
 */

const RULES = {
  ...NESTED_RULES,
  '.claude/rules/ts.md': '---\npaths:\n  - "src/**/*.ts"\n---\nTS rule: every file starts with a header comment.\n',
};

const SCENARIO = {
  capabilities: { resume: true, loadSession: true },
  turns: [READ_PKG_TURN, { match: '^write ts', steps: [{ write: { path: '{{cwd}}/src/a.ts', content: '// header\nexport {};\n', retry: 1 } }] }],
};

const worlds = policyWorlds();

/** An engine on `world` whose only preset runs the scripted agent as one that reads `format` rule files natively. */
function nativePresetEngine(world: PolicyWorld, id: string, format: RuleFormat) {
  const bin = path.join(world.base, 'bin');
  fs.mkdirSync(bin);
  const { command, args } = scriptedAgentCommand(world.base, {}, 'native');
  fs.writeFileSync(path.join(bin, 'scripted-native'), `#!/bin/sh\nexec ${[command, ...args].map((a) => `'${a}'`).join(' ')}\n`, { mode: 0o755 });
  const preset: AgentPreset = {
    id,
    name: `${id} agent`,
    description: `reads ${format} rule files itself`,
    package: id,
    version: '1.0.0',
    bin: 'scripted-native',
    launch: 'exec',
    args: [],
    env: {},
    allowScripts: [],
    initialModeId: null,
    nativeRuleFormats: [format],
  };
  return world.openTrusted({ sessions: { presets: [preset], envPath: bin } });
}

describe('sessions obey the workspace rules (scripted agent)', () => {
  it('sends static rules once, attaches nested AGENTS.md rules after a read, blocks the first write then lets the retry through', async () => {
    const world = worlds.create(SCENARIO, RULES);
    const engine = world.openTrusted();
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });

    expect(await promptAndWait(engine, s.id, 'hello')).toBe('end_turn');
    const first = lastTurnText(engine, s.id);
    expect(first).toContain('<project-instructions>');
    expect(first).toContain('Root rule: always be kind.');
    expect(first).not.toContain('Nested rule');
    expect(first).not.toContain('TS rule');

    expect(await promptAndWait(engine, s.id, 'read pkg')).toBe('end_turn');
    expect(lastTurnText(engine, s.id)).toContain('read: some notes');
    // rules triggered by the read go with the next prompt, static rules are not repeated
    expect(await promptAndWait(engine, s.id, 'next')).toBe('end_turn');
    const next = lastTurnText(engine, s.id);
    expect(next).toContain('<contextual-project-instructions trigger-paths="pkg/notes.txt">');
    expect(next).toContain('Nested rule: use tabs in pkg.');
    expect(next).not.toContain('Root rule');

    // first-write barrier: refused before any side effect with the rules, then the retry passes
    expect(await promptAndWait(engine, s.id, 'write ts')).toBe('end_turn');
    const write = lastTurnText(engine, s.id);
    expect(write).toMatch(/write error: Applicable project instructions were loaded before this write\. Review the newly supplied rules, then retry the write\./);
    expect(write).toContain('TS rule: every file starts with a header comment.');
    expect(write.indexOf('write error')).toBeLessThan(write.indexOf('write ok'));
    expect(fs.readFileSync(path.join(world.ws, 'src/a.ts'), 'utf8')).toBe('// header\nexport {};\n');

    expect(await promptAndWait(engine, s.id, 'again')).toBe('end_turn');
    const again = lastTurnText(engine, s.id);
    expect(again).not.toContain('Root rule');
    expect(again).not.toContain('Nested rule');
    expect(again).not.toContain('TS rule');

    // the transcript keeps compact "rules loaded" entries: references and trigger paths, never bodies
    const loaded = notices(engine, s.id, 'rules_loaded');
    expect(loaded.map((n) => n.rules?.map((r) => r.relativePath))).toEqual([['AGENTS.md'], ['pkg/AGENTS.md'], ['.claude/rules/ts.md']]);
    expect(loaded[1].triggerPaths).toEqual(['pkg/notes.txt']);
    expect(loaded[2]).toMatchObject({ severity: 'warning', triggerPaths: ['src/a.ts'] });
    const transcriptJson = JSON.stringify(items(engine, s.id).filter((i) => i.kind === 'notice'));
    expect(transcriptJson).not.toContain('always be kind');
    expect(transcriptJson).not.toContain('use tabs');
    expect(transcriptJson).not.toContain('header comment');

    const { policy } = { policy: engine.policy.view(s.id) };
    expect(policy.staticRules).toMatchObject({ delivery: 'text', files: [{ relativePath: 'AGENTS.md', source: 'project' }], native: [] });
    expect(policy.staticRules?.sentAt).toBeTruthy();
    expect(policy.contextualRules.map((r) => [r.relativePath, r.trigger, r.blockedWrite, r.delivery])).toEqual([
      ['pkg/AGENTS.md', 'read', false, 'text'],
      ['.claude/rules/ts.md', 'write', true, 'write-error'],
    ]);
    expect(policy.snapshot).toMatchObject({ sourceDir: world.ws, trust: 'trusted' });
  }, 60_000);

  it('sends rules as embedded file:// resources when the agent advertises embeddedContext', async () => {
    const world = worlds.create({ ...SCENARIO, capabilities: { embeddedContext: true } }, RULES);
    const engine = world.openTrusted();
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    expect(await promptAndWait(engine, s.id, 'hello')).toBe('end_turn');
    const text = lastTurnText(engine, s.id);
    expect(text).toContain(`[resource file://${path.join(world.ws, 'AGENTS.md')}]`);
    expect(text).toContain('Root rule: always be kind.');
    expect(text).not.toContain('<project-instructions>');
    expect(engine.policy.view(s.id).staticRules?.delivery).toBe('embedded');
    const user = items(engine, s.id).find((i) => i.kind === 'user_message');
    expect(user).toMatchObject({ text: 'hello' });
  }, 60_000);

  it('keeps the snapshot a session was given: later edits and trust revocation do not change it; a new session sees the new state', async () => {
    const world = worlds.create(SCENARIO, RULES);
    const engine = world.openTrusted();
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    expect(await promptAndWait(engine, s.id, 'hello')).toBe('end_turn');

    world.write({ 'pkg/AGENTS.md': 'Nested rule: CHANGED on disk.\n', 'AGENTS.md': 'Root rule: CHANGED on disk.\n' });
    await engine.resources.refresh(world.ws);
    engine.trust.set(resolveFolder(world.ws), 'untrusted');
    await engine.resources.refresh(world.ws);

    expect(await promptAndWait(engine, s.id, 'read pkg')).toBe('end_turn');
    expect(await promptAndWait(engine, s.id, 'next')).toBe('end_turn');
    const next = lastTurnText(engine, s.id);
    expect(next).toContain('Nested rule: use tabs in pkg.');
    expect(next).not.toContain('CHANGED');

    // a new session in the now untrusted workspace gets no project rules at all
    const fresh = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    expect(await promptAndWait(engine, fresh.id, 'hello')).toBe('end_turn');
    const freshText = lastTurnText(engine, fresh.id);
    expect(freshText).not.toContain('Root rule');
    expect(engine.policy.view(fresh.id).snapshot?.trust).toBe('restricted');
    // trusted again: the new session after that sees the changed file
    engine.trust.set(resolveFolder(world.ws), 'trusted');
    await engine.resources.refresh(world.ws);
    const third = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    expect(await promptAndWait(engine, third.id, 'hello')).toBe('end_turn');
    expect(lastTurnText(engine, third.id)).toContain('Root rule: CHANGED on disk.');
  }, 60_000);

  it('fails closed when a static or loaded contextual rule changed before a resume, then continues with the current rules after the user accepts', async () => {
    const world = worlds.create(SCENARIO, RULES);
    let engine = world.openTrusted();
    const s = await sessionWithNestedRules(engine, world.ws);
    const recorded = engine.policy.view(s.id);
    await world.closeAll();

    world.write({ 'AGENTS.md': 'Root rule: be very kind.\n', 'pkg/AGENTS.md': 'Nested rule: use spaces in pkg.\n' });
    engine = world.open();
    const blocked = engine.sessions.prompt(s.id, 'continue');
    expect(await engine.sessions.waitForTurn(s.id, blocked.promptId)).toBe('dropped');
    const paused = engine.sessions.show(s.id);
    expect(paused.state).toBe('paused');
    expect(paused.pausedReason).toBe('rules_changed');
    expect(paused.lastError).toContain('Project rule provenance mismatch');
    expect(paused.lastError).toContain('AGENTS.md');
    expect(paused.live).toBe(false);
    // a paused session takes no prompt: it would only start an agent under rules nobody accepted
    expect(() => engine.sessions.prompt(s.id, 'again')).toThrow(expect.objectContaining({ code: 'SESSION_PAUSED' }));

    const policy = engine.policy.view(s.id);
    expect(policy.mismatch?.actions).toEqual(['continue', 'new']);
    expect(policy.mismatch?.recordedProvenanceSha256).toBe(recorded.staticRules?.provenanceSha256);
    const changes = policy.mismatch!.changes;
    expect(changes.map((c) => [c.relativePath, c.change, c.scope])).toEqual([
      ['AGENTS.md', 'edited', 'static'],
      ['pkg/AGENTS.md', 'edited', 'contextual'],
    ]);
    expect(changes[0].diff).toContain('-Root rule: always be kind.');
    expect(changes[0].diff).toContain('+Root rule: be very kind.');
    expect(changes[1].diff).toContain('+Nested rule: use spaces in pkg.');
    expect(notices(engine, s.id, 'rules_mismatch')).toHaveLength(1);

    // still closed on another attempt
    await engine.sessions.resume(s.id);
    expect(engine.sessions.show(s.id).state).toBe('paused');
    expect(notices(engine, s.id, 'rules_mismatch')).toHaveLength(1);

    const continued = await engine.policy.resolveMismatch(s.id, 'continue');
    expect(continued.state).toBe('idle');
    expect(continued.resume?.outcome).toBe('resumed');
    const accepted = notices(engine, s.id, 'rules_accepted');
    expect(accepted).toHaveLength(1);
    expect(accepted[0].detail).toContain('edited AGENTS.md (static)');
    // the line a person reads names what changed, not digests (the new provenance is in the policy view)
    expect(accepted[0].title).toBe('Continued with the current rules (2 files changed)');
    expect(accepted[0].title).not.toContain(engine.policy.view(s.id).staticRules!.provenanceSha256.slice(0, 12));
    expect(engine.policy.view(s.id).mismatch).toBeNull();
    expect(await promptAndWait(engine, s.id, 'after accept')).toBe('end_turn');
    expect(lastTurnText(engine, s.id)).toContain('Root rule: be very kind.');
    // the changed contextual rule loads again when triggered
    expect(await promptAndWait(engine, s.id, 'read pkg')).toBe('end_turn');
    expect(await promptAndWait(engine, s.id, 'next')).toBe('end_turn');
    expect(lastTurnText(engine, s.id)).toContain('Nested rule: use spaces in pkg.');

    // and the next restart resumes without complaint
    await world.closeAll();
    engine = world.open();
    expect(await promptAndWait(engine, s.id, 'once more')).toBe('end_turn');
    expect(engine.sessions.show(s.id).state).toBe('idle');
  }, 90_000);

  it('"start a new session" after a mismatch closes the old one and starts over with the current rules', async () => {
    const world = worlds.create(SCENARIO, RULES);
    let engine = world.openTrusted();
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted', title: 'old' });
    expect(await promptAndWait(engine, s.id, 'hello')).toBe('end_turn');
    await world.closeAll();
    world.write({ 'AGENTS.md': 'Root rule: new version.\n' });
    engine = world.open();
    await engine.sessions.resume(s.id);
    await waitFor(() => engine.policy.view(s.id).mismatch, 'the mismatch');
    const created = await engine.policy.resolveMismatch(s.id, 'new');
    expect(created.id).not.toBe(s.id);
    expect(engine.sessions.show(s.id).state).toBe('closed');
    expect(await promptAndWait(engine, created.id, 'hello')).toBe('end_turn');
    expect(agentText(engine, created.id)).toContain('Root rule: new version.');
  }, 60_000);

  it('maps tool-call locations and permission requests to contextual rules; a write-kind permission under new rules is refused and the rules go with the next prompt', async () => {
    const world = worlds.create(
      {
        turns: [
          { match: 'locate', steps: [{ toolCall: { id: 't1', title: 'Look at notes', kind: 'read', status: 'completed', locations: [{ path: '{{cwd}}/pkg/notes.txt' }] } }] },
          { match: 'ask to edit', steps: [{ permission: { toolCallId: 'e1', title: 'Edit src/b.ts', kind: 'edit', locations: [{ path: '{{cwd}}/src/b.ts' }] } }, { permission: { toolCallId: 'e2', title: 'Edit src/b.ts again', kind: 'edit', locations: [{ path: '{{cwd}}/src/b.ts' }] } }] },
        ],
      },
      RULES,
    );
    const engine = world.openTrusted();
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    expect(await promptAndWait(engine, s.id, 'hello')).toBe('end_turn');
    expect(await promptAndWait(engine, s.id, 'locate it')).toBe('end_turn');
    expect(await promptAndWait(engine, s.id, 'next')).toBe('end_turn');
    expect(lastTurnText(engine, s.id)).toContain('Nested rule: use tabs in pkg.');

    const asking = engine.sessions.prompt(s.id, 'ask to edit');
    // the first edit is refused by the barrier (answered by `hook`); the second waits for the user
    const pending = await waitFor(() => engine.sessions.show(s.id).permissions[0], 'the second permission request');
    expect(pending.title).toBe('Edit src/b.ts again');
    engine.sessions.answerPermission(s.id, pending.requestId, 'allow');
    expect(await engine.sessions.waitForTurn(s.id, asking.promptId)).toBe('end_turn');
    const turn = lastTurnText(engine, s.id);
    expect(turn).toContain('permission: reject');
    expect(turn).toContain('permission: allow');
    const answered = items(engine, s.id).filter((i) => i.kind === 'permission');
    expect(answered.map((p) => (p.kind === 'permission' ? [p.title, p.answeredBy] : null))).toEqual([
      ['Edit src/b.ts', 'hook'],
      ['Edit src/b.ts again', 'user'],
    ]);
    expect(await promptAndWait(engine, s.id, 'next')).toBe('end_turn');
    expect(lastTurnText(engine, s.id)).toContain('TS rule: every file starts with a header comment.');
    expect(engine.policy.view(s.id).contextualRules.map((r) => [r.relativePath, r.trigger, r.blockedWrite])).toEqual([
      ['pkg/AGENTS.md', 'tool', false],
      ['.claude/rules/ts.md', 'permission', true],
    ]);
  }, 60_000);

  it('does not send rule files a preset says its agent loads natively, and says so in the transcript', async () => {
    const world = worlds.create({}, { 'AGENTS.md': 'Agents rule: loaded by the agent itself.\n', 'CLAUDE.md': 'Claude rule: sent by Atrium.\n' });
    const engine = nativePresetEngine(world, 'native-test', 'agents');
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'native-test' });
    expect(await promptAndWait(engine, s.id, 'hello')).toBe('end_turn');
    const text = agentText(engine, s.id);
    expect(text).toContain('Claude rule: sent by Atrium.');
    expect(text).not.toContain('Agents rule');
    const native = notices(engine, s.id, 'rules_native');
    expect(native).toHaveLength(1);
    expect(native[0].title).toContain('AGENTS.md');
    expect(native[0].rules?.map((r) => r.relativePath)).toEqual(['AGENTS.md']);
    const policy = engine.policy.view(s.id);
    expect(policy.staticRules?.native.map((r) => r.relativePath)).toEqual(['AGENTS.md']);
    expect(policy.staticRules?.files.map((r) => r.relativePath)).toEqual(['CLAUDE.md']);
    expect(policy.agent).toMatchObject({ agentId: 'native-test', nativeRuleFormats: ['agents'], isolated: false });
  }, 60_000);

  it('a kept file whose symlinked twin the agent reads natively is not sent either (GEMINI.md -> AGENTS.md for an agent that reads GEMINI.md)', async () => {
    const world = worlds.create({}, { 'AGENTS.md': 'Shared rule: the agent reads it as GEMINI.md.\n', 'CLAUDE.md': 'Claude rule: sent by Atrium.\n' });
    fs.symlinkSync('AGENTS.md', path.join(world.ws, 'GEMINI.md'));
    const engine = nativePresetEngine(world, 'native-twin-test', 'gemini');
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'native-twin-test' });
    expect(await promptAndWait(engine, s.id, 'hello')).toBe('end_turn');
    const text = agentText(engine, s.id);
    expect(text).toContain('Claude rule: sent by Atrium.');
    expect(text).not.toContain('Shared rule');
    const policy = engine.policy.view(s.id);
    expect(policy.staticRules?.native.map((r) => r.relativePath)).toEqual(['AGENTS.md']);
    expect(policy.staticRules?.files.map((r) => r.relativePath)).toEqual(['CLAUDE.md']);
  }, 60_000);
});
