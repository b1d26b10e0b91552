import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/main/core/engine';
import { lastTurnText, notices, policyWorlds, promptAndWait } from '../../support/policy';

/**
 * `${VAR}` expansion of MCP server definitions (Claude Code docs, "MCP" → "Environment variable
 * expansion in .mcp.json"; Cursor's `${env:NAME}`), end to end with the scripted ACP agent: the
 * agent receives the expanded definition in `session/new`, a server reading an unset variable
 * without default is withheld with a warning, and approval (the digest) never depends on the
 * environment.
 */

const worlds = policyWorlds();

/** The environment agents inherit in these tests: this process's, plus `extra`, minus `drop`. */
function envWith(extra: Record<string, string>, drop: string[] = []): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !drop.includes(k)) env[k] = v;
  return { ...env, ...extra };
}

const MCP_FILES = {
  '.mcp.json': {
    mcpServers: {
      local: { command: 'node', args: ['-e', '0', '--dir=${PROJ_DIR}'], env: { API_KEY: '${MCP_TOKEN}', MODE: '${MCP_MODE:-safe}' } },
      remote: { type: 'http', url: '${MCP_BASE:-https://fallback.example}/mcp', headers: { Authorization: 'Bearer ${MCP_TOKEN}' } },
      needy: { command: 'node', args: ['-e', '0', '${NOT_SET_ANYWHERE_XYZ}'] },
    },
  },
  '.cursor/mcp.json': { mcpServers: { cursorish: { command: 'node', args: ['-e', '0', '${env:PROJ_DIR}', '${workspaceFolderBasename}'] } } },
};

async function approveAll(engine: Engine, ws: string): Promise<void> {
  const listing = await engine.hooks.list({ path: ws });
  await engine.hooks.approve({ path: ws }, listing.mcpServers.map((m) => ({ id: m.id, digest: m.digest, acknowledgeUncovered: true })));
}

describe('MCP server variable expansion reaches the agent; unset variables withhold the server', () => {
  it('passes the expanded definitions in session/new and withholds a server reading an unset variable, with a warning naming server, file, line and variable', async () => {
    const world = worlds.create({ turns: [{ match: '^mcp', steps: [{ text: 'MCPJSON{{mcpJson}}' }] }] }, MCP_FILES);
    const engine = world.openTrusted({ sessions: { baseEnv: envWith({ PROJ_DIR: '/data/proj', MCP_TOKEN: 'tok-123456' }, ['NOT_SET_ANYWHERE_XYZ', 'MCP_BASE', 'MCP_MODE']) } });
    await approveAll(engine, world.ws);

    const listing = await engine.hooks.list({ path: world.ws });
    const needy = listing.mcpServers.find((m) => m.name === 'needy')!;
    expect(needy.state).toBe('approved');
    expect(needy.expansion?.missing).toEqual(['NOT_SET_ANYWHERE_XYZ']);
    expect(needy.warnings).toEqual([expect.objectContaining({ path: '.mcp.json', line: expect.any(Number), message: expect.stringMatching(/MCP server "needy" reads the environment variable NOT_SET_ANYWHERE_XYZ.*withheld/) })]);
    const local = listing.mcpServers.find((m) => m.name === 'local')!;
    // shown expanded, the token masked; the variables read are listed as written
    expect(local.expansion).toMatchObject({ dialect: 'claude-code', args: ['-e', '0', '--dir=/data/proj'], env: { API_KEY: '••••••', MODE: 'safe' }, missing: [] });
    expect(local.variables.map((v) => v.text)).toEqual(['${PROJ_DIR}', '${MCP_TOKEN}', '${MCP_MODE:-safe}']);
    expect(JSON.stringify(listing)).not.toContain('tok-123456');

    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    expect(await promptAndWait(engine, s.id, 'mcp please')).toBe('end_turn');
    const text = lastTurnText(engine, s.id);
    const sent = JSON.parse(text.slice(text.indexOf('MCPJSON') + 7)) as Array<Record<string, unknown>>;
    const byName = new Map(sent.map((m) => [m.name as string, m]));
    expect([...byName.keys()].sort()).toEqual(['cursorish', 'local', 'remote']);
    expect(byName.get('local')).toMatchObject({ command: 'node', args: ['-e', '0', '--dir=/data/proj'], env: expect.arrayContaining([{ name: 'API_KEY', value: 'tok-123456' }, { name: 'MODE', value: 'safe' }]) });
    expect(byName.get('remote')).toMatchObject({ type: 'http', url: 'https://fallback.example/mcp', headers: [{ name: 'Authorization', value: 'Bearer tok-123456' }] });
    expect(byName.get('cursorish')).toMatchObject({ args: ['-e', '0', '/data/proj', path.basename(world.ws)] });
    expect(JSON.stringify(sent)).not.toContain('${');

    const policy = engine.policy.view(s.id);
    expect(policy.mcp.withheld).toEqual([expect.objectContaining({ name: 'needy', state: 'approved', reason: expect.stringContaining('NOT_SET_ANYWHERE_XYZ') })]);
    expect(policy.mcp.withheld[0].reason).toContain('.mcp.json:');
    const withheld = notices(engine, s.id, 'mcp_withheld');
    expect(withheld).toHaveLength(1);
    expect(withheld[0].title).toContain('needy');
  }, 60_000);

  it('approval does not change when an environment variable changes: the digest covers the definition as written', async () => {
    const world = worlds.create({ turns: [{ match: '^mcp', steps: [{ text: 'MCP[{{mcp}}]' }] }] }, MCP_FILES);
    const first = world.openTrusted({ sessions: { baseEnv: envWith({ PROJ_DIR: '/one', MCP_TOKEN: 'a' }) } });
    await approveAll(first, world.ws);
    const before = (await first.hooks.list({ path: world.ws })).mcpServers.find((m) => m.name === 'local')!;
    expect(before.expansion?.args).toEqual(['-e', '0', '--dir=/one']);
    await world.closeAll();

    // another environment: PROJ_DIR changed, MCP_TOKEN gone
    const second = world.open({ sessions: { baseEnv: envWith({ PROJ_DIR: '/two' }, ['MCP_TOKEN', 'NOT_SET_ANYWHERE_XYZ']) } });
    const after = (await second.hooks.list({ path: world.ws })).mcpServers.find((m) => m.name === 'local')!;
    expect(after.digest).toBe(before.digest);
    expect(after.state).toBe('approved');
    expect(after.expansion?.args).toEqual(['-e', '0', '--dir=/two']);
    expect(after.expansion?.missing).toEqual(['MCP_TOKEN']);

    // approved, but now reading an unset variable: withheld from the session rather than passed with a literal ${MCP_TOKEN}
    const s = second.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    expect(await promptAndWait(second, s.id, 'mcp')).toBe('end_turn');
    expect(lastTurnText(second, s.id)).toContain('MCP[cursorish]');
    expect(second.policy.view(s.id).mcp.withheld.map((w) => w.name).sort()).toEqual(['local', 'needy', 'remote']);
  }, 60_000);
});
