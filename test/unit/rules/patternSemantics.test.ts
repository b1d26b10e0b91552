import ignore from 'ignore';
import { describe, expect, it } from 'vitest';
import { compilePatterns, equivalentGlobs } from '../../../src/main/core/rules/patterns';
import { buildCatalog, makeRepo } from './helpers';
import { lintCatalog } from '../../../src/main/core/rules/lint';

const PATHS = ['a.ts', 'src/a.ts', 'src/apps/x.ts', 'packages/core/src/v3/apps/exec.ts', 'apps/exec.ts', 'apps', 'docs/README.md', 'src/docs/a.md', 'lib/apps.ts', 'x/y/z/deep.py', 'SRC/Upper.ts', '.github/a.yml'];
const PATTERNS = ['apps/**', 'apps', 'apps/', '*.ts', 'src/**', 'src/*.ts', 'docs/*.md', '**/*.py', 'src/**/apps/**', '**/apps/*.ts', '.github/**', 'x/**/deep.py'];

describe("pattern semantics per tool", () => {
  it("Claude's gitignore-style paths: the translated globs accept exactly what the ignore package accepts (one trailing /** stripped, as Claude Code 2.1.318 does)", () => {
    for (const pattern of PATTERNS) {
      const compiled = compilePatterns([pattern], null, 'gitignore').compiled[0];
      const ig = ignore().add(pattern.endsWith('/**') ? pattern.slice(0, -3) : pattern);
      for (const p of PATHS) expect(compiled.test(p), `${pattern} vs ${p}`).toBe(ig.ignores(p));
    }
    expect(equivalentGlobs('apps/**', 'gitignore')).toEqual(['**/apps', '**/apps/**']);
    expect(equivalentGlobs('src/*.ts', 'gitignore')).toEqual(['src/*.ts', 'src/*.ts/**']);
  });

  it("Copilot's applyTo matches anywhere, ignoring case; Cursor globs stay minimatch", () => {
    const copilot = compilePatterns(['src/**'], null, 'anywhere').compiled[0];
    expect(copilot.test('pkg/SRC/a.ts')).toBe(true);
    expect(copilot.test('src/a.ts')).toBe(true);
    const glob = compilePatterns(['src/**'], null, 'glob').compiled[0];
    expect(glob.test('pkg/src/a.ts')).toBe(false);
  });

  it('the catalog selects a Claude rule the way Claude does, and lint never asks for a **/ Claude does not need', async () => {
    const root = makeRepo({
      'pkg/.claude/rules/apps.md': '---\npaths: "apps/**"\n---\nApps rule.',
      'pkg/.claude/rules/ts.md': '---\npaths: "*.ts"\n---\nTS rule.',
      'pkg/.cursor/rules/ts.mdc': '---\nglobs: "*.ts"\n---\nCursor TS rule.',
      'pkg/index.ts': 'export {};\n',
      'pkg/packages/core/src/v3/apps/exec.ts': 'export {};\n',
    });
    const catalog = await buildCatalog(root);
    const sel = catalog.contextualRules(undefined, ['pkg/packages/core/src/v3/apps/exec.ts'], new Set());
    const picked = sel.files.map((f) => f.file.relativePath);
    expect(picked).toEqual(expect.arrayContaining(['pkg/.claude/rules/apps.md', 'pkg/.claude/rules/ts.md']));
    expect(picked).not.toContain('pkg/.cursor/rules/ts.mdc');
    const findings = lintCatalog(catalog).findings;
    expect(findings.filter((f) => f.path?.startsWith('pkg/.claude/') && /pattern-matches-nothing|pattern-direct-children-only/.test(f.code))).toEqual([]);
    expect(findings.some((f) => f.path === 'pkg/.cursor/rules/ts.mdc' && f.code === 'pattern-direct-children-only')).toBe(true);
  });
});
