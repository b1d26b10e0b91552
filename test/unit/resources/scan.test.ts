import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { buildExtensions } from '../../../src/main/core/extensions/build';
import type { ExtensionCatalog } from '../../../src/main/core/extensions/types';
import { listWorkspaceFiles, type ListWorkspaceFilesOptions } from '../../../src/main/core/files/listWorkspaceFiles';
import { directFileAccess, WorkspaceScan } from '../../../src/main/core/files/scan';
import { WorkspaceResourcesCache } from '../../../src/main/core/resources/cache';
import { RuleCatalogBuilder } from '../../../src/main/core/rules/builder';
import type { RuleCatalog } from '../../../src/main/core/rules/catalog';
import { findCatalogRoot } from '../../../src/main/core/rules/paths';
import { fixedGate, type TrustGate } from '../../../src/main/core/trust/gate';
import { makeHome, makeRepo, writeTree } from '../rules/helpers';

// every listing anywhere in the engine is counted, not only those through a test's scan
vi.mock('../../../src/main/core/files/listWorkspaceFiles', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../src/main/core/files/listWorkspaceFiles')>();
  return { ...actual, listWorkspaceFiles: vi.fn(actual.listWorkspaceFiles) };
});
const allListings = () => vi.mocked(listWorkspaceFiles).mock.calls.length;

const realReadFile = fs.promises.readFile.bind(fs.promises);

/** One build's instrumented scan: how often it listed, and how often each absolute path was read. */
interface Counted {
  scan: WorkspaceScan;
  listings: Array<{ root: string; options: ListWorkspaceFilesOptions }>;
  reads: Map<string, number>;
}

function countingScan(workspaceDir: string, options: { root?: string; verifyExistence?: boolean } = {}): Counted {
  const listings: Counted['listings'] = [];
  const reads = new Map<string, number>();
  const scan = new WorkspaceScan({
    root: options.root ?? findCatalogRoot(workspaceDir),
    workspaceDir,
    verifyExistence: options.verifyExistence,
    lister: (root, o) => {
      listings.push({ root, options: o });
      return listWorkspaceFiles(root, o);
    },
    reader: (absolute) => {
      reads.set(absolute, (reads.get(absolute) ?? 0) + 1);
      return realReadFile(absolute);
    },
  });
  return { scan, listings, reads };
}

const md = (fm: Record<string, string>, body: string) => `---\n${Object.entries(fm).map(([k, v]) => `${k}: ${v}`).join('\n')}\n---\n${body}\n`;

/** A git work tree with every kind the bundle reads, a nested skills folder and a project plugin. */
function fixture(): { dir: string; home: string } {
  const dir = makeRepo({
    'CLAUDE.md': '# Project\nSee @docs/shared.md\n',
    'AGENTS.md': '# Agents\nAlso @docs/shared.md\n',
    'docs/shared.md': 'Shared guidance.\n',
    '.claude/rules/style.md': md({ paths: '"src/**/*.ts"' }, 'Use strict types.'),
    'apps/web/CLAUDE.md': '# Web\n',
    '.claude/skills/deploy/SKILL.md': md({ name: 'deploy', description: 'Deploys the app' }, 'Run the deploy.'),
    'apps/web/.claude/skills/lint/SKILL.md': md({ name: 'lint', description: 'Lints the web app' }, 'Run eslint.'),
    '.claude/commands/build.md': md({ description: 'Builds' }, 'npm run build'),
    '.claude/agents/reviewer.md': md({ name: 'reviewer', description: 'Reviews code' }, 'Review carefully.'),
    '.claude/output-styles/terse.md': md({ name: 'terse', description: 'Short answers' }, 'Answer briefly.'),
    '.claude/settings.json': JSON.stringify({ enabledPlugins: { tools: true } }),
    '.mcp.json': JSON.stringify({ mcpServers: { local: { command: 'node', args: ['server.js'] } } }),
    '.lsp.json': JSON.stringify({ ts: { command: 'typescript-language-server', args: ['--stdio'], extensionToLanguage: { '.ts': 'typescript' } } }),
    '.claude/plugins/tools/.claude-plugin/plugin.json': JSON.stringify({ name: 'tools', description: 'Plugin tools' }),
    '.claude/plugins/tools/commands/fmt.md': md({ description: 'Formats' }, 'prettier --write .'),
    '.claude/plugins/tools/skills/probe/SKILL.md': md({ name: 'probe', description: 'Probes' }, 'Probe.'),
    '.claude/plugins/tools/hooks/hooks.json': JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo hi' }] }] } }),
    '.claude/plugins/tools/.mcp.json': JSON.stringify({ mcpServers: { tool: { command: 'tool-server' } } }),
    'src/index.ts': 'export {};\n',
  });
  const home = makeHome({
    '.claude/CLAUDE.md': '# Mine\n',
    '.claude/skills/notes/SKILL.md': md({ name: 'notes', description: 'Takes notes' }, 'Write notes.'),
    '.claude.json': JSON.stringify({ mcpServers: { mine: { command: 'mine' } } }),
  });
  return { dir, home };
}

