import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Hook, HookAuditEntry, McpServer } from '../../../src/shared/contract';
import { runCli } from '../../support/cli';
import { tempDir } from '../../support/tempDir';

function setup() {
  const root = tempDir('atrium-uncovered-cli-');
  const home = path.join(root, 'home');
  const dir = path.join(home, 'src', 'proj');
  const data = path.join(root, 'data');
  fs.mkdirSync(path.join(dir, '.claude'), { recursive: true });
  fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
  fs.writeFileSync(path.join(dir, '.claude/settings.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'npx -y cowsay hi' }] }] } }));
  fs.writeFileSync(path.join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { tools: { command: 'npx', args: ['-y', 'tools-mcp@latest'] } } }));
  fs.writeFileSync(path.join(home, '.claude/settings.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo mine' }, { type: 'command', command: 'npx -y some-linter' }] }] } }));
  const cli = (...args: string[]) => runCli([...args, '--data-dir', data], { HOME: home });
  expect(cli('trust', 'set', dir, 'trusted').status).toBe(0);
  const listing = cli('hooks', 'list', dir, '--json').json as { hooks: Hook[]; mcpServers: McpServer[] };
  const hook = listing.hooks.find((h) => h.command === 'npx -y cowsay hi')!;
  const server = listing.mcpServers.find((s) => s.name === 'tools')!;
  return { dir, cli, hook, server, listing };
}

describe('atrium hooks|mcp approve --acknowledge-uncovered', { timeout: 120_000 }, () => {
  it('hooks list shows "not covered by the digest" lines for hooks and MCP servers; --json carries uncovered', () => {
    const { dir, cli, hook, server } = setup();
    expect(hook.uncovered).toEqual([
      { code: 'moving-spec', text: 'npx -y cowsay hi', message: expect.stringContaining('cowsay is not pinned to a fixed version or digest') },
      { code: 'package-runner', text: 'npx -y cowsay hi', message: expect.stringContaining('npx runs code chosen at run time') },
    ]);
    expect(server.uncovered).toEqual([expect.objectContaining({ code: 'moving-spec', text: 'npx -y tools-mcp@latest' }), expect.objectContaining({ code: 'package-runner', text: 'npx -y tools-mcp@latest' })]);
    const human = cli('hooks', 'list', dir).stdout;
    expect(human).toContain(`✗ not covered by the digest: npx -y cowsay hi — npx runs code chosen at run time`);
    expect(human).toContain('✗ not covered by the digest: npx -y tools-mcp@latest — ');
    expect(cli('mcp', 'list', dir).stdout).toContain('✗ not covered by the digest: npx -y tools-mcp@latest — ');
    expect((cli('mcp', 'list', dir, '--json').json as { mcpServers: McpServer[] }).mcpServers[0].uncovered).toEqual(server.uncovered);
  });

  it('without the flag an uncovered hook fails with exit 1, lists what is not covered and the command to re-run; with it, it is approved and the audit says so', () => {
    const { dir, cli, hook } = setup();
    const refused = cli('hooks', 'approve', dir, hook.id);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`Nothing was approved: ${hook.id} runs code its digest does not cover`);
    expect(refused.stderr).toContain(`  ${hook.id}  Stop: npx -y cowsay hi`);
    expect(refused.stderr).toContain('✗ not covered by the digest: npx -y cowsay hi — npx runs code chosen at run time');
    expect(refused.stderr).toContain(`After reading it, re-run with the acknowledgement:\n  atrium hooks approve ${dir} ${hook.id} --digest ${hook.digest} --acknowledge-uncovered`);
    const refusedJson = cli('hooks', 'approve', dir, hook.id, '--json');
    expect(refusedJson.status).toBe(1);
    expect(refusedJson.json).toMatchObject({ error: { code: 'HOOK_UNCOVERED', message: expect.stringContaining('--acknowledge-uncovered') } });
    expect((cli('hooks', 'history', dir, '--json').json as { entries: unknown[] }).entries).toEqual([]);

    const approved = cli('hooks', 'approve', dir, hook.id, '--digest', hook.digest, '--acknowledge-uncovered');
    expect(approved.status).toBe(0);
    expect(approved.stdout).toContain(`Approved ${hook.id}: Stop: npx -y cowsay hi`);
    expect(approved.stdout).toContain('acknowledging 2 parts the digest does not cover');
    const history = cli('hooks', 'history', dir, '--json').json as { entries: HookAuditEntry[] };
    expect(history.entries[0]).toMatchObject({ itemId: hook.id, by: 'user (cli)', acknowledgedUncovered: hook.uncovered });
    expect(cli('hooks', 'history', dir).stdout).toContain('acknowledged not covered: npx -y cowsay hi');
  });

  it('mcp approve: same refusal and acknowledgement for a server given by name', () => {
    const { dir, cli, server } = setup();
    const refused = cli('mcp', 'approve', dir, 'tools');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`  ${server.id}  MCP tools`);
    expect(refused.stderr).toContain('✗ not covered by the digest: npx -y tools-mcp@latest');
    expect(refused.stderr).toContain(`atrium mcp approve ${dir} ${server.id} --digest ${server.digest} --acknowledge-uncovered`);
    const approved = cli('mcp', 'approve', dir, 'tools', '--acknowledge-uncovered', '--json');
    expect(approved.status).toBe(0);
    expect(approved.json).toMatchObject({ changes: [{ itemId: server.id, kind: 'mcp', acknowledgedUncovered: server.uncovered }] });
  });

  it('--all-user approves the covered user hooks and leaves the uncovered one out, saying so; it refuses --acknowledge-uncovered', () => {
    const { dir, cli, listing } = setup();
    const linter = listing.hooks.find((h) => h.command === 'npx -y some-linter')!;
    const both = cli('hooks', 'approve', dir, '--all-user', '--acknowledge-uncovered');
    expect(both.status).toBe(2);
    expect(both.stderr).toContain('--all-user never approves a hook its digest does not fully cover');
    const all = cli('hooks', 'approve', dir, '--all-user');
    expect(all.status).toBe(0);
    expect(all.stdout).toContain('Approved');
    expect(all.stdout).toContain('Stop: echo mine');
    expect(all.stdout).toContain(`Left out 1 hook its digest does not fully cover (never approved in bulk):\n  ${linter.id}  Stop: npx -y some-linter\n    ✗ not covered by the digest: npx -y some-linter`);
    expect(all.stdout).toContain(`atrium hooks approve ${dir} ID --acknowledge-uncovered`);
    const states = Object.fromEntries((cli('hooks', 'list', dir, '--json').json as { hooks: Hook[] }).hooks.map((h) => [h.command, h.state]));
    expect(states).toMatchObject({ 'echo mine': 'approved', 'npx -y some-linter': 'unapproved' });
    const again = cli('hooks', 'approve', dir, '--all-user', '--json');
    expect(again.json).toEqual({ changes: [], leftUncovered: [{ id: linter.id, label: 'Stop: npx -y some-linter', digest: linter.digest, uncovered: linter.uncovered }] });
  });
});
