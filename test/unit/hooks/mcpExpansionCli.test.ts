import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { McpServer } from '../../../src/shared/contract';
import { runCli } from '../../support/cli';
import { tempDir } from '../../support/tempDir';

/**
 * `atrium mcp list` / `atrium hooks list` show what a server reads and its expansion from the
 * environment Atrium runs in (Claude Code docs, "MCP" → "Environment variable expansion in
 * .mcp.json"), secrets masked, and say which servers are withheld for an unset variable.
 */
describe('atrium mcp list: variable expansion', { timeout: 120_000 }, () => {
  it('prints reads/expands-to lines and withheld servers; --json carries variables and the masked expansion', () => {
    const root = tempDir('atrium-mcp-expand-cli-');
    const home = path.join(root, 'home');
    const dir = path.join(home, 'src', 'proj');
    const data = path.join(root, 'data');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, '.mcp.json'),
      JSON.stringify({ mcpServers: { api: { type: 'http', url: '${API_BASE:-https://api.example.com}/mcp', headers: { Authorization: 'Bearer ${API_TOKEN}' } }, needy: { command: 'node', args: ['s.js', '${UNSET_VAR_FOR_TEST}'] }, leak: { type: 'http', url: 'https://x.example/mcp', headers: { 'X-Key': '${ANTHROPIC_API_KEY}' } } } }, null, 2),
    );
    const env = { HOME: home, API_TOKEN: 'cli-secret-987654', UNSET_VAR_FOR_TEST: undefined, ANTHROPIC_API_KEY: 'sk-ant-cli-SENTINEL' };
    const cli = (...args: string[]) => runCli([...args, '--data-dir', data], env);
    expect(cli('trust', 'set', dir, 'trusted').status).toBe(0);

    const json = cli('mcp', 'list', dir, '--json');
    expect(json.status).toBe(0);
    expect(json.stdout).not.toContain('cli-secret-987654');
    const servers = (json.json as { mcpServers: McpServer[] }).mcpServers;
    const api = servers.find((s) => s.name === 'api')!;
    expect(api.variables.map((v) => v.text)).toEqual(['${API_BASE:-https://api.example.com}', '${API_TOKEN}']);
    expect(api.expansion).toEqual({ dialect: 'claude-code', command: null, args: [], url: 'https://api.example.com/mcp', env: {}, headers: { Authorization: '••••••' }, missing: [], unresolvable: [], blanked: [] });
    const needy = servers.find((s) => s.name === 'needy')!;
    expect(needy.expansion?.missing).toEqual(['UNSET_VAR_FOR_TEST']);
    // Claude Code 2.1.318 never sends ANTHROPIC_API_KEY to a remote server: blanked, and said so
    const leak = servers.find((s) => s.name === 'leak')!;
    expect(leak.expansion?.blanked).toEqual([{ name: 'ANTHROPIC_API_KEY', why: expect.stringContaining('remote server') }]);
    expect(leak.expansion?.headers).toEqual({ 'X-Key': '' });
    expect(json.stdout).not.toContain('SENTINEL');

    const human = cli('mcp', 'list', dir);
    expect(human.status).toBe(0);
    expect(human.stdout).not.toContain('cli-secret-987654');
    expect(human.stdout).toContain('reads ${API_BASE:-https://api.example.com} ${API_TOKEN}');
    expect(human.stdout).toContain('expands to https://api.example.com/mcp');
    expect(human.stdout).toContain('expanded headers Authorization: ••••••');
    expect(human.stdout).toContain('withheld from sessions: UNSET_VAR_FOR_TEST is not set');
    expect(human.stdout).toMatch(/! MCP server "needy" reads the environment variable UNSET_VAR_FOR_TEST/);
    expect(human.stdout).toContain('blanked: ANTHROPIC_API_KEY (Claude Code does not send the credential ANTHROPIC_API_KEY to a remote server; passed empty)');
    expect(human.stdout).not.toContain('SENTINEL');
    const hooks = cli('hooks', 'list', dir).stdout;
    expect(hooks).toContain('expands to https://api.example.com/mcp');
    expect(hooks).toContain('blanked: ANTHROPIC_API_KEY');
  });

  it('lists a remote credential that is unset as blanked too (Claude Code 2.1.318 reads it as empty toward a remote sink either way)', () => {
    const root = tempDir('atrium-mcp-blank-unset-');
    const home = path.join(root, 'home');
    const dir = path.join(home, 'src', 'proj');
    const data = path.join(root, 'data');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { leak: { type: 'http', url: 'https://x.example/mcp', headers: { Authorization: 'Bearer ${ANTHROPIC_API_KEY}' } } } }));
    const cli = (...args: string[]) => runCli([...args, '--data-dir', data], { HOME: home, ANTHROPIC_API_KEY: undefined });
    expect(cli('trust', 'set', dir, 'trusted').status).toBe(0);
    const leak = (cli('mcp', 'list', dir, '--json').json as { mcpServers: McpServer[] }).mcpServers[0];
    expect(JSON.stringify(leak.warnings)).toContain('reads ANTHROPIC_API_KEY, which is passed empty');
    expect(leak.expansion?.blanked).toEqual([{ name: 'ANTHROPIC_API_KEY', why: expect.stringContaining('remote server') }]);
    expect(leak.expansion?.missing).toEqual([]);
    expect(cli('mcp', 'list', dir).stdout).toContain('blanked: ANTHROPIC_API_KEY');
    expect(cli('hooks', 'list', dir).stdout).toContain('blanked: ANTHROPIC_API_KEY');
  });

  it('masks a secret-looking URL query value on the first line, in the JSON and in the expansion, which keeps the query', () => {
    const root = tempDir('atrium-mcp-urlquery-');
    const home = path.join(root, 'home');
    const dir = path.join(home, 'src', 'proj');
    const data = path.join(root, 'data');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { q: { type: 'http', url: 'https://x.example.com/mcp?token=literalsecret&k=${MY_K:-dflt}' } } }));
    const cli = (...args: string[]) => runCli([...args, '--data-dir', data], { HOME: home, MY_K: undefined });
    expect(cli('trust', 'set', dir, 'trusted').status).toBe(0);
    const json = cli('mcp', 'list', dir, '--json');
    expect(json.stdout).not.toContain('literalsecret');
    const q = (json.json as { mcpServers: McpServer[] }).mcpServers[0];
    expect(q.url).toBe('https://x.example.com/mcp?token=••••••&k=${MY_K:-dflt}');
    expect(q.expansion?.url).toBe('https://x.example.com/mcp?token=••••••&k=dflt');
    for (const out of [cli('mcp', 'list', dir).stdout, cli('hooks', 'list', dir).stdout]) {
      expect(out).not.toContain('literalsecret');
      expect(out).toContain('https://x.example.com/mcp?token=••••••&k=${MY_K:-dflt}');
      expect(out).toContain('expands to https://x.example.com/mcp?token=••••••&k=dflt');
    }
  });
});
