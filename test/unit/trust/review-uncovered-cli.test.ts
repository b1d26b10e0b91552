import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HookUncovered, TrustReview } from '../../../src/shared/contract';
import { runCli } from '../../support/cli';
import { tempDir } from '../../support/tempDir';

/** A temp HOME with ~/src/proj carrying `files`, and a data dir; `cli` runs the real `atrium` with both. */
function setup(files: Record<string, string>) {
  const root = tempDir('atrium-review-uncovered-');
  const home = path.join(root, 'home');
  const proj = path.join(home, 'src', 'proj');
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(proj, rel)), { recursive: true });
    fs.writeFileSync(path.join(proj, rel), text);
  }
  const dataDir = path.join(root, 'data');
  const cli = (...args: string[]) => runCli([...args, '--data-dir', dataDir], { HOME: home, USERPROFILE: home });
  return { proj, cli };
}

// one line on purpose: a covered hook and an npx one share file, line and event
const SETTINGS = JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo covered' }, { type: 'command', command: 'npx -y cowsay hi' }] }], SessionStart: [{ hooks: [{ type: 'command', command: 'echo a' }] }, { hooks: [{ type: 'command', command: 'echo b' }] }] } });
const MCP = JSON.stringify({ mcpServers: { tools: { command: 'npx', args: ['-y', 'tools-mcp@latest'] }, local: { command: 'node', args: ['server.js'] } } }, null, 2);
const FILES = { '.claude/settings.json': SETTINGS, '.mcp.json': MCP, 'server.js': 'console.log(1)\n', 'CLAUDE.md': '# a\n', 'AGENTS.md': '# b\n' };

describe('atrium trust review says what the digest does not cover, like the hooks listing (real child process)', { timeout: 120_000 }, () => {
  it('--json items carry the same uncovered lists as hooks list and mcp list, empty for covered and non-executable items', () => {
    const { proj, cli } = setup(FILES);
    const review = cli('trust', 'review', proj, '--json');
    expect(review.status).toBe(0);
    const items = (review.json as TrustReview).items;
    // the listing of the same items once trusted (restricted mode lists no project hooks); coverage does not depend on trust
    expect(cli('trust', 'set', proj, 'trusted').status).toBe(0);
    const hooks = cli('hooks', 'list', proj, '--json').json as { hooks: Array<{ command: string; uncovered: HookUncovered[] }>; mcpServers: Array<{ name: string; uncovered: HookUncovered[] }> };
    const npxHook = hooks.hooks.find((h) => h.command === 'npx -y cowsay hi')!;
    const npxServer = hooks.mcpServers.find((s) => s.name === 'tools')!;
    expect(npxHook.uncovered.length).toBeGreaterThan(0);
    expect(npxServer.uncovered.length).toBeGreaterThan(0);

    const hookItem = items.find((i) => i.kind === 'hook' && i.detail.command === 'npx -y cowsay hi')!;
    expect(hookItem.uncovered).toEqual(npxHook.uncovered);
    expect(items.find((i) => i.kind === 'hook' && i.detail.command === 'echo covered')!.uncovered).toEqual([]);
    expect(items.find((i) => i.kind === 'mcpServer' && i.name === 'tools')!.uncovered).toEqual(npxServer.uncovered);
    expect(items.find((i) => i.kind === 'mcpServer' && i.name === 'local')!.uncovered).toEqual([]);
    for (const item of items) expect(Array.isArray(item.uncovered), item.id).toBe(true);
    expect(items.filter((i) => i.kind === 'instruction').every((i) => i.uncovered.length === 0)).toBe(true);
  });

  it('the human output prints a "not covered by the digest" line under each such item and plural nouns in the counts', () => {
    const { proj, cli } = setup(FILES);
    const run = cli('trust', 'review', proj);
    expect(cli('trust', 'set', proj, 'trusted').status).toBe(0);
    const hooks = cli('hooks', 'list', proj, '--json').json as { hooks: Array<{ command: string; uncovered: HookUncovered[] }> };
    const first = hooks.hooks.find((h) => h.command === 'npx -y cowsay hi')!.uncovered[0];
    expect(run.status).toBe(0);
    const lines = run.stdout.split('\n');
    const hookLine = lines.findIndex((l) => l.includes('npx -y cowsay hi') && l.trimStart().startsWith('hook'));
    expect(hookLine).toBeGreaterThan(-1);
    expect(lines[hookLine + 1]).toBe(`      ✗ not covered by the digest: ${first.text} — ${first.message}`);
    const serverLine = lines.findIndex((l) => l.trimStart().startsWith('mcpServer') && l.includes('tools'));
    expect(lines[serverLine + 1]).toMatch(/^ {6}✗ not covered by the digest: .*tools-mcp@latest.* — /);
    const covered = lines.findIndex((l) => l.includes('echo covered'));
    expect(lines[covered + 1] ?? '').not.toContain('not covered by the digest');
    // one line per entry: each unpinned npx item is both moving-spec and package-runner
    expect(run.stdout.match(/not covered by the digest/g)?.length).toBe(4);
    // the code-running count spans kinds: it is named as items, not read as a part of the last kind
    expect(run.stdout).toMatch(/^4 hooks, 2 MCP servers, 2 instruction files · 6 items run code; /m);
  });
});
