import { afterEach, describe, expect, it } from 'vitest';
import { hookWorld, type HookWorld } from './helpers';

/**
 * Each MCP file is expanded as the tool that reads it does (see `formats/envExpand.ts`): Gemini CLI
 * settings `$VAR` (envVarResolver.ts), VS Code `${input:…}` (docs "MCP configuration reference":
 * prompts the user, so Atrium withholds the server), Codex `config.toml` not at all; and plugin
 * servers get `${CLAUDE_PLUGIN_ROOT}` (Claude Code docs, "Plugins reference").
 */
const worlds: HookWorld[] = [];
afterEach(async () => {
  for (const w of worlds.splice(0)) await w.engine.close();
});

describe('MCP expansion per file in the hook listing and for sessions', () => {
  it('Gemini $VAR expands, VS Code ${input:…} is withheld, Codex config.toml passes ${VAR} as written', async () => {
    const w = hookWorld({ sessions: { baseEnv: { GEM_DIR: '/srv/gem', CODEX_VAR: 'never-used' } } });
    worlds.push(w);
    w.write({
      '.gemini/settings.json': { mcpServers: { gem: { command: 'node', args: ['-e', '0', '$GEM_DIR/x', '${GEM_PORT:-7000}'] } } },
      '.vscode/mcp.json': { servers: { vs: { type: 'stdio', command: 'node', args: ['-e', '0'], env: { KEY: '${input:api-key}' } } } },
      '.codex/config.toml': '[mcp_servers.cx]\ncommand = "node"\nargs = ["-e", "0", "${CODEX_VAR}"]\n',
    });
    const { mcpServers } = await w.list();
    const by = (n: string) => mcpServers.find((s) => s.name === n)!;
    expect(by('gem').expansion).toMatchObject({ dialect: 'gemini-cli', args: ['-e', '0', '/srv/gem/x', '7000'], missing: [] });
    expect(by('vs').expansion?.unresolvable).toEqual([{ text: '${input:api-key}', why: expect.stringContaining('VS Code asks') }]);
    expect(by('vs').warnings.map((x) => x.message)).toContain('MCP server "vs" uses ${input:api-key}, which Atrium cannot expand (VS Code asks the user for it; Atrium cannot): the server is withheld from sessions');
    expect(by('cx').variables).toEqual([]);
    expect(by('cx').expansion).toBeNull();

    await w.engine.hooks.approve({ path: w.project }, mcpServers.map((s) => ({ id: s.id, digest: s.digest, acknowledgeUncovered: true })));
    const approved = await w.engine.hooks.approvedMcpServers({ path: w.project });
    const run = (n: string) => approved.find((s) => s.name === n)!;
    expect(run('gem')).toMatchObject({ args: ['-e', '0', '/srv/gem/x', '7000'], refused: null });
    expect(run('vs').refused).toContain('${input:api-key}');
    expect(run('cx')).toMatchObject({ args: ['-e', '0', '${CODEX_VAR}'], refused: null });
  });

  it('a plugin server gets ${CLAUDE_PLUGIN_ROOT} as its plugin folder, never from the environment', async () => {
    const w = hookWorld({ sessions: { baseEnv: { CLAUDE_PLUGIN_ROOT: '/attacker' } } });
    worlds.push(w);
    w.write({
      'plugins/p/.claude-plugin/plugin.json': { name: 'p' },
      'plugins/p/.mcp.json': { mcpServers: { ps: { command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/server.js'] } } },
      'plugins/p/server.js': '// server\n',
      '.claude/settings.json': { enabledPlugins: { p: true } },
    });
    const ps = (await w.list()).mcpServers.find((s) => s.name === 'ps');
    if (!ps) throw new Error('plugin server not listed');
    expect(ps.expansion?.args).toEqual([`${w.project}/plugins/p/server.js`]);
  });
});
