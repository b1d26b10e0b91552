import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RulesExplainResult } from '../../../src/shared/contract/rules';
import { explainRules } from '../../../src/main/core/rules/explain';
import { lintCatalog } from '../../../src/main/core/rules/lint';
import { presentExplanation } from '../../../src/main/core/rules/present';
import { runCli } from '../../support/cli';
import { tempDir } from '../../support/tempDir';
import { buildCatalog, fileAt, makeHome, makeRepo, paths } from './helpers';

const kib = (n: number, fill: string) => `${fill}\n${'x'.repeat(n * 1024 - fill.length - 1)}`;

describe('the same file twice is loaded once (symlinks, import-only files)', () => {
  it('a CLAUDE.md -> AGENTS.md symlink is collapsed into AGENTS.md with "same file as", before the budget', async () => {
    const dir = makeRepo({ 'AGENTS.md': 'root agents', 'src/a.ts': '' });
    fs.symlinkSync('AGENTS.md', path.join(dir, 'CLAUDE.md'));
    const catalog = await buildCatalog(dir);
    expect(fileAt(catalog, 'CLAUDE.md').realPath).toBe(fileAt(catalog, 'AGENTS.md').realPath);
    const sel = catalog.staticRules();
    expect(paths(sel)).toEqual(['AGENTS.md']);
    expect(sel.collapsed.map((c) => [c.file.relativePath, c.reason, c.sameAs])).toEqual([['CLAUDE.md', 'same-file', 'AGENTS.md']]);
    expect(sel.collapsed[0].detail).toContain('Same file as AGENTS.md (a symlink to AGENTS.md)');
    expect(sel.content.match(/root agents/g)).toHaveLength(1);
    expect(sel.bodyBytes).toBe(Buffer.byteLength('root agents'));

    const result = RulesExplainResult.parse(presentExplanation(catalog, explainRules(catalog, { path: 'src/a.ts' })));
    expect(result.static.map((r) => r.path)).toEqual(['AGENTS.md']);
    expect(result.collapsed).toMatchObject([{ path: 'CLAUDE.md', reason: 'same-file', sameAs: 'AGENTS.md' }]);
    expect(result.skipped.map((r) => r.path)).not.toContain('CLAUDE.md');
  });

  it('budget: a duplicated nested pair no longer pushes the root instructions out', async () => {
    // root AGENTS.md (20 KiB) + CLAUDE.md -> AGENTS.md, and a large nested AGENTS.md (16 KiB) read by
    // Claude through pkg/CLAUDE.md = "@AGENTS.md": counted twice, the nested text filled 32 of the
    // 48 KiB and the root's 20 KiB no longer fit.
    const dir = makeRepo({ 'AGENTS.md': kib(20, 'ROOT RULES'), 'pkg/AGENTS.md': kib(16, 'PKG RULES'), 'pkg/CLAUDE.md': '@AGENTS.md', 'pkg/x.ts': '' });
    fs.symlinkSync('AGENTS.md', path.join(dir, 'CLAUDE.md'));
    const catalog = await buildCatalog(dir);
    expect(fileAt(catalog, 'pkg/CLAUDE.md').bodyBytes).toBeGreaterThan(fileAt(catalog, 'pkg/AGENTS.md').bodyBytes); // the text plus its <imported-file> framing
    const sel = catalog.staticRules('pkg');
    expect(paths(sel)).toEqual(['AGENTS.md', 'pkg/AGENTS.md']);
    expect(sel.dropped).toEqual([]);
    expect(sel.content).toContain('ROOT RULES');
    expect(sel.content.match(/PKG RULES/g)).toHaveLength(1);
    expect(Object.fromEntries(sel.collapsed.map((c) => [c.file.relativePath, c.sameAs]))).toEqual({ 'CLAUDE.md': 'AGENTS.md', 'pkg/CLAUDE.md': 'pkg/AGENTS.md' });
    expect(sel.collapsed.find((c) => c.file.relativePath === 'pkg/CLAUDE.md')?.detail).toContain('only imports it');
  });

  it('contextual: a nested symlink pair and a file already loaded statically collapse too', async () => {
    const dir = makeRepo({ 'AGENTS.md': 'root', 'pkg/AGENTS.md': 'pkg rules', 'pkg/x.ts': '', 'docs/CLAUDE.md': '@../AGENTS.md', 'docs/y.md': '' });
    fs.symlinkSync('AGENTS.md', path.join(dir, 'pkg', 'CLAUDE.md'));
    const catalog = await buildCatalog(dir);
    const root = fileAt(catalog, 'AGENTS.md');
    const pkg = catalog.contextualRules(undefined, ['pkg/x.ts'], [root.id]);
    expect(paths(pkg)).toEqual(['pkg/AGENTS.md']);
    expect(pkg.collapsed.map((c) => [c.file.relativePath, c.sameAs])).toEqual([['pkg/CLAUDE.md', 'pkg/AGENTS.md']]);
    // docs/CLAUDE.md only imports the root AGENTS.md, which the session already has
    const docs = catalog.contextualRules(undefined, ['docs/y.md'], [root.id]);
    expect(paths(docs)).toEqual([]);
    expect(docs.collapsed.map((c) => [c.file.relativePath, c.sameAs])).toEqual([['docs/CLAUDE.md', 'AGENTS.md']]);
    // without the root loaded, docs/CLAUDE.md is the only way to the text and loads
    expect(paths(catalog.contextualRules(undefined, ['docs/y.md'], []))).toEqual(['docs/CLAUDE.md']);
  });

  it('a file with text of its own that imports a selected file keeps it; the imported one is collapsed into it', async () => {
    const dir = makeRepo({ 'AGENTS.md': 'shared rules', 'CLAUDE.md': 'Claude only.\n\n@AGENTS.md' });
    const catalog = await buildCatalog(dir);
    const sel = catalog.staticRules();
    expect(paths(sel)).toEqual(['CLAUDE.md']);
    expect(sel.content.match(/shared rules/g)).toHaveLength(1);
    expect(sel.content).toContain('Claude only.');
    expect(sel.collapsed.map((c) => [c.file.relativePath, c.sameAs])).toEqual([['AGENTS.md', 'CLAUDE.md']]);
  });

  it('two copies with the same text are both loaded, and lint keeps its warning for them; the symlink and import findings are info', async () => {
    const dir = makeRepo({ 'AGENTS.md': 'copy', 'lib/AGENTS.md': 'copy', 'GEMINI.md': '@AGENTS.md' });
    fs.symlinkSync('AGENTS.md', path.join(dir, 'CLAUDE.md'));
    const catalog = await buildCatalog(dir);
    expect(paths(catalog.staticRules('lib'))).toEqual(['AGENTS.md', 'lib/AGENTS.md']);
    const dup = lintCatalog(catalog).findings.filter((f) => f.code === 'duplicate-content');
    const by = (p: string) => dup.filter((f) => f.path === p).map((f) => f.severity);
    expect(by('lib/AGENTS.md')).toEqual(['warning']);
    expect(by('GEMINI.md')).toEqual(['info']);
    expect(dup.filter((f) => f.message.includes('(a symlink)')).map((f) => f.severity)).toEqual(['info']);
  });

  it('atrium rules explain prints the collapsed file with "same file as" (and --json carries sameAs)', { timeout: 60_000 }, () => {
    const dir = makeRepo({ 'AGENTS.md': 'root agents', 'src/a.ts': '' });
    fs.symlinkSync('AGENTS.md', path.join(dir, 'CLAUDE.md'));
    const dataDir = tempDir('atrium-cli-data-');
    const env = { HOME: makeHome() };
    expect(runCli(['trust', 'set', dir, 'trusted', '--data-dir', dataDir], env).status).toBe(0);
    const human = runCli(['rules', 'explain', dir, '--path', 'src/a.ts', '--data-dir', dataDir], env);
    expect(human.status).toBe(0);
    expect(human.stdout).toContain('Same file as a loaded one (loaded once):');
    expect(human.stdout).toMatch(/1\. CLAUDE\.md .*Same file as AGENTS\.md \(a symlink to AGENTS\.md\)/);
    const json = runCli(['rules', 'explain', dir, '--path', 'src/a.ts', '--json', '--data-dir', dataDir], env).json as { collapsed: Array<{ path: string; sameAs: string }> };
    expect(json.collapsed).toEqual([expect.objectContaining({ path: 'CLAUDE.md', reason: 'same-file', sameAs: 'AGENTS.md' })]);
  });
});
