import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { splitFrontmatter } from '../../../src/main/core/formats/frontmatter';
import { splitPatternString } from '../../../src/main/core/rules/patterns';
import { repoRoot, sharedDir } from '../../support/corpus';
import { corpusIt } from '../../support/corpusTests';
import { buildCatalog, codes, fileAt, makeRepo } from './helpers';

/** Checks that the frontmatter reader and the yaml package read the same data from every well-formed `.md`/`.mdc` frontmatter below `root`; returns how many were compared. */
function compareWithYaml(root: string): number {
  let compared = 0;
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.md') || e.name.endsWith('.mdc') ? [path.join(dir, e.name)] : []));
  for (const file of walk(root)) {
    const text = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
    const split = splitFrontmatter(text);
    if (!split.frontmatter) continue;
    let expected: unknown;
    try {
      expected = YAML.parse(split.frontmatter.raw) ?? {};
    } catch {
      continue; // invalid YAML: covered by the repair tests
    }
    if (typeof expected !== 'object' || Array.isArray(expected)) continue;
    expect(split.frontmatter.data, file).toEqual(expected);
    compared++;
  }
  return compared;
}

describe('frontmatter (formats.md §6)', () => {
  it('tolerates the unquoted-colon mistake with a warning naming the line and the quoting fix', () => {
    const split = splitFrontmatter('---\nname: foo\ndescription: Story assistant. Trigger words: character, scene\n---\nBody');
    expect(split.frontmatter?.data).toEqual({ name: 'foo', description: 'Story assistant. Trigger words: character, scene' });
    expect(split.warnings).toEqual([
      expect.objectContaining({ code: 'frontmatter-unquoted-colon', line: 3, fix: 'Quote it: description: "Story assistant. Trigger words: character, scene"' }),
    ]);
    expect(split.body.trim()).toBe('Body');
  });

  it("reads PlatformPlatform's unquoted ** comma strings as one string, with a warning per line", () => {
    const split = splitFrontmatter('---\npaths: **/*.tsx,**/*.ts,.editorconfig\ndescription: Core rules\n---\n# Frontend');
    expect(split.frontmatter?.data.paths).toBe('**/*.tsx,**/*.ts,.editorconfig');
    expect(split.frontmatter?.mode).toBe('repaired');
    expect(split.warnings.map((w) => [w.code, w.line])).toEqual([['frontmatter-unquoted-glob', 2]]);
    expect(split.warnings[0].fix).toBe('Quote it: paths: "**/*.tsx,**/*.ts,.editorconfig"');
  });

  it('repairs an unquoted * list item too', () => {
    const split = splitFrontmatter('---\npaths:\n  - **/*.go\n  - "cmd/**"\n---\nGo');
    expect(split.frontmatter?.data.paths).toEqual(['**/*.go', 'cmd/**']);
    expect(split.warnings.map((w) => [w.code, w.line])).toEqual([['frontmatter-unquoted-glob', 3]]);
  });

  it('falls back to line-by-line reading for YAML it cannot repair, and says so', () => {
    const split = splitFrontmatter('---\npaths: src/**\nbad: [unclosed\n---\nText');
    expect(split.frontmatter?.mode).toBe('lines');
    expect(split.frontmatter?.data.paths).toBe('src/**');
    expect(codes({ warnings: split.warnings } as never)).toEqual(['frontmatter-invalid']);
  });

  it('treats a missing closing fence as text with a warning, and a file without frontmatter as body only', () => {
    expect(splitFrontmatter('---\npaths: x\nno end').warnings.map((w) => w.code)).toEqual(['frontmatter-unclosed']);
    const plain = splitFrontmatter('# Title\n\ntext');
    expect(plain.frontmatter).toBeNull();
    expect(plain.bodyLine).toBe(1);
  });

  corpusIt('reads the same data as the yaml package for every well-formed frontmatter in the corpus (fast path equivalence)', () => {
    expect(compareWithYaml(path.join(sharedDir, 'corpus'))).toBeGreaterThan(50);
  });

  it('reads the same data as the yaml package for every well-formed frontmatter of the project’s fixture workspaces (fast path equivalence)', () => {
    expect(compareWithYaml(path.join(repoRoot, 'test/fixtures/workspaces'))).toBeGreaterThan(25);
  });
});

