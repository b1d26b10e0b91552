import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { splitMcpServers } from '../../../src/main/core/sessions/workspacePolicy/mcpFilter';
import { resolveFolder } from '../../../src/main/core/workspaces/paths';
import { hookWorld, until, type HookWorld } from './helpers';

const worlds: HookWorld[] = [];
afterEach(async () => {
  for (const w of worlds.splice(0)) await w.engine.close();
});

/** A workspace marketplace with one local plugin ("guard": a UserPromptSubmit hook that writes a marker, and an MCP server), plus other plugin folders. */
function marketWorld(): HookWorld & { marker: string } {
  const w = hookWorld();
  worlds.push(w);
  const marker = path.join(w.root, 'ran.txt');
  w.write({
    '.claude-plugin/marketplace.json': { name: 'market', owner: { name: 'me' }, plugins: [{ name: 'guard', source: './plugins/guard' }] },
    'plugins/guard/.claude-plugin/plugin.json': { name: 'guard', version: '1.0.0' },
    'plugins/guard/hooks/hooks.json': { hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `echo ran >> '${marker}'` }] }] } },
    'plugins/guard/.mcp.json': { mcpServers: { guard_db: { command: 'guard-db', args: ['--stdio'] } } },
    // on by default: a plugin folder under .claude/plugins
    '.claude/plugins/kit/.claude-plugin/plugin.json': { name: 'kit' },
    '.claude/plugins/kit/hooks/hooks.json': { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo kit' }] }] } },
    // a plugin folder nothing loads
    'stray/.claude-plugin/plugin.json': { name: 'stray' },
    'stray/hooks/hooks.json': { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo stray' }] }] } },
    // a plugin whose manifest is invalid
    '.claude/plugins/broken/.claude-plugin/plugin.json': '{ "name": "broken", }',
    '.claude/plugins/broken/hooks/hooks.json': { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo broken' }] }] } },
  });
  return Object.assign(w, { marker });
}

describe('hooks and MCP servers of plugins that are off', () => {
  it('are disabled with a warning naming the plugin and how to turn it on, and do not count as needing approval', async () => {
    const w = marketWorld();
    const l = await w.list();
    const byPlugin = (name: string) => l.hooks.find((h) => h.source.plugin === name)!;
    const guard = byPlugin('guard');
    expect(guard.state).toBe('disabled');
    expect(guard.warnings).toContainEqual({
      path: 'plugins/guard/hooks/hooks.json',
      line: expect.any(Number),
      message: 'disabled: plugin "guard" is off (marketplace plugins stay off until enabled); its hooks and MCP servers do not run',
      fix: expect.stringMatching(/^Enable it on the Extensions tab, or set "enabledPlugins": \{ "guard@market": true \} in \.claude\/settings\.json/),
    });
    const server = l.mcpServers.find((s) => s.name === 'guard_db')!;
    expect(server.state).toBe('disabled');
    expect(server.warnings[0]).toMatchObject({ path: 'plugins/guard/.mcp.json', message: expect.stringContaining('plugin "guard" is off') });
    expect(byPlugin('kit').state).toBe('unapproved');
    expect(byPlugin('stray')).toMatchObject({ state: 'disabled', warnings: [expect.objectContaining({ message: expect.stringContaining('plugin "stray" is not loaded') })] });
    expect(byPlugin('broken')).toMatchObject({ state: 'disabled', warnings: [expect.objectContaining({ message: expect.stringMatching(/plugin "broken" cannot load: .*plugin\.json:1/) })] });
    expect(l.counts).toMatchObject({ unapproved: 1, disabled: 4, approved: 0 });
  });

  it("a session withholds an off plugin's MCP server with the plugin as the reason, not as 'not approved'", async () => {
    const w = marketWorld();
    const l = await w.list();
    const { passed, withheld } = splitMcpServers(l.mcpServers, await w.engine.hooks.approvedMcpServers({ path: w.project }));
    expect(passed).toEqual([]);
    expect(withheld.find((s) => s.name === 'guard_db')).toMatchObject({ state: 'disabled', reason: expect.stringMatching(/^switched off: plugin "guard" is off/) });
  });

  it('an approved hook of a disabled plugin does not run; enabling the plugin pushes hooksChanged and it runs', async () => {
    const w = marketWorld();
    const guard = (await w.list()).hooks.find((h) => h.source.plugin === 'guard')!;
    const server = (await w.list()).mcpServers.find((s) => s.name === 'guard_db')!;
    await w.engine.hooks.approve({ path: w.project }, [{ id: guard.id, digest: guard.digest }, { id: server.id, digest: server.digest }]);
    const after = await w.list();
    expect(after.hooks.find((h) => h.id === guard.id)).toMatchObject({ state: 'disabled', approval: { digest: guard.digest } });
    expect(await w.engine.hooks.approvedHooksFor({ path: w.project })).toMatchObject({ hooks: [] });
    expect(await w.engine.hooks.approvedMcpServers({ path: w.project })).toEqual([]);

    await w.engine.hooks.run('UserPromptSubmit', { prompt: 'hi' }, { path: w.project });
    expect(fs.existsSync(w.marker)).toBe(false);
    const [skipped] = w.engine.hooks.runs({ path: w.project }, guard.id, 5);
    expect(skipped).toMatchObject({ skipped: 'disabled' });

    const dir = resolveFolder(w.project).path;
    const ws = w.engine.workspaces.add(dir).workspace;
    const pushed = w.events.length;
    await w.engine.extensions.setPluginEnabled(dir, 'guard', 'local', true);
    await until(() => w.events.slice(pushed).some((e) => e.event === 'hooksChanged' && (e.payload as { workspaceId?: string }).workspaceId === ws.id), 10_000, 'hooksChanged');

    const on = await w.list();
    expect(on.hooks.find((h) => h.id === guard.id)?.state).toBe('approved');
    expect(on.mcpServers.find((s) => s.id === server.id)?.state).toBe('approved');
    expect((await w.engine.hooks.approvedMcpServers({ path: w.project })).map((s) => s.name)).toEqual(['guard_db']);
    await w.engine.hooks.run('UserPromptSubmit', { prompt: 'hi' }, { path: w.project });
    expect(fs.readFileSync(w.marker, 'utf8')).toBe('ran\n');
  });

  it('switching an enabled plugin off with enabledPlugins false disables its hooks and names that file', async () => {
    const w = marketWorld();
    w.write({ '.claude/settings.local.json': { enabledPlugins: { kit: false } } });
    const kit = (await w.list()).hooks.find((h) => h.source.plugin === 'kit')!;
    expect(kit.state).toBe('disabled');
    expect(kit.warnings[0]).toMatchObject({ message: expect.stringContaining('"kit": false in enabledPlugins of .claude/settings.local.json'), fix: expect.stringContaining('"enabledPlugins": { "kit": true } in .claude/settings.local.json') });
  });
});