/** What a catalog says, without when and how long it was built. */
function rulesView(c: RuleCatalog) {
  return { root: c.root, trust: c.trust, files: c.files, catalogSha256: c.catalogSha256, warnings: c.warnings, workspaceFiles: c.workspaceFiles, listing: c.listing };
}
function extensionsView(c: ExtensionCatalog) {
  const { builtAt: _b, buildMs: _m, snapshot: _s, ...rest } = c;
  return JSON.parse(JSON.stringify(rest));
}

/** The catalogs as each capability builds them alone, every lister and reader unshared (one listing each). */
async function unsharedCatalogs(dir: string, home: string, gate: TrustGate) {
  const builder = new RuleCatalogBuilder({ workspaceDir: dir, homeDir: home, gate });
  const rules = await builder.build(directFileAccess);
  const extensions = await buildExtensions({ workspaceDir: dir, homeDir: home, gate, files: directFileAccess });
  return { rules: rulesView(rules), extensions: extensionsView(extensions) };
}

/** Keeps a build's counted scan and hands its scan to the cache. */
function record(scans: Counted[], c: Counted): WorkspaceScan {
  scans.push(c);
  return c.scan;
}

function expectOnePerBuild(c: Counted): void {
  expect(c.listings).toHaveLength(1);
  expect([...c.reads].filter(([, n]) => n > 1)).toEqual([]);
}

