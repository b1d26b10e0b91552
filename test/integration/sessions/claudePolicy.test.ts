import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeWorld, lastMessageText, promptAllowing, requestText, waitFor, type ClaudeWorld } from '../../support/claude';
import { endsWithToolResult, lastUserText, type FakeRequest } from '../../support/fakeAnthropic';
import { agentText, approveHooks, commandHook, DENY_RM_HOOK, hookRef, hookSettings, NESTED_RULES, notices, promptAndWait } from '../../support/policy';

/**
 * Session policy with the real Claude Code ACP adapter (pinned devDependency) against a fake Messages
 * endpoint: Claude writes files itself, so the first-write barrier, static rules and approved hooks
 * reach it through its own hook mechanism and system prompt (acp.md §7).
 */

let world: ClaudeWorld | null = null;
afterEach(async () => {
  await world?.closeAll();
  world = null;
});

const hasToolResult = (req: FakeRequest, needle: string) => endsWithToolResult(req) && lastMessageText(req).includes(needle);

describe('Claude Code sessions obey the workspace (real adapter, fake endpoint)', () => {
  it('gets static rules in its system prompt, nested rules after a Read, and its first Write refused with the rules until it retries', async () => {
    let ws = '';
    world = await claudeWorld((req) => {
      const text = lastUserText(req);
      if (text.includes('<session>')) return { text: 'Title' };
      if (/please read/.test(text)) {
        if (endsWithToolResult(req)) return { text: 'read done' };
        return { toolUse: { name: 'Read', input: { file_path: path.join(ws, 'pkg/notes.txt') } } };
      }
      if (/please write/.test(text)) {
        if (hasToolResult(req, 'Applicable project instructions')) return { toolUse: { name: 'Write', input: { file_path: path.join(ws, 'src/a.ts'), content: '// header\nexport {};\n' } } };
        if (endsWithToolResult(req)) return { text: 'write done' };
        return { toolUse: { name: 'Write', input: { file_path: path.join(ws, 'src/a.ts'), content: 'export {};\n' } } };
      }
      return { text: 'hello' };
    });
    ws = world.ws;
    world.write({ ...NESTED_RULES, '.claude/rules/ts.md': '---\npaths:\n  - "src/**/*.ts"\n---\nTS rule: every file starts with a header comment.\n' });
    const engine = world.openTrusted();
    const s = engine.sessions.create({ cwd: ws, agentId: 'claude' });

    expect(await promptAndWait(engine, s.id, 'say hi')).toBe('end_turn');
    const fake = world.fake;
    const turnRequests = () => fake.requests.filter((r) => !lastUserText(r).includes('<session>'));
    expect(JSON.stringify(turnRequests()[0].body.system)).toContain('Root rule: always be kind.');
    // not repeated in the prompt itself, and nothing contextual yet
    expect(JSON.stringify(turnRequests()[0].body.messages)).not.toContain('Root rule');
    expect(requestText(turnRequests()[0])).not.toContain('Nested rule');
    expect(engine.policy.view(s.id).staticRules).toMatchObject({ delivery: 'system-prompt', files: [{ relativePath: 'AGENTS.md' }] });

    expect(await promptAllowing(engine, s.id, 'please read the notes')).toBe('end_turn');
    const afterRead = turnRequests().find((r) => hasToolResult(r, 'some notes'));
    expect(afterRead, 'the request carrying the Read result').toBeTruthy();
    expect(requestText(afterRead!)).toContain('Nested rule: use tabs in pkg.');

    expect(await promptAllowing(engine, s.id, 'please write a.ts')).toBe('end_turn');
    const refused = turnRequests().find((r) => hasToolResult(r, 'Applicable project instructions'));
    expect(refused, 'the request telling the model its first Write was refused').toBeTruthy();
    expect(lastMessageText(refused!)).toContain('TS rule: every file starts with a header comment.');
    // Claude wrote the file itself, on the retry only
    expect(fs.readFileSync(path.join(ws, 'src/a.ts'), 'utf8')).toBe('// header\nexport {};\n');
    expect(agentText(engine, s.id)).toContain('write done');

    const loaded = engine.policy.view(s.id).contextualRules;
    expect(loaded.map((r) => [r.relativePath, r.trigger, r.blockedWrite, r.delivery])).toEqual([
      ['pkg/AGENTS.md', 'read', false, 'claude-hook'],
      ['.claude/rules/ts.md', 'write', true, 'claude-hook'],
    ]);
    expect(notices(engine, s.id, 'rules_loaded').map((n) => n.rules?.[0]?.relativePath)).toEqual(['AGENTS.md', 'pkg/AGENTS.md', '.claude/rules/ts.md']);
  }, 180_000);

  it('never runs an unapproved repository SessionStart hook (Claude loads no settings itself); runs it once approved; denies rm through an approved PreToolUse hook', async () => {
    let ws = '';
    world = await claudeWorld((req) => {
      const text = lastUserText(req);
      if (text.includes('<session>')) return { text: 'Title' };
      if (/remove the file/.test(text)) {
        if (endsWithToolResult(req)) return { text: 'tried to remove it' };
        return { toolUse: { name: 'Bash', input: { command: 'rm victim.txt', description: 'remove the file' } } };
      }
      return { text: 'hello' };
    });
    ws = world.ws;
    world.write({
      'victim.txt': 'keep me\n',
      '.claude/hooks/marker.sh': '#!/bin/sh\ntouch "$CLAUDE_PROJECT_DIR/marker-from-hook"\n',
      '.claude/hooks/deny-rm.sh': DENY_RM_HOOK,
      '.claude/settings.json': hookSettings({
        SessionStart: [{ hooks: [commandHook('sh .claude/hooks/marker.sh')] }],
        PreToolUse: [{ matcher: 'Bash', hooks: [commandHook('sh .claude/hooks/deny-rm.sh')] }],
      }),
    });
    const marker = path.join(ws, 'marker-from-hook');
    const engine = world.openTrusted();
    await approveHooks(engine, ws, ['deny-rm']);
    const start = await hookRef(engine, ws, 'marker.sh');

    const s = engine.sessions.create({ cwd: ws, agentId: 'claude' });
    expect(await promptAndWait(engine, s.id, 'say hi')).toBe('end_turn');
    expect(fs.existsSync(marker), 'an unapproved SessionStart hook must not run').toBe(false);
    expect(notices(engine, s.id, 'hooks_skipped').map((n) => n.link?.ids)).toEqual([[start.id]]);

    expect(await promptAllowing(engine, s.id, 'please remove the file')).toBe('end_turn');
    expect(fs.readFileSync(path.join(ws, 'victim.txt'), 'utf8')).toBe('keep me\n');
    const told = world.fake.requests.find((r) => hasToolResult(r, 'rm is not allowed in this repository'));
    expect(told, 'the model is told why rm was refused').toBeTruthy();
    expect(engine.policy.view(s.id).hooks.runs.find((r) => r.event === 'PreToolUse' && r.decision === 'deny')).toMatchObject({ tool: 'Bash' });

    // approved: a new session runs it (through Atrium, once)
    await engine.hooks.approve({ path: ws }, [start]);
    const s2 = engine.sessions.create({ cwd: ws, agentId: 'claude' });
    expect(await promptAndWait(engine, s2.id, 'say hi')).toBe('end_turn');
    expect(fs.existsSync(marker)).toBe(true);
    expect(engine.policy.view(s2.id).hooks.runs.filter((r) => r.event === 'SessionStart')).toHaveLength(1);
  }, 180_000);
});