describe('conditions and patterns', () => {
  it('splits comma and newline strings outside braces only', () => {
    expect(splitPatternString('src/**/*.{ts,tsx}, lib/**\n docs/*.md ,')).toEqual(['src/**/*.{ts,tsx}', 'lib/**', 'docs/*.md']);
    expect(splitPatternString('a/{b,{c,d}}/*.ts,e')).toEqual(['a/{b,{c,d}}/*.ts', 'e']);
  });

  it('accepts paths as a list or a comma string, matches braces, dotfiles, and scope-relative paths only', async () => {
    const catalog = await buildCatalog(
      makeRepo({
        '.claude/rules/list.md': '---\npaths:\n  - "src/api/**/*.ts"\n  - "src/**/*.{ts,tsx}"\n---\nList form',
        '.claude/rules/comma.md': '---\npaths: src/api/**, lib/api/**\n---\nComma form',
        '.claude/rules/ci.md': '---\npaths: "**/*.yml"\n---\nCI files',
        'pkg/.claude/rules/local.md': '---\npaths: "src/**"\n---\nScoped to pkg',
      }),
    );
    expect(fileAt(catalog, '.claude/rules/list.md').patterns).toEqual(['src/api/**/*.ts', 'src/**/*.{ts,tsx}']);
    expect(fileAt(catalog, '.claude/rules/comma.md').patterns).toEqual(['src/api/**', 'lib/api/**']);
    const hit = (target: string) => catalog.contextualRules(undefined, [target]).files.map((s) => [s.file.relativePath, s.matchedPattern]);
    expect(hit('src/app.tsx')).toEqual([['.claude/rules/list.md', 'src/**/*.{ts,tsx}']]);
    expect(hit('lib/api/users.ts')).toEqual([['.claude/rules/comma.md', 'lib/api/**']]);
    expect(hit('.github/workflows/ci.yml')).toEqual([['.claude/rules/ci.md', '**/*.yml']]);
    expect(hit('pkg/src/a.go')).toEqual([['pkg/.claude/rules/local.md', 'src/**']]);
    expect(hit('src/a.go')).toEqual([]); // pkg's rule: a target outside its scope never matches
  });

  it('makes ** unconditional, an empty list inert, and a bad pattern invalid without failing the catalog', async () => {
    const catalog = await buildCatalog(
      makeRepo({
        '.claude/rules/all.md': '---\npaths: "**"\n---\nEverything',
        '.claude/rules/never.md': '---\npaths: []\n---\nNever',
        '.claude/rules/abs.md': '---\npaths: /etc/**\n---\nAbsolute',
        '.claude/rules/up.md': '---\npaths: ["src/**", "../x/**"]\n---\nEscapes',
        '.claude/rules/type.md': '---\npaths: 42\n---\nNumber',
        '.claude/rules/ok.md': '---\npaths: "src/**"\n---\nFine',
      }),
    );
    expect(fileAt(catalog, '.claude/rules/all.md')).toMatchObject({ kind: 'always', status: 'active', patterns: [] });
    expect(fileAt(catalog, '.claude/rules/never.md')).toMatchObject({ status: 'inert' });
    expect(codes(fileAt(catalog, '.claude/rules/never.md'))).toContain('empty-patterns');
    for (const rel of ['.claude/rules/abs.md', '.claude/rules/up.md', '.claude/rules/type.md']) {
      const f = fileAt(catalog, rel);
      expect(f.status, rel).toBe('invalid');
      expect(f.warnings.find((w) => w.severity === 'error')?.line, rel).toBe(2);
    }
    expect(fileAt(catalog, '.claude/rules/up.md').warnings.find((w) => w.severity === 'error')?.message).toContain('"../x/**"');
    expect(fileAt(catalog, '.claude/rules/ok.md').status).toBe('active');
  });

  it('follows Cursor and Copilot semantics: alwaysApply, globs, manual, applyTo string and list', async () => {
    const catalog = await buildCatalog(
      makeRepo({
        '.cursor/rules/always.mdc': '---\nalwaysApply: true\nglobs: "*.ts"\n---\nAlways',
        '.cursor/rules/auto.mdc': '---\nglobs: src/**/*.ts, lib/**/*.ts\nalwaysApply: false\n---\nAuto',
        '.cursor/rules/manual.mdc': '---\nalwaysApply: false\n---\nManual',
        '.cursor/rules/requested.mdc': '---\ndescription: Ask me\nalwaysApply: false\n---\nRequested',
        '.cursor/rules/string.mdc': '---\nalwaysApply: "true"\n---\nString true',
        '.github/instructions/a.instructions.md': '---\napplyTo: "**/*.ts,**/*.tsx"\n---\nA',
        '.github/instructions/b.instructions.md': '---\napplyTo: "**/*.{ts,tsx}"\n---\nB',
        '.github/instructions/c.instructions.md': '---\napplyTo:\n  - "**/*.m"\n---\nC',
        '.github/instructions/d.instructions.md': 'D',
      }),
    );
    expect(fileAt(catalog, '.cursor/rules/always.mdc')).toMatchObject({ kind: 'always', status: 'active' });
    expect(fileAt(catalog, '.cursor/rules/auto.mdc')).toMatchObject({ kind: 'conditional', conditionKey: 'globs', patterns: ['src/**/*.ts', 'lib/**/*.ts'] });
    expect(fileAt(catalog, '.cursor/rules/manual.mdc')).toMatchObject({ kind: 'manual', status: 'manual' });
    // A description and no globs is Cursor's "Apply Intelligently" (agent-requested), not manual.
    expect(fileAt(catalog, '.cursor/rules/requested.mdc')).toMatchObject({ kind: 'agent-requested', status: 'manual', description: 'Ask me' });
    expect(fileAt(catalog, '.cursor/rules/string.mdc')).toMatchObject({ kind: 'manual' });
    expect(codes(fileAt(catalog, '.cursor/rules/string.mdc'))).toContain('cursor-always-apply-string');
    expect(fileAt(catalog, '.github/instructions/a.instructions.md').patterns).toEqual(['**/*.ts', '**/*.tsx']);
    expect(fileAt(catalog, '.github/instructions/b.instructions.md').patterns).toEqual(['**/*.{ts,tsx}']);
    expect(fileAt(catalog, '.github/instructions/c.instructions.md')).toMatchObject({ kind: 'conditional', patterns: ['**/*.m'] });
    expect(codes(fileAt(catalog, '.github/instructions/c.instructions.md'))).toContain('apply-to-list');
    expect(fileAt(catalog, '.github/instructions/d.instructions.md')).toMatchObject({ kind: 'manual', status: 'manual' });
    const selected = catalog.contextualRules(undefined, ['web/app.tsx']).files.map((s) => s.file.relativePath);
    expect(selected).toEqual(['.github/instructions/a.instructions.md', '.github/instructions/b.instructions.md']);
  });

  it('a description YAML reads as a number is Cursor\'s text (agent-requested); one it reads as a list is shown as written with the quoting fix', async () => {
    const catalog = await buildCatalog(
      makeRepo({
        '.cursor/rules/year.mdc': '---\ndescription: 2024\nalwaysApply: false\n---\nPlanning rules for 2024',
        '.cursor/rules/tags.mdc': '---\ndescription: [api, style]\nalwaysApply: false\n---\nAPI style',
        '.claude/rules/null.md': '---\ndescription: ~\n---\nNo description',
      }),
    );
    expect(fileAt(catalog, '.cursor/rules/year.mdc')).toMatchObject({ kind: 'agent-requested', description: '2024' });
    expect(codes(fileAt(catalog, '.cursor/rules/year.mdc'))).not.toContain('frontmatter-not-text');
    expect(fileAt(catalog, '.cursor/rules/tags.mdc')).toMatchObject({ kind: 'agent-requested', description: '[api, style]' });
    expect(fileAt(catalog, '.cursor/rules/tags.mdc').warnings.find((w) => w.code === 'frontmatter-not-text')).toMatchObject({ line: 2, fix: 'Quote the value: description: "[api, style]"' });
    expect(fileAt(catalog, '.claude/rules/null.md').description).toBeNull();
  });

  it('makes paths conditional on any file, even CLAUDE.md', async () => {
    const catalog = await buildCatalog(makeRepo({ 'CLAUDE.md': '---\npaths: docs/**\n---\nDocs only' }));
    expect(fileAt(catalog, 'CLAUDE.md')).toMatchObject({ kind: 'conditional', patterns: ['docs/**'] });
    expect(catalog.staticRules().files).toEqual([]);
  });
});
