import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentView, readCodexDocConfig } from '../../../src/main/core/rules/agentViews';
import { tempDir } from '../../support/tempDir';
import { buildCatalog, makeHome, makeRepo, writeTree } from './helpers';

const rows = (view: { files: Array<{ path: string; status: string }> }) => view.files.map((f) => [f.path, f.status]);
const framed = (cwd: string, body: string) => `# AGENTS.md instructions for ${cwd}\n\n<INSTRUCTIONS>\n${body}\n</INSTRUCTIONS>`;

describe('Codex view (Codex 0.166.0 project docs)', () => {
  it('a CLAUDE.md that is a symlink to AGENTS.md is said to be the same file, not a name to add to the fallbacks', async () => {
    const root = makeRepo({ 'AGENTS.md': 'Shared rules.\n' }, { git: true });
    fs.symlinkSync('AGENTS.md', path.join(root, 'CLAUDE.md'));
    const view = await agentView(await buildCatalog(root, { home: makeHome() }), 'codex', '');
    expect(view.files.find((f) => f.path === 'CLAUDE.md')).toMatchObject({ status: 'ignored', reason: 'Same file as AGENTS.md, which Codex reads: its text is already in.' });
  });

  it('a nested folder with its own .git file (worktree, submodule) is its own project root', async () => {
    const dir = makeRepo({ 'AGENTS.md': 'outer root', 'mod/.git': 'gitdir: ../.git/modules/mod\n', 'mod/AGENTS.md': 'module root', 'mod/src/AGENTS.md': 'module src' });
    const catalog = await buildCatalog(dir);
    const view = await agentView(catalog, 'codex', 'mod/src');
    expect(rows(view)).toEqual([
      ['mod/AGENTS.md', 'loaded'],
      ['mod/src/AGENTS.md', 'loaded'],
      ['AGENTS.md', 'ignored'],
    ]);
    expect(view.files[2].reason).toContain('Above Codex');
    expect(view.content).toBe(framed(`${catalog.root}/mod/src`, 'module root\n\nmodule src'));
    expect(view.notes.join('\n')).toContain("Codex's project root is mod");
  });

  it('honours project_root_markers: [] reads only the start folder, a custom marker moves the root', async () => {
    const dir = makeRepo({ 'AGENTS.md': 'root', 'pkg/.hg/keep': '', 'pkg/AGENTS.md': 'pkg', 'pkg/a/AGENTS.md': 'a' });
    const none = makeHome({ '.codex/config.toml': 'project_root_markers = []\n' });
    const onlyStart = await agentView(await buildCatalog(dir, { home: none }), 'codex', 'pkg/a');
    expect(rows(onlyStart).filter(([, s]) => s === 'loaded')).toEqual([['pkg/a/AGENTS.md', 'loaded']]);
    const hg = makeHome({ '.codex/config.toml': 'project_root_markers = [".hg"]\n' });
    const view = await agentView(await buildCatalog(dir, { home: hg }), 'codex', 'pkg/a');
    expect(rows(view).filter(([, s]) => s === 'loaded')).toEqual([
      ['pkg/AGENTS.md', 'loaded'],
      ['pkg/a/AGENTS.md', 'loaded'],
    ]);
  });

  it('honours project_doc_fallback_filenames after AGENTS.override.md and AGENTS.md, one file per folder', async () => {
    const dir = makeRepo({ 'AGENTS.md': 'root agents', 'CLAUDE.md': 'root claude', 'web/CLAUDE.md': 'web claude' });
    const home = makeHome({ '.codex/config.toml': 'project_doc_fallback_filenames = ["", "CLAUDE.md"]\n' });
    const catalog = await buildCatalog(dir, { home });
    const view = await agentView(catalog, 'codex', 'web');
    expect(rows(view)).toEqual([
      ['CLAUDE.md', 'ignored'],
      ['AGENTS.md', 'loaded'],
      ['web/CLAUDE.md', 'loaded'],
    ]);
    expect(view.content).toBe(framed(`${catalog.root}/web`, 'root agents\n\nweb claude'));
  });

  it('honours project_doc_max_bytes (the cut is byte-exact, raw text kept) and 0 (no project docs)', async () => {
    const dir = makeRepo({ 'AGENTS.md': 'first\r\nline\r\n', 'x/AGENTS.md': 'second file here' });
    const catalog = await buildCatalog(dir, { home: makeHome({ '.codex/config.toml': 'project_doc_max_bytes = 20\n' }) });
    const view = await agentView(catalog, 'codex', 'x');
    expect(view.budgetBytes).toBe(20);
    expect(view.files.map((f) => [f.path, f.status, f.loadedBytes])).toEqual([
      ['AGENTS.md', 'loaded', 13],
      ['x/AGENTS.md', 'truncated', 7],
    ]);
    expect(view.content).toBe(framed(`${catalog.root}/x`, 'first\r\nline\r\n\n\nsecond '));
    const off = await agentView(await buildCatalog(dir, { home: makeHome({ '.codex/config.toml': 'project_doc_max_bytes = 0\n' }) }), 'codex', 'x');
    expect(rows(off)).toEqual([
      ['AGENTS.md', 'ignored'],
      ['x/AGENTS.md', 'ignored'],
    ]);
    expect(off.content).toBe('');
  });

  it('a malformed config.toml gives a note and the defaults, not a crash', async () => {
    const home = makeHome({ '.codex/config.toml': 'project_doc_max_bytes = = 3\n' });
    const config = await readCodexDocConfig(path.join(home, '.codex'));
    expect(config).toMatchObject({ maxBytes: 32_768, fallbackFilenames: [], rootMarkers: ['.git'] });
    expect(config.notes[0]).toMatch(/not valid TOML \(line 1/);
    const wrongType = await readCodexDocConfig(path.join(makeHome({ '.codex/config.toml': 'project_root_markers = ".git"\nproject_doc_max_bytes = "big"\n' }), '.codex'));
    expect(wrongType.maxBytes).toBe(32_768);
    expect(wrongType.notes).toHaveLength(2);
    const view = await agentView(await buildCatalog(makeRepo({ 'AGENTS.md': 'r' }), { home }), 'codex', '');
    expect(view.notes.join('\n')).toContain('not valid TOML');
    expect(view.files[0]).toMatchObject({ path: 'AGENTS.md', status: 'loaded' });
  });

  it('reads the global file and config.toml from codexHome ($CODEX_HOME) when given', async () => {
    const dir = makeRepo({ 'AGENTS.md': 'project' });
    const codexHome = tempDir('atrium-codex-home-');
    writeTree(codexHome, { 'AGENTS.override.md': '  \n', 'AGENTS.md': '\n global from CODEX_HOME \n', 'config.toml': 'project_doc_max_bytes = 3\n' });
    const catalog = await buildCatalog(dir, { home: makeHome({ '.codex/AGENTS.md': 'not this one' }) });
    const view = await agentView(catalog, 'codex', '', null, { codexHome });
    expect(view.files.map((f) => [f.path, f.status])).toEqual([
      [`${codexHome}/AGENTS.override.md`, 'skipped'],
      [`${codexHome}/AGENTS.md`, 'loaded'],
      ['AGENTS.md', 'truncated'],
    ]);
    expect(view.content).toBe(framed(catalog.root, 'global from CODEX_HOME\n\n--- project-doc ---\n\npro'));
  });

  it('never reads a committed AGENTS.md that links outside the workspace: it says Codex would read the target, with its size', async () => {
    const outside = path.join(tempDir('atrium-outside-'), 'passwd');
    fs.writeFileSync(outside, 'root:x:0:0:secret-outside-text\n');
    const dir = makeRepo({ 'lib/AGENTS.md': 'lib rules' });
    fs.symlinkSync(outside, path.join(dir, 'AGENTS.md'));
    fs.symlinkSync(outside, path.join(dir, 'CLAUDE.md'));
    const catalog = await buildCatalog(dir);
    const view = await agentView(catalog, 'codex', 'lib');
    const real = fs.realpathSync(outside);
    expect(view.files[0]).toMatchObject({ path: 'AGENTS.md', status: 'restricted', bytes: 31, loadedBytes: 31 });
    expect(view.files[0].reason).toContain(`Codex would read ${real} (outside the workspace)`);
    expect(view.content).not.toContain('secret-outside-text');
    expect(view.content).toBe(framed(`${catalog.root}/lib`, 'lib rules'));
    const claude = await agentView(catalog, 'claude', 'lib');
    expect(claude.content).not.toContain('secret-outside-text');
    expect(claude.files.find((f) => f.path === 'CLAUDE.md')).toMatchObject({ status: 'restricted' });
  });

  it("applies the project's .codex/config.toml only when Codex's config trusts the git root, never for project_root_markers", async () => {
    const dir = makeRepo({ '.codex/config.toml': 'project_doc_fallback_filenames = ["GUIDE.md"]\nproject_root_markers = []\n', 'AGENTS.md': 'root', 'a/GUIDE.md': 'guide' });
    const loaded = (v: { files: Array<{ path: string; status: string }> }) => v.files.filter((f) => f.status === 'loaded').map((f) => f.path);
    const untrusted = await agentView(await buildCatalog(dir), 'codex', 'a');
    expect(loaded(untrusted)).toEqual(['AGENTS.md']);
    const trustA = makeHome({ '.codex/config.toml': `[projects."${dir}/a"]\ntrust_level = "trusted"\n` });
    expect(loaded(await agentView(await buildCatalog(dir, { home: trustA }), 'codex', 'a'))).toEqual(['AGENTS.md']);
    const trustRoot = makeHome({ '.codex/config.toml': `[projects."${dir}"]\ntrust_level = "trusted"\n` });
    const view = await agentView(await buildCatalog(dir, { home: trustRoot }), 'codex', 'a');
    expect(loaded(view)).toEqual(['AGENTS.md', 'a/GUIDE.md']);
    expect(view.notes.join('\n')).toContain('.codex/config.toml sets project_root_markers: Codex ignores it');
    const restricted = await agentView(await buildCatalog(dir, { home: trustRoot, trusted: false }), 'codex', 'a');
    expect(loaded(restricted)).toEqual(['AGENTS.md']);
    expect(restricted.notes.join('\n')).toContain('Atrium does not read them');
  });
});
