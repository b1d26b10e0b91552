import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/corpus';
import { tempDir } from '../../support/tempDir';

/**
 * The command line loads only what a command needs: `--help` and `workspace list` must start about
 * as fast as Node itself, so they may not load the request contract (zod), the agent protocol SDK,
 * the WebSocket client, tree-sitter or the rule catalog's parsers; `rules` commands load the catalog
 * but none of the session, hook or contract code. Checked by recording every package the real CLI
 * process resolves (a module resolve hook), not by timing.
 */

// Registered with --import before the CLI runs: records the URL of every module resolved under node_modules.
const RECORDER = `
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
import fs from 'node:fs';
const hooks = "let port; export function initialize(data) { port = data.port; } export async function resolve(specifier, context, next) { const r = await next(specifier, context); if (r.url.includes('/node_modules/')) port.postMessage(r.url); return r; }";
const { port1, port2 } = new MessageChannel();
const seen = new Set();
port1.on('message', (url) => seen.add(url));
port1.unref();
register('data:text/javascript,' + encodeURIComponent(hooks), { data: { port: port2 }, transferList: [port2] });
process.on('exit', () => fs.writeFileSync(process.env.ATRIUM_TEST_LOADED, [...seen].join('\\n')));
`;

/** Runs the CLI from source; returns its exit code and the packages (node_modules names) it loaded. */
function packagesLoadedBy(args: string[]): { status: number | null; packages: Set<string>; stderr: string } {
  const dir = tempDir('atrium-lazy-');
  const recorder = path.join(dir, 'recorder.mjs');
  fs.writeFileSync(recorder, RECORDER);
  const out = path.join(dir, 'loaded.txt');
  const res = spawnSync(process.execPath, ['--import', 'tsx', '--import', recorder, path.join(repoRoot, 'src/main/cli/entry.ts'), ...args, '--data-dir', path.join(dir, 'data')], {
    cwd: repoRoot,
    env: { ...process.env, ATRIUM_TEST_LOADED: out, HOME: dir },
    encoding: 'utf8',
    timeout: 60_000,
  });
  const packages = new Set<string>();
  for (const url of fs.readFileSync(out, 'utf8').split('\n')) {
    const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (m && m[1] !== 'tsx' && m[1] !== 'esbuild' && m[1] !== 'get-tsconfig' && m[1] !== 'resolve-pkg-maps') packages.add(m[1]);
  }
  return { status: res.status, packages, stderr: res.stderr };
}

const HEAVY = ['zod', '@agentclientprotocol/sdk', 'ws', 'web-tree-sitter', 'tree-sitter-bash', 'diff'];

describe('the CLI loads only what a command needs', () => {
  it('workspace list opens the database but loads no contract, agent, WebSocket or parser code', () => {
    const r = packagesLoadedBy(['workspace', 'list', '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.packages.has('better-sqlite3')).toBe(true); // the recorder sees what is loaded
    for (const heavy of [...HEAVY, 'yaml', 'minimatch', 'chokidar']) expect([...r.packages]).not.toContain(heavy);
  });

  it('--help loads nothing beyond the argument parser', () => {
    const r = packagesLoadedBy(['--help']);
    expect(r.status, r.stderr).toBe(0);
    expect([...r.packages]).toEqual(['commander']);
  });

  it('rules list loads the catalog (YAML, globs) but no contract, agent, WebSocket or shell parser code', () => {
    const ws = tempDir('atrium-lazy-ws-');
    fs.writeFileSync(path.join(ws, 'AGENTS.md'), '# Rules\n');
    const r = packagesLoadedBy(['rules', 'list', ws, '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.packages.has('minimatch')).toBe(true);
    for (const heavy of HEAVY) expect([...r.packages]).not.toContain(heavy);
  });
});

describe('workspace list without the contract', () => {
  it('prints exactly what the workspaces.list request answers (the contract would reorder or drop nothing)', async () => {
    const { createEngine } = await import('../../../src/main/core/engine');
    const { createDispatcher } = await import('../../../src/main/core/dispatcher');
    const home = tempDir('atrium-lazy-home-');
    const engine = createEngine({ dataDir: tempDir('atrium-lazy-data-'), homeDir: home, watchResources: false, externalWritePollMs: 0 });
    try {
      const present = tempDir('atrium-lazy-a-');
      const gone = tempDir('atrium-lazy-b-');
      const dispatcher = createDispatcher(engine, { 'app.info': () => { throw new Error('unused'); }, 'app.pickFolder': () => { throw new Error('unused'); } });
      await dispatcher.call('workspaces.add', { path: present });
      await dispatcher.call('workspaces.add', { path: gone, name: 'gone' });
      await dispatcher.call('trust.set', { path: present, state: 'trusted' });
      fs.rmSync(gone, { recursive: true });
      const viaContract = await dispatcher.call('workspaces.list', {});
      expect(viaContract.workspaces.map((w) => w.missing)).toEqual([false, true]);
      expect(JSON.stringify({ workspaces: engine.workspaces.list() })).toBe(JSON.stringify(viaContract));
    } finally {
      await engine.close();
    }
  });
});
