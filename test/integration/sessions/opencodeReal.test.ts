import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../src/main/core/engine';
import { resolveFolder } from '../../../src/main/core/workspaces/paths';
import { installCachedPreset } from '../../support/agents';
import { startFakeChatCompletions, type FakeChatCompletions } from '../../support/fakeChatCompletions';
import { agentTestEnv, approveHooks, notices, worldDirs, writeFiles } from '../../support/policy';
import { waitFor } from '../../support/sessions';

/**
 * The real OpenCode 1.18.33 (`opencode acp`, the pinned preset) offline against a loopback fake of
 * the chat completions API, in a repository that carries its own OpenCode configuration: a project
 * MCP server and a plugin (code run at load), AGENTS.md, and skills under .opencode, .claude and
 * .agents. Atrium's launch switches must keep all of it from loading by itself, while the rules
 * still reach the model (from Atrium, exactly once), an approved MCP server passed over ACP starts,
 * and a file write comes back as a permission request first.
 */

let engine: Engine | null = null;
let fake: FakeChatCompletions | null = null;
afterEach(async () => {
  await engine?.close();
  engine = null;
  await fake?.close();
  fake = null;
});

const RULE = 'Rule 4417: answer in plain words.';

describe('OpenCode under Atrium (real agent, fake model API)', () => {
  it('loads nothing of the repository by itself; approved MCP over ACP starts; rules once from Atrium; a write asks first', async () => {
    const { home, ws, dataDir } = worldDirs('atrium-opencode-');
    await installCachedPreset('opencode', dataDir);
    const target = path.join(ws, 'created.txt');
    let wrote = false;
    fake = await startFakeChatCompletions((req) => {
      const last = req.body.messages.at(-1);
      const offersWrite = (req.body.tools ?? []).some((t) => t.function?.name === 'write');
      if (offersWrite && !wrote && last?.role === 'user') {
        wrote = true;
        return { toolCall: { name: 'write', arguments: { filePath: target, content: 'hi from opencode\n' } } };
      }
      return { text: last?.role === 'tool' ? 'I wrote the file.' : 'Fake title' };
    });
    const marker = (name: string) => path.join(ws, `marker-${name}`);
    writeFiles(home, {
      // the user's own configuration: the model provider (loopback), no sharing or updates
      '.config/opencode/opencode.json': {
        $schema: 'https://opencode.ai/config.json',
        provider: { fake: { npm: '@ai-sdk/openai-compatible', name: 'Fake', options: { baseURL: fake.url, apiKey: 'sk-fake' }, models: { m1: { name: 'm1', tool_call: true } } } },
        model: 'fake/m1',
        small_model: 'fake/m1',
        share: 'disabled',
        autoupdate: false,
      },
    });
    writeFiles(ws, {
      'AGENTS.md': `${RULE}\n`,
      'opencode.json': { $schema: 'https://opencode.ai/config.json', mcp: { opencode_tool: { type: 'local', command: ['sh', '-c', `touch '${marker('opencode-mcp')}'; exec sleep 2`], enabled: true } } },
      '.opencode/plugin/mark.js': `import fs from 'node:fs';\nexport const Mark = async () => { fs.writeFileSync(${JSON.stringify(marker('plugin'))}, 'x'); return {}; };\n`,
      '.opencode/skill/oc-skill/SKILL.md': '---\nname: oc-skill\ndescription: skill-4417-opencode\n---\nbody\n',
      '.claude/skills/cl-skill/SKILL.md': '---\nname: cl-skill\ndescription: skill-4417-claude\n---\nbody\n',
      '.agents/skills/ag-skill/SKILL.md': '---\nname: ag-skill\ndescription: skill-4417-agents\n---\nbody\n',
      // a repository MCP server Atrium lists; approved below, so Atrium passes it over ACP
      '.mcp.json': { mcpServers: { approved_tool: { command: 'sh', args: ['-c', `touch '${marker('approved-mcp')}'; exec sleep 2`] } } },
    });
    const env = agentTestEnv(/^(OPENCODE|XDG_)/, { HOME: home });
    engine = createEngine({ dataDir, homeDir: home, watchResources: false, watchHooks: false, sessions: { baseEnv: env, envPath: '', idleMs: 0 } });
    engine.trust.set(resolveFolder(ws), 'trusted');
    await approveHooks(engine, ws, ['approved_tool']);

    const s = engine.sessions.create({ cwd: ws, agentId: 'opencode' });
    const write = engine.sessions.prompt(s.id, 'please create created.txt');
    const permission = await waitFor(() => engine!.sessions.show(s.id).permissions[0], 'the write permission request', 90_000);
    expect(permission.toolKind).toBe('edit');
    expect(permission.locations.map((l) => l.path)).toContain(target);
    expect(fs.existsSync(target)).toBe(false);
    const allow = permission.options.find((o) => o.kind === 'allow_once')!;
    engine.sessions.answerPermission(s.id, permission.requestId, allow.optionId);
    expect(await engine.sessions.waitForTurn(s.id, write.promptId)).toBe('end_turn');
    expect(fs.readFileSync(target, 'utf8')).toBe('hi from opencode\n');

    expect(fs.existsSync(marker('opencode-mcp')), "OpenCode must not start the repository's own MCP server").toBe(false);
    expect(fs.existsSync(marker('plugin')), "OpenCode must not load the repository's plugin").toBe(false);
    expect(fs.existsSync(marker('approved-mcp')), 'the approved server, passed over ACP, starts').toBe(true);
    const turns = fake.requests.filter((r) => (r.body.tools ?? []).length > 0);
    expect(turns.length).toBeGreaterThan(0);
    const first = turns[0].raw;
    expect(first.split('Rule 4417').length - 1, 'the rule reaches the model exactly once').toBe(1);
    for (const r of fake.requests) expect(r.raw).not.toMatch(/skill-4417/);
    // isolated: the transcript does not warn that approvals are not enforced
    expect(notices(engine, s.id, 'agent_not_isolated')).toEqual([]);
    expect(engine.policy.view(s.id).agent).toMatchObject({ agentId: 'opencode', isolated: true });
  }, 240_000);
});
