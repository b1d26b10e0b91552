import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RuleCatalog } from '../../../src/main/core/rules/catalog';
import { buildCatalog, makeBuilder, makeHome, makeRepo } from './helpers';

/** What must be identical between an incremental update and a fresh build. */
const essence = (c: RuleCatalog) => ({
  sha: c.catalogSha256,
  files: c.files.map((f) => [f.relativePath, f.status, f.kind, f.sha256, f.warnings.map((w) => w.code).join(',')]),
  workspaceFiles: [...c.workspaceFiles],
});

describe('incremental rebuild (RuleCatalogBuilder.update)', () => {
  it('after edits, additions, deletions and import changes equals a fresh full build', async () => {
    const home = makeHome({ '.claude/CLAUDE.md': 'user' });
    const dir = makeRepo({
      'CLAUDE.md': 'Root @docs/a.md',
      'docs/a.md': 'imported one',
      'AGENTS.md': 'agents',
      '.claude/rules/ts.md': '---\npaths: "**/*.ts"\n---\nts',
      'pkg/GEMINI.md': 'gemini',
      'src/x.ts': '',
    });
    const { builder, catalog } = await makeBuilder(dir, { home });
    const at = (rel: string) => path.join(dir, rel);

    fs.writeFileSync(at('.claude/rules/ts.md'), '---\npaths: "src/**/*.ts"\n---\nts edited');
    fs.writeFileSync(at('docs/a.md'), 'imported two');
    fs.writeFileSync(at('AGENTS.override.md'), 'override');
    fs.mkdirSync(at('new/deep'), { recursive: true });
    fs.writeFileSync(at('new/deep/CLAUDE.md'), 'new nested');
    fs.writeFileSync(at('new/deep/code.ts'), '');
    fs.rmSync(at('pkg'), { recursive: true });
    fs.writeFileSync(path.join(home, '.claude/CLAUDE.md'), 'user edited');
    const changed = ['.claude/rules/ts.md', 'docs/a.md', 'AGENTS.override.md', 'new', 'new/deep', 'new/deep/CLAUDE.md', 'new/deep/code.ts', 'pkg', 'pkg/GEMINI.md'].map(at);
    const result = await builder.update([...changed, path.join(home, '.claude/CLAUDE.md')]);
    expect(result.changed).toBe(true);
    expect(result.catalog.catalogSha256).not.toBe(catalog.catalogSha256);
    const fresh = await buildCatalog(dir, { home });
    expect(essence(result.catalog)).toEqual(essence(fresh));
    expect(result.catalog.files.find((f) => f.relativePath === 'CLAUDE.md')?.content).toContain('imported two');
    expect(result.catalog.files.find((f) => f.relativePath === 'AGENTS.md')?.status).toBe('overridden');
  });

  it('ignores a new gitignored rule file and reports no change for unrelated files', async () => {
    const dir = makeRepo({ '.gitignore': 'build/\n', 'AGENTS.md': 'a' });
    const { builder, catalog } = await makeBuilder(dir);
    fs.mkdirSync(path.join(dir, 'build'));
    fs.writeFileSync(path.join(dir, 'build/AGENTS.md'), 'generated');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'x');
    const result = await builder.update([path.join(dir, 'build/AGENTS.md'), path.join(dir, 'notes.txt')]);
    expect(result.changed).toBe(false);
    expect(result.catalog.catalogSha256).toBe(catalog.catalogSha256);
    expect(result.catalog.files.map((f) => f.relativePath)).toEqual(['AGENTS.md']);
    expect(result.catalog.workspaceFiles).toContain('notes.txt');
  });

  it('a changed .gitignore triggers a full rebuild', async () => {
    const dir = makeRepo({ '.gitignore': '', 'gen/AGENTS.md': 'generated', 'AGENTS.md': 'a' });
    const { builder } = await makeBuilder(dir);
    fs.writeFileSync(path.join(dir, '.gitignore'), 'gen/\n');
    const result = await builder.update([path.join(dir, '.gitignore')]);
    expect(result.catalog.files.map((f) => f.relativePath)).toEqual(['AGENTS.md']);
  });

  it('rebuilds files that are symlinks to an edited file', async () => {
    const dir = makeRepo({ 'AGENTS.md': 'v1' });
    fs.symlinkSync('AGENTS.md', path.join(dir, 'CLAUDE.md'));
    const { builder } = await makeBuilder(dir);
    fs.writeFileSync(path.join(dir, 'AGENTS.md'), 'v2');
    const result = await builder.update([path.join(dir, 'AGENTS.md')]);
    expect(result.catalog.files.map((f) => [f.relativePath, f.content])).toEqual([
      ['CLAUDE.md', 'v2'],
      ['AGENTS.md', 'v2'],
    ]);
  });
});
