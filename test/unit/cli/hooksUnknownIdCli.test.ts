import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli';
import { tempDir } from '../../support/tempDir';

describe('atrium hooks approve|diff with an id that is not a hook id (real child process)', { timeout: 120_000 }, () => {
  it('an MCP server name points to atrium mcp approve DIR NAME; an unknown id points to atrium hooks list DIR', () => {
    const root = tempDir('atrium-hooks-unknown-');
    const home = path.join(root, 'home');
    const dir = path.join(home, 'src', 'proj');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { local1: { command: 'node', args: ['server.js'] } } }));
    const cli = (...args: string[]) => runCli([...args, '--data-dir', path.join(root, 'data')], { HOME: home });
    expect(cli('trust', 'set', dir, 'trusted').status).toBe(0);
    const serverId = (cli('mcp', 'list', dir, '--json').json as { mcpServers: Array<{ id: string }> }).mcpServers[0].id;

    const byName = cli('hooks', 'approve', dir, 'local1', '--json');
    expect(byName.status).toBe(1);
    expect(byName.json).toMatchObject({ error: { code: 'NOT_FOUND' } });
    expect(byName.stderr).toContain(`"local1" is the name of MCP server ${serverId}, not a hook id; use: atrium mcp approve ${dir} local1`);
    expect(cli('mcp', 'list', dir, '--json').json).toMatchObject({ mcpServers: [{ name: 'local1', state: 'unapproved' }] });
    // the pointed-to command works
    expect(cli('mcp', 'approve', dir, 'local1', '--acknowledge-uncovered').status).toBe(0);

    const diff = cli('hooks', 'diff', dir, 'h_x');
    expect(diff.status).toBe(1);
    expect(diff.stderr).toContain(`No hook or MCP server "h_x" in ${dir}. Run "atrium hooks list ${dir}" to see the ids.`);
    expect(cli('hooks', 'diff', dir, 'local1').stderr).toContain(`give its id: atrium hooks diff ${dir} ${serverId}`);
  });
});
