import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookWorld } from './helpers';

describe('MCP servers are approved by what they run', () => {
  it('a changed tools/server.js makes the server modified and it no longer reaches the agent; npx pkg@latest is a moving spec', async () => {
    const w = hookWorld();
    w.write({ '.mcp.json': { mcpServers: { local: { command: 'node', args: ['tools/server.js'] }, remote: { command: 'npx', args: ['-y', 'pkg@latest'] } } }, 'tools/server.js': "require('./lib');\n", 'tools/lib.js': 'module.exports = 1;\n' });
    const listed = (await w.list()).mcpServers;
    const local = listed.find((s) => s.name === 'local')!;
    expect(local.scripts.map((s) => s.path)).toEqual(['tools/server.js', 'tools/lib.js']);
    expect(listed.find((s) => s.name === 'remote')!.uncovered.map((u) => u.code)).toEqual(['moving-spec', 'package-runner']);
    await w.engine.hooks.approve({ path: w.project }, [{ id: local.id, digest: local.digest }]);
    expect((await w.engine.hooks.approvedMcpServers({ path: w.project })).map((s) => s.name)).toEqual(['local']);
    fs.appendFileSync(path.join(w.project, 'tools/lib.js'), 'process.exit(1);\n');
    expect((await w.list()).mcpServers.find((s) => s.name === 'local')!.state).toBe('modified');
    expect(await w.engine.hooks.approvedMcpServers({ path: w.project })).toEqual([]);
    await w.engine.close();
  });

  it('an approved server with a cwd reaches the agent with absolute paths from that cwd, or not at all', async () => {
    const w = hookWorld();
    w.write({ '.mcp.json': { mcpServers: { sub: { command: 'node', args: ['server.js'], cwd: 'srv' }, lost: { command: 'node', args: ['./missing.js'], cwd: 'srv' } } }, 'srv/server.js': '1;\n' });
    const listed = (await w.list()).mcpServers;
    await w.engine.hooks.approve({ path: w.project }, listed.map((s) => ({ id: s.id, digest: s.digest })));
    const approved = await w.engine.hooks.approvedMcpServers({ path: w.project });
    expect(approved.find((s) => s.name === 'sub')).toMatchObject({ args: [path.join(w.project, 'srv/server.js')], refused: null });
    expect(approved.find((s) => s.name === 'lost')!.refused).toMatch(/cannot be passed to the agent over ACP/);
    await w.engine.close();
  });
});