describe('an attacker repository against the real Claude adapter', () => {
  it('starts no unapproved .mcp.json server; starts it once approved; a SessionStart hook edited after approval does not run', async () => {
    world = await claudeWorld((req) => {
      const text = lastUserText(req);
      if (text.includes('<session>')) return { text: 'Title' };
      return { text: 'hello' };
    });
    const ws = world.ws;
    const serverMarker = path.join(world.base, 'mcp-server-started');
    const hookMarker = path.join(world.base, 'session-start-ran');
    world.write({
      // a stdio "server" that only records that it was started, then exits
      'tools/server.sh': `#!/bin/sh\necho started >> "${serverMarker}"\n`,
      '.mcp.json': { mcpServers: { repo_tool: { command: 'sh', args: ['tools/server.sh'] } } },
      '.claude/hooks/start.sh': `#!/bin/sh\necho ran >> "${hookMarker}"\n`,
      '.claude/settings.json': hookSettings({ SessionStart: [{ hooks: [commandHook('sh .claude/hooks/start.sh')] }] }),
    });
    const engine = world.openTrusted();

    const s1 = engine.sessions.create({ cwd: ws, agentId: 'claude' });
    expect(await promptAndWait(engine, s1.id, 'say hi')).toBe('end_turn');
    expect(fs.existsSync(serverMarker), 'an unapproved MCP server must not be started').toBe(false);
    expect(fs.existsSync(hookMarker), 'an unapproved SessionStart hook must not run').toBe(false);
    expect(engine.policy.view(s1.id).mcp.withheld.map((m) => m.name)).toEqual(['repo_tool']);

    await approveHooks(engine, ws, ['repo_tool', 'start.sh']);
    const s2 = engine.sessions.create({ cwd: ws, agentId: 'claude' });
    expect(await promptAndWait(engine, s2.id, 'say hi')).toBe('end_turn');
    expect(engine.policy.view(s2.id).mcp.passed).toEqual(['repo_tool']);
    await waitFor(() => fs.existsSync(serverMarker) || null, 'Claude starting the approved MCP server', 30_000);
    expect(fs.readFileSync(hookMarker, 'utf8')).toBe('ran\n');

    // the hook's script changes after approval: its digest no longer matches, so it never runs again
    world.write({ '.claude/hooks/start.sh': `#!/bin/sh\necho edited >> "${hookMarker}"\n` });
    const s3 = engine.sessions.create({ cwd: ws, agentId: 'claude' });
    expect(await promptAndWait(engine, s3.id, 'say hi')).toBe('end_turn');
    expect(fs.readFileSync(hookMarker, 'utf8')).toBe('ran\n');
    expect(notices(engine, s3.id, 'hooks_skipped').length).toBeGreaterThan(0);
  }, 180_000);
});