describe('one listing and one read per file per bundle build', () => {
  it('initial build and refresh: one listing each, no path read twice, nothing read around the scan, same catalogs', async () => {
    const { dir, home } = fixture();
    const gate = fixedGate(true);
    const expected = await unsharedCatalogs(dir, home, gate);
    const scans: Counted[] = [];
    const cache = new WorkspaceResourcesCache({ homeDir: home, trustGate: gate, watch: false, createScan: (ws) => record(scans, countingScan(ws)) });
    const bypass = vi.spyOn(fs.promises, 'readFile');
    try {
      const before = allListings();
      const bundle = await cache.resolve(dir);
      expect(allListings() - before).toBe(1);
      expect(scans).toHaveLength(1);
      expectOnePerBuild(scans[0]);
      expect(scans[0].listings[0]).toEqual({ root: dir, options: { maxDepth: 32, verifyExistence: false, onTracked: expect.any(Function) } });
      // rule files, an import shared by two rules, user files, every extension kind, the nested skill, the plugin
      const read = [...scans[0].reads.keys()];
      for (const rel of ['CLAUDE.md', 'AGENTS.md', 'docs/shared.md', '.claude/rules/style.md', 'apps/web/CLAUDE.md', '.claude/skills/deploy/SKILL.md', 'apps/web/.claude/skills/lint/SKILL.md', '.claude/commands/build.md', '.claude/agents/reviewer.md', '.claude/output-styles/terse.md', '.claude/settings.json', '.mcp.json', '.lsp.json', '.claude/plugins/tools/.claude-plugin/plugin.json', '.claude/plugins/tools/commands/fmt.md', '.claude/plugins/tools/skills/probe/SKILL.md', '.claude/plugins/tools/hooks/hooks.json', '.claude/plugins/tools/.mcp.json']) {
        expect(read).toContain(path.join(dir, rel));
      }
      for (const rel of ['.claude/CLAUDE.md', '.claude/skills/notes/SKILL.md', '.claude.json']) expect(read).toContain(path.join(home, rel));
      expect(rulesView(bundle.rules)).toEqual(expected.rules);
      expect(extensionsView(bundle.value('extensions'))).toEqual(expected.extensions);
      expect(bundle.value('extensions').skills.map((s) => s.id)).toEqual(expect.arrayContaining(['deploy', 'lint', 'notes', 'plugin:tools:probe']));

      writeTree(dir, { 'apps/api/.claude/skills/seed/SKILL.md': md({ name: 'seed', description: 'Seeds' }, 'Seed.'), 'docs/shared.md': 'Changed guidance.\n' });
      const beforeRefresh = allListings();
      const refreshed = await cache.refresh(dir);
      expect(allListings() - beforeRefresh).toBe(1);
      expect(scans).toHaveLength(2);
      expectOnePerBuild(scans[1]);
      expect(refreshed.value('extensions').skills.map((s) => s.id)).toContain('seed');
      // every workspace and home file of both builds came through the scan's reader
      const around = bypass.mock.calls.map((c) => String(c[0])).filter((p) => p.startsWith(dir) || p.startsWith(home));
      bypass.mockRestore();
      expect(around).toEqual([]);
      const again = await unsharedCatalogs(dir, home, gate);
      expect(rulesView(refreshed.rules)).toEqual(again.rules);
      expect(extensionsView(refreshed.value('extensions'))).toEqual(again.extensions);
    } finally {
      bypass.mockRestore();
      await cache.close();
    }
  });

  it('revalidation after a trust change rebuilds both stale members from one scan', async () => {
    const { dir, home } = fixture();
    let trusted = false;
    const gate: TrustGate = { mayActivateProjectResources: () => trusted };
    const scans: Counted[] = [];
    const cache = new WorkspaceResourcesCache({ homeDir: home, trustGate: gate, watch: false, createScan: (ws) => record(scans, countingScan(ws)) });
    try {
      const before = allListings();
      const restricted = await cache.resolve(dir);
      expect(allListings() - before).toBe(1);
      expect(scans).toHaveLength(1);
      expectOnePerBuild(scans[0]); // restricted mode discovers twice (active + what trusting would add): still one listing
      expect(restricted.value('extensions').restrictedCounts.skills).toBeGreaterThan(0);
      const expectedRestricted = await unsharedCatalogs(dir, home, gate);
      expect(rulesView(restricted.rules)).toEqual(expectedRestricted.rules);
      expect(extensionsView(restricted.value('extensions'))).toEqual(expectedRestricted.extensions);

      trusted = true;
      const beforeRevalidation = allListings();
      const bundle = await cache.resolve(dir);
      expect(allListings() - beforeRevalidation).toBe(1);
      expect(scans).toHaveLength(2);
      expectOnePerBuild(scans[1]);
      const expected = await unsharedCatalogs(dir, home, gate);
      expect(rulesView(bundle.rules)).toEqual(expected.rules);
      expect(extensionsView(bundle.value('extensions'))).toEqual(expected.extensions);
    } finally {
      await cache.close();
    }
  });
});

