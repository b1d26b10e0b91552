import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentPreset } from '../../../src/main/core/sessions/presets';
import { presetOf } from '../../support/agents';
import { agentText, commandHook, hookSettings, items, notices, policyWorlds, promptAndWait } from '../../support/policy';
import { scriptedAgentCommand, waitFor } from '../../support/sessions';

/**
 * What a session says about the agent it runs: the scripted agent launched as a user-defined
 * command (Atrium cannot identify it, so it is not isolated), and a stand-in for the OpenCode
 * preset that records the environment it was launched with.
 */

const worlds = policyWorlds();

const REPO_FILES = {
  'AGENTS.md': 'Root rule: always be kind.\n',
  '.claude/settings.json': hookSettings({ SessionStart: [{ hooks: [commandHook('touch marker-from-hook')] }] }),
  '.mcp.json': { mcpServers: { repo_tool: { command: 'sh', args: ['-c', 'touch marker-from-mcp'] } } },
};

describe('what the transcript says about the agent\'s isolation', () => {
  it('a user-defined command Atrium cannot identify: the notice says approvals are not enforced and what it may load by itself', async () => {
    const world = worlds.create({}, REPO_FILES);
    const engine = world.openTrusted();
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    // at start: before anything was prompted
    await engine.sessions.resume(s.id);
    await waitFor(() => notices(engine, s.id, 'agent_not_isolated')[0], 'the start notice');
    expect(items(engine, s.id).some((i) => i.kind === 'user_message')).toBe(false);
    expect(await promptAndWait(engine, s.id, 'hello')).toBe('end_turn');

    const [notice, ...more] = notices(engine, s.id, 'agent_not_isolated');
    expect(more).toEqual([]); // once per session, not per prompt
    expect(notice).toMatchObject({ severity: 'warning', title: 'Atrium cannot enforce approvals for Scripted: it may load and run workspace configuration by itself' });
    expect(notice.detail).toContain("the agent may still load and run the repository's own hooks and MCP servers from its own configuration files");
    // the hook and the server are "not run / not passed by Atrium", with the caveat; no notice claims more
    expect(notices(engine, s.id, 'hooks_skipped').map((n) => n.title)).toEqual(['1 hook not run by Atrium: not approved']);
    expect(notices(engine, s.id, 'mcp_withheld').map((n) => n.title)).toEqual(['1 MCP server not passed by Atrium: repo_tool']);
    const said = items(engine, s.id)
      .filter((i) => i.kind === 'notice')
      .map((i) => (i.kind === 'notice' ? `${i.title}\n${i.detail ?? ''}` : ''))
      .join('\n');
    expect(said).not.toMatch(/\b(skipped|withheld)\b/);
    expect(engine.policy.view(s.id).agent).toMatchObject({ agentId: 'scripted', name: 'Scripted', isolated: false });
  }, 60_000);

  it('the OpenCode preset is launched with its project config and external skills off and edits/commands asking, and gets the rules from Atrium', async () => {
    const world = worlds.create({}, REPO_FILES);
    const bin = path.join(world.base, 'bin');
    fs.mkdirSync(bin);
    const envFile = path.join(world.base, 'launch-env.txt');
    const { command, args } = scriptedAgentCommand(world.base, {}, 'opencode');
    // stands in for the native `opencode` binary: records its environment, then speaks ACP
    fs.writeFileSync(path.join(bin, 'opencode'), `#!/bin/sh\nenv > '${envFile}'\nexec ${[command, ...args].map((a) => `'${a}'`).join(' ')}\n`, { mode: 0o755 });
    const preset: AgentPreset = { ...presetOf('opencode'), args: [] };
    const engine = world.openTrusted({ sessions: { presets: [preset], envPath: bin } });
    // a per-agent variable cannot undo the switch
    engine.sessions.agents.setEnv('opencode', { OPENCODE_DISABLE_PROJECT_CONFIG: '0' });
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'opencode' });
    expect(await promptAndWait(engine, s.id, 'hello')).toBe('end_turn');

    const env = Object.fromEntries(
      fs
        .readFileSync(envFile, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('OPENCODE_'))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    expect(env.OPENCODE_DISABLE_PROJECT_CONFIG).toBe('1');
    expect(env.OPENCODE_DISABLE_EXTERNAL_SKILLS).toBe('1');
    expect(JSON.parse(env.OPENCODE_PERMISSION)).toEqual({ edit: 'ask', bash: 'ask' });
    // OpenCode no longer reads the project's AGENTS.md itself, so Atrium sends it
    expect(agentText(engine, s.id)).toContain('Root rule: always be kind.');
    expect(notices(engine, s.id, 'rules_native')).toEqual([]);
    // isolated: Atrium's decision is the whole story, so it says "skipped"/"withheld" and no start warning
    expect(notices(engine, s.id, 'agent_not_isolated')).toEqual([]);
    expect(notices(engine, s.id, 'hooks_skipped').map((n) => n.title)).toEqual(['1 hook skipped: not approved']);
    expect(notices(engine, s.id, 'mcp_withheld').map((n) => n.title)).toEqual(['1 MCP server withheld: repo_tool']);
    expect(engine.policy.view(s.id).agent).toMatchObject({ agentId: 'opencode', name: 'OpenCode', isolated: true });
    expect(fs.existsSync(path.join(world.ws, 'marker-from-hook'))).toBe(false);
  }, 60_000);
});
