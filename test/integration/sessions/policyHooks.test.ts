import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/main/core/engine';
import { approveHooks, commandHook, DENY_RM_HOOK, hookRef, hookSettings, items, lastTurnText, notices, policyWorlds, promptAndWait, refusingHookScript } from '../../support/policy';
import { waitFor } from '../../support/sessions';

/**
 * Hooks and MCP servers in sessions, with the scripted ACP agent: approved hooks run at the ACP boundary, the
 * others never run and are reported once; only approved MCP servers reach the agent.
 */

const START = '#!/bin/sh\necho "Remember: the build command is make"\n';
const MARKER = '#!/bin/sh\ntouch "$CLAUDE_PROJECT_DIR/marker-from-hook"\n';
const PROMPT_GUARD = refusingHookScript('*forbidden*', 'no forbidden words');
const STOP_BLOCK = '#!/bin/sh\necho \'{"decision":"block","reason":"keep going"}\'\n';

const worlds = policyWorlds();

/** The last turn's text with its stop item, so a blocked prompt shows the reason. */
const turnText = (engine: Engine, id: string) => lastTurnText(engine, id, { stops: true });

describe('approved hooks and MCP servers in sessions (scripted agent)', () => {
  it('runs approved SessionStart, UserPromptSubmit and PreToolUse hooks (denying rm); an unapproved hook never runs and is reported once', async () => {
    const world = worlds.create(
      {
        turns: [
          { match: '^rm it', steps: [{ terminal: { command: 'rm', args: ['victim.txt'], cwd: '{{cwd}}' } }] },
          { match: '^list it', steps: [{ terminal: { command: 'echo', args: ['listed'], cwd: '{{cwd}}' } }] },
        ],
      },
      {
        'victim.txt': 'keep me\n',
        '.claude/hooks/deny-rm.sh': DENY_RM_HOOK,
        '.claude/hooks/start.sh': START,
        '.claude/hooks/marker.sh': MARKER,
        '.claude/hooks/prompt-guard.sh': PROMPT_GUARD,
        '.claude/settings.json': hookSettings({
          SessionStart: [{ hooks: [commandHook('sh .claude/hooks/start.sh'), commandHook('sh .claude/hooks/marker.sh')] }],
          UserPromptSubmit: [{ hooks: [commandHook('sh .claude/hooks/prompt-guard.sh')] }],
          PreToolUse: [{ matcher: 'Bash', hooks: [commandHook('sh .claude/hooks/deny-rm.sh')] }],
        }),
      },
    );
    const engine = world.openTrusted();
    await approveHooks(engine, world.ws, ['start.sh', 'prompt-guard.sh', 'deny-rm.sh']);
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });

    expect(await promptAndWait(engine, s.id, 'hello')).toBe('end_turn');
    const hello = turnText(engine, s.id);
    expect(hello).toContain('<hook-context>');
    expect(hello).toContain('Remember: the build command is make');
    // the unapproved SessionStart hook never ran, and the transcript says so once
    expect(fs.existsSync(path.join(world.ws, 'marker-from-hook'))).toBe(false);
    const skipped = notices(engine, s.id, 'hooks_skipped');
    expect(skipped).toHaveLength(1);
    expect(skipped[0].title).toBe('1 hook not run by Atrium: not approved');
    expect(skipped[0].detail).toContain('it may load and run the repository\'s own hooks by itself');
    expect(skipped[0].detail).toContain('marker.sh');
    const markerHook = await hookRef(engine, world.ws, 'marker.sh');
    expect(skipped[0].link).toEqual({ tab: 'hooks', ids: [markerHook.id] });
    const policy = engine.policy.view(s.id);
    expect(policy.hooks.skipped).toEqual([expect.objectContaining({ id: markerHook.id, state: 'unapproved' })]);
    expect(policy.hooks.approved.map((h) => h.event).sort()).toEqual(['PreToolUse', 'SessionStart', 'UserPromptSubmit']);

    // PreToolUse denies rm (Bash {command}); the file stays
    expect(await promptAndWait(engine, s.id, 'rm it')).toBe('end_turn');
    expect(turnText(engine, s.id)).toContain('terminal error: A PreToolUse hook refused this command: rm is not allowed in this repository');
    expect(fs.readFileSync(path.join(world.ws, 'victim.txt'), 'utf8')).toBe('keep me\n');
    expect(await promptAndWait(engine, s.id, 'list it')).toBe('end_turn');
    expect(turnText(engine, s.id)).toContain('output="listed\\n"');
    const runs = engine.policy.view(s.id).hooks.runs;
    expect(runs.find((r) => r.event === 'PreToolUse' && r.decision === 'deny')).toMatchObject({ tool: 'Bash', reason: 'rm is not allowed in this repository', effect: 'refused the command' });
    expect(runs.filter((r) => r.event === 'PreToolUse').map((r) => r.decision)).toEqual(['deny', 'none']);

    // a blocking UserPromptSubmit stops the prompt with the reason; the session goes on
    expect(await promptAndWait(engine, s.id, 'say something forbidden')).toBe('error');
    expect(turnText(engine, s.id)).toContain('A UserPromptSubmit hook blocked the prompt: no forbidden words');
    expect(await promptAndWait(engine, s.id, 'fine again')).toBe('end_turn');

    // the snapshot: approving the marker hook now does not add it to this running session
    await approveHooks(engine, world.ws, ['marker.sh']);
    expect(await promptAndWait(engine, s.id, 'still fine')).toBe('end_turn');
    expect(fs.existsSync(path.join(world.ws, 'marker-from-hook'))).toBe(false);
    expect(notices(engine, s.id, 'hooks_skipped')).toHaveLength(1);
    // a new session has it
    const next = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    await waitFor(() => fs.existsSync(path.join(world.ws, 'marker-from-hook')), 'the approved SessionStart hook of the new session');
    expect(notices(engine, next.id, 'hooks_skipped')).toHaveLength(0);
  }, 90_000);

  it('a blocking Stop hook sends its reason as a follow-up prompt, at most 8 times in a row', async () => {
    const world = worlds.create({}, { '.claude/hooks/stop.sh': STOP_BLOCK, '.claude/settings.json': hookSettings({ Stop: [{ hooks: [commandHook('sh .claude/hooks/stop.sh')] }] }) });
    const engine = world.openTrusted();
    await approveHooks(engine, world.ws, ['stop.sh']);
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    expect(await promptAndWait(engine, s.id, 'go')).toBe('end_turn');
    await waitFor(() => engine.policy.view(s.id).hooks.runs.some((r) => r.effect?.startsWith('ignored')), 'the ninth Stop block to be ignored', 60_000);
    const users = items(engine, s.id).filter((i) => i.kind === 'user_message');
    expect(users.map((u) => (u.kind === 'user_message' ? u.text : ''))).toEqual(['go', ...Array(8).fill('keep going')]);
    const effects = engine.policy.view(s.id).hooks.runs.map((r) => r.effect);
    expect(effects.slice(0, 8)).toEqual(Array.from({ length: 8 }, (_, i) => `sent the reason as follow-up prompt ${i + 1}/8`));
    await waitFor(() => !engine.sessions.show(s.id).queue.length && engine.sessions.show(s.id).state === 'idle', 'the session to settle');
    // a user prompt starts a new series
    expect(await promptAndWait(engine, s.id, 'again')).toBe('end_turn');
    await waitFor(() => engine.policy.view(s.id).hooks.runs.filter((r) => r.effect?.startsWith('ignored')).length === 2, 'the second series to end', 60_000);
  }, 120_000);

  it('passes only approved MCP servers and lists the withheld ones', async () => {
    const world = worlds.create(
      { turns: [{ match: '^mcp', steps: [{ text: 'mcp: [{{mcp}}]' }] }] },
      {
        '.mcp.json': { mcpServers: { docs: { command: 'node', args: ['docs-server.js'] }, shady: { command: 'node', args: ['shady-server.js'], env: { TOKEN: 'secret-value-123456' } } } },
      },
    );
    const engine = world.openTrusted();
    await approveHooks(engine, world.ws, ['docs']);
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    expect(await promptAndWait(engine, s.id, 'mcp please')).toBe('end_turn');
    expect(turnText(engine, s.id)).toContain('mcp: [docs]');
    const policy = engine.policy.view(s.id);
    expect(policy.mcp.passed).toEqual(['docs']);
    expect(policy.mcp.withheld).toEqual([expect.objectContaining({ name: 'shady', state: 'unapproved', heldBack: false })]);
    const withheld = notices(engine, s.id, 'mcp_withheld');
    expect(withheld).toHaveLength(1);
    expect(withheld[0].title).toBe('1 MCP server not passed by Atrium: shady');
    expect(withheld[0].detail).toContain('it may start MCP servers from the repository\'s own configuration by itself');
    expect(policy.agent.isolated).toBe(false);
    expect(JSON.stringify(items(engine, s.id))).not.toContain('secret-value-123456');
  }, 60_000);

  it('runs PostToolUse after fs writes (context for the next prompt), PermissionRequest on permission requests, Notification while one waits, SessionEnd on close', async () => {
    const world = worlds.create(
      {
        turns: [
          { match: '^write file', steps: [{ write: { path: '{{cwd}}/out.txt', content: 'x\n' } }] },
          { match: '^ask edit', steps: [{ permission: { toolCallId: 'p1', title: 'Edit out.txt', kind: 'edit', locations: [{ path: '{{cwd}}/out.txt' }] } }] },
          { match: '^ask exec', steps: [{ permission: { toolCallId: 'p2', title: 'Run the tests', kind: 'execute' } }] },
        ],
      },
      {
        '.claude/hooks/post.sh': `#!/bin/sh\ncat > /dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"Formatted the file."}}'\n`,
        '.claude/hooks/perm.sh': `#!/bin/sh\ncat > /dev/null\necho '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}'\n`,
        '.claude/hooks/notify.sh': '#!/bin/sh\ncat > "$CLAUDE_PROJECT_DIR/notified.json"\n',
        '.claude/hooks/end.sh': '#!/bin/sh\ncat > "$CLAUDE_PROJECT_DIR/ended.json"\n',
        '.claude/settings.json': hookSettings({
          PostToolUse: [{ matcher: 'Write', hooks: [commandHook('sh .claude/hooks/post.sh')] }],
          PermissionRequest: [{ matcher: 'Edit', hooks: [commandHook('sh .claude/hooks/perm.sh')] }],
          Notification: [{ hooks: [commandHook('sh .claude/hooks/notify.sh')] }],
          SessionEnd: [{ hooks: [commandHook('sh .claude/hooks/end.sh')] }],
        }),
      },
    );
    const engine = world.openTrusted();
    await approveHooks(engine, world.ws, ['post.sh', 'perm.sh', 'notify.sh', 'end.sh']);
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });

    expect(await promptAndWait(engine, s.id, 'write file')).toBe('end_turn');
    expect(await promptAndWait(engine, s.id, 'next')).toBe('end_turn');
    expect(turnText(engine, s.id)).toContain('Formatted the file.');

    expect(await promptAndWait(engine, s.id, 'ask edit')).toBe('end_turn');
    expect(turnText(engine, s.id)).toContain('permission: allow');
    expect(items(engine, s.id).find((i) => i.kind === 'permission')).toMatchObject({ answeredBy: 'hook', optionId: 'allow' });
    expect(fs.existsSync(path.join(world.ws, 'notified.json'))).toBe(false);

    const exec = engine.sessions.prompt(s.id, 'ask exec');
    const waiting = await waitFor(() => engine.sessions.show(s.id).permissions[0], 'the permission request');
    const notified = await waitFor(() => JSON.parse(fs.readFileSync(path.join(world.ws, 'notified.json'), 'utf8')) as Record<string, unknown>, 'the Notification hook');
    expect(notified).toMatchObject({ hook_event_name: 'Notification', notification_type: 'permission_prompt', message: 'The agent needs your permission to use Run the tests' });
    engine.sessions.answerPermission(s.id, waiting.requestId, 'reject');
    expect(await engine.sessions.waitForTurn(s.id, exec.promptId)).toBe('end_turn');

    await engine.sessions.closeSession(s.id);
    const ended = JSON.parse(fs.readFileSync(path.join(world.ws, 'ended.json'), 'utf8')) as Record<string, unknown>;
    expect(ended).toMatchObject({ hook_event_name: 'SessionEnd', session_id: s.id });
    const events = engine.policy.view(s.id).hooks.runs.map((r) => r.event);
    expect(events).toEqual(['PostToolUse', 'PermissionRequest', 'Notification', 'SessionEnd']);
  }, 60_000);

  it('an approved "if": "Bash(git push *)" guard sees terminal commands sent as an argv the way they run: sh -c / bash -c scripts, env prefixes, a shell line (Claude Code permission-rule docs: Bash rules match each subcommand)', async () => {
    const GUARD = '#!/bin/sh\ncat >/dev/null\necho "push blocked by guard" >&2\nexit 2\n';
    const forms: Array<{ command: string; args?: string[] }> = [
      { command: 'git', args: ['push', 'origin'] },
      { command: 'sh', args: ['-c', 'git push origin'] },
      { command: 'bash', args: ['-c', 'FOO=1 git push origin 2>&1; echo ran'] },
      { command: 'env', args: ['FOO=1', 'git', 'push'] },
      { command: 'true && git push origin' },
    ];
    const world = worlds.create(
      {
        turns: [
          ...forms.map((t, i) => ({ match: `^push ${i}$`, steps: [{ terminal: { ...t, cwd: '{{cwd}}' } }] })),
          { match: '^status$', steps: [{ terminal: { command: 'sh', args: ['-c', 'echo git pushed nothing'], cwd: '{{cwd}}' } }] },
        ],
      },
      {
        '.claude/hooks/guard.sh': GUARD,
        '.claude/settings.json': hookSettings({ PreToolUse: [{ matcher: 'Bash', hooks: [commandHook('sh .claude/hooks/guard.sh', { if: 'Bash(git push *)' })] }] }),
      },
    );
    const engine = world.openTrusted();
    await approveHooks(engine, world.ws, ['guard.sh']);
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    for (let i = 0; i < forms.length; i++) {
      expect(await promptAndWait(engine, s.id, `push ${i}`)).toBe('end_turn');
      const text = turnText(engine, s.id);
      expect(text, `${JSON.stringify(forms[i])} must be refused`).toContain('terminal error: A PreToolUse hook refused this command: push blocked by guard');
      expect(text).not.toContain('output=');
    }
    // a command the rule does not name runs, and the guard is never started for it
    expect(await promptAndWait(engine, s.id, 'status')).toBe('end_turn');
    expect(turnText(engine, s.id)).toContain('output="git pushed nothing\\n"');
    const runs = engine.policy.view(s.id).hooks.runs.filter((r) => r.event === 'PreToolUse');
    expect(runs.map((r) => r.decision)).toEqual(forms.map(() => 'deny'));
  }, 120_000);
});