describe('WorkspaceScan derives listings with the same answer', () => {
  it('a workspace below the repository root: the root listed once, the workspace listing derived', async () => {
    const repo = makeRepo({ 'a.md': 'x', 'pkg/app/CLAUDE.md': 'y', 'pkg/app/.claude/skills/s/SKILL.md': 'z', 'pkg/app/src/deep/file.ts': '', 'pkg/other.ts': '', '.gitignore': 'pkg/app/ignored/\n', 'pkg/app/ignored/x.md': '' });
    const ws = path.join(repo, 'pkg', 'app');
    const c = countingScan(ws);
    expect(c.scan.root).toBe(repo);
    const rootList = await c.scan.list(repo, { maxDepth: 32, verifyExistence: false });
    const wsList = await c.scan.list(ws, { verifyExistence: false });
    expect(c.listings).toHaveLength(1);
    expect(rootList).toEqual({ ...(await listWorkspaceFiles(repo, { maxDepth: 32, verifyExistence: false })), deleted: [] });
    expect(wsList.files).toEqual((await listWorkspaceFiles(ws, { verifyExistence: false })).files);
    expect(wsList.files).toContain('.claude/skills/s/SKILL.md');
    expect(wsList.files).not.toContain('ignored/x.md');
  });

  it('depth limits: the workspace keeps files the root listing at depth 32 would cut', async () => {
    const repo = makeRepo({ 'README.md': '' });
    const ws = path.join(repo, 'w');
    const deep = `${Array.from({ length: 31 }, (_, i) => `d${i}`).join('/')}/f.md`; // 31 folders below the workspace, 32 below the root
    writeTree(ws, { [deep]: '', 'top.md': '' });
    const c = countingScan(ws);
    const rootList = await c.scan.list(repo, { maxDepth: 31, verifyExistence: false });
    const wsList = await c.scan.list(ws, { verifyExistence: false });
    expect(c.listings).toHaveLength(1);
    expect(rootList.files).toEqual((await listWorkspaceFiles(repo, { maxDepth: 31, verifyExistence: false })).files);
    expect(rootList.files).not.toContain(`w/${deep}`);
    expect(wsList.files).toEqual((await listWorkspaceFiles(ws, { verifyExistence: false })).files);
    expect(wsList.files).toContain(deep);
  });

  it('verified and unverified listings from one verified listing (a tracked file deleted from disk)', async () => {
    const repo = makeRepo({ 'keep.md': '', 'apps/web/.claude/skills/gone/SKILL.md': 'x', 'untracked.md': '' });
    execFileSync('git', ['add', 'keep.md', 'apps'], { cwd: repo });
    fs.rmSync(path.join(repo, 'apps/web/.claude/skills/gone/SKILL.md'));
    const c = countingScan(repo, { root: repo, verifyExistence: true });
    const verified = await c.scan.list(repo);
    const unverified = await c.scan.list(repo, { verifyExistence: false });
    expect(c.listings).toHaveLength(1);
    expect(verified.files).toEqual((await listWorkspaceFiles(repo)).files);
    expect(unverified.files).toEqual((await listWorkspaceFiles(repo, { verifyExistence: false })).files);
    expect(unverified.files).toContain('apps/web/.claude/skills/gone/SKILL.md');
    expect(verified.files).not.toContain('apps/web/.claude/skills/gone/SKILL.md');
  });

  it('what cannot be derived is listed directly (once per folder and options); reads are shared, failures too', async () => {
    const repo = makeRepo({ 'a.md': 'A', 'sub/b.md': 'B' });
    const outside = makeRepo({ 'c.md': '' });
    const c = countingScan(repo, { root: repo });
    await c.scan.list(repo, { verifyExistence: false });
    await c.scan.list(repo); // verified from an unverified listing: listed directly
    await c.scan.list(repo);
    await c.scan.list(outside, { verifyExistence: false });
    expect(c.listings.map((l) => [l.root, l.options.verifyExistence])).toEqual([
      [repo, false],
      [repo, true],
      [outside, false],
    ]);
    const a = path.join(repo, 'a.md');
    const [one, two] = await Promise.all([c.scan.readText(a), c.scan.readBytes(a)]);
    expect([one, two.toString('utf8')]).toEqual(['A', 'A']);
    const missing = path.join(repo, 'none.md');
    await expect(c.scan.readText(missing)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(c.scan.readBytes(missing)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(Object.fromEntries(c.reads)).toEqual({ [a]: 1, [missing]: 1 });
  });

  it('outside a git work tree (the walk) a plain folder is listed once too', async () => {
    const dir = makeRepo({ 'CLAUDE.md': '# x\n', 'apps/web/.claude/skills/s/SKILL.md': md({ name: 's', description: 'd' }, 'b') }, { git: false });
    const c = countingScan(dir);
    const home = makeHome();
    const gate = fixedGate(true);
    await new RuleCatalogBuilder({ workspaceDir: dir, homeDir: home, gate }).build(c.scan);
    const ext = await buildExtensions({ workspaceDir: dir, homeDir: home, gate, files: c.scan });
    expectOnePerBuild(c);
    expect(c.listings[0].root).toBe(dir);
    expect(ext.skills.map((s) => s.id)).toContain('s');
  });
});

describe('tracked files early: rule files read while git looks for untracked ones', () => {
  it('listWorkspaceFiles reports the tracked files (once each) before it resolves, and lists tracked plus untracked as before', async () => {
    const repo = makeRepo({ 'a.md': 'A', 'pkg/CLAUDE.md': 'P', 'untracked/AGENTS.md': 'U', '.gitignore': 'ignored/\n', 'ignored/CLAUDE.md': 'I' });
    execFileSync('git', ['add', 'a.md', 'pkg', '.gitignore'], { cwd: repo });
    let early: readonly string[] | null = null;
    let settled = false;
    const listing = listWorkspaceFiles(repo, {
      verifyExistence: false,
      onTracked: (files) => {
        expect(settled).toBe(false);
        expect(early).toBeNull(); // once
        early = [...files];
      },
    });
    const result = await listing.finally(() => (settled = true));
    expect(early).toEqual(['.gitignore', 'a.md', 'pkg/CLAUDE.md']);
    expect(result.files).toEqual(['.gitignore', 'a.md', 'pkg/CLAUDE.md', 'untracked/AGENTS.md']);
    // the same answer as without the callback, and with verification
    expect(await listWorkspaceFiles(repo, { verifyExistence: false })).toEqual(result);
    expect((await listWorkspaceFiles(repo)).files).toEqual(result.files);
  });

  it('the walk (no git) and a stand-in lister have no early part: trackedEarly resolves null', async () => {
    const plain = makeRepo({ 'CLAUDE.md': 'x' }, { git: false });
    expect(await new WorkspaceScan({ root: plain }).trackedEarly()).toBeNull();
    const repo = makeRepo({ 'CLAUDE.md': 'x' });
    const standIn = new WorkspaceScan({ root: repo, lister: async () => ({ files: ['CLAUDE.md'], strategy: 'git' }) });
    expect(await standIn.trackedEarly()).toBeNull();
  });

  it('a build that starts reading tracked rule files early gives the catalog a direct build gives, each file read once', async () => {
    const deep = `${Array.from({ length: 33 }, (_, i) => `d${i}`).join('/')}/CLAUDE.md`; // beyond the depth limit
    const repo = makeRepo({
      'CLAUDE.md': '# Root\n@docs/shared.md\n',
      'docs/shared.md': 'Shared text.\n',
      '.claude/rules/ts.md': '---\npaths: ["**/*.ts"]\n---\nTypes.\n',
      'apps/web/AGENTS.md': '# Web\n',
      'node_modules/pkg/CLAUDE.md': '# never\n',
      [deep]: '# too deep\n',
      'untracked/AGENTS.md': '# Untracked\n',
      'src/a.ts': '',
    });
    execFileSync('git', ['add', '-f', 'CLAUDE.md', 'docs', '.claude', 'apps', 'node_modules', deep.split('/')[0], 'src'], { cwd: repo });
    fs.writeFileSync(path.join(repo, 'apps/web/CLAUDE.local.md'), '# Mine\n'); // untracked, probed
    const home = makeHome({ '.claude/CLAUDE.md': '# Me\n' });
    for (const trusted of [true, false]) {
      const gate = fixedGate(trusted);
      const c = countingScan(repo, { root: repo });
      const tracked = c.scan.trackedEarly();
      const early = await new RuleCatalogBuilder({ workspaceDir: repo, homeDir: home, gate }).build(c.scan);
      expect(await tracked).toContain('apps/web/AGENTS.md');
      expect(await tracked).not.toContain('untracked/AGENTS.md');
      const direct = await new RuleCatalogBuilder({ workspaceDir: repo, homeDir: home, gate }).build(directFileAccess);
      expect(rulesView(early)).toEqual(rulesView(direct));
      expect(early.files.map((f) => f.relativePath)).toEqual(expect.arrayContaining(['CLAUDE.md', '.claude/rules/ts.md', 'apps/web/AGENTS.md', 'untracked/AGENTS.md', 'apps/web/CLAUDE.local.md']));
      expect(early.files.map((f) => f.relativePath)).not.toContain('node_modules/pkg/CLAUDE.md');
      for (const [file, n] of c.reads) expect(n, file).toBe(1);
      expect(c.reads.has(path.join(repo, 'node_modules/pkg/CLAUDE.md'))).toBe(false);
      expect(c.reads.has(path.join(repo, deep))).toBe(false);
      // restricted: project files by name and size only, nothing read early either (user files still load)
      if (!trusted) expect([...c.reads.keys()]).toEqual([path.join(home, '.claude/CLAUDE.md')]);
    }
  });
});
