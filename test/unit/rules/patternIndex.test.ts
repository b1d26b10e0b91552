import { Minimatch } from 'minimatch';
import { describe, expect, it } from 'vitest';
import { compilePatterns, globTest, type PatternSemantics } from '../../../src/main/core/rules/patterns';
import { filesInScope, patternsMatchingNothing } from '../../../src/main/core/rules/patternStats';
import type { RuleFile } from '../../../src/main/core/rules/types';

/** Just what the pattern check reads of a rule file: scope and compiled patterns. */
function rule(scope: string, patterns: string[], semantics: PatternSemantics): RuleFile {
  const { compiled, invalid } = compilePatterns(patterns, 1, semantics);
  if (invalid) throw new Error(`invalid test pattern in ${patterns.join(', ')}`);
  return { scope, compiledPatterns: compiled, relativePath: `${scope ? `${scope}/` : ''}.claude/rules/r.md` } as unknown as RuleFile;
}

/** True when the pattern matches at least one workspace file in the scope (the per-pattern scan lint used to do). */
function matchesAny(pattern: RuleFile['compiledPatterns'][number], scope: string, workspaceFiles: readonly string[]): boolean {
  for (const rel of filesInScope(workspaceFiles, scope)) if (pattern.test(rel)) return true;
  return false;
}

/** The reference answer: one scan of the scope per pattern. */
function bruteForce(files: readonly RuleFile[], workspaceFiles: readonly string[]): Map<RuleFile, Set<string>> {
  const out = new Map<RuleFile, Set<string>>();
  for (const file of files) {
    const dead = file.compiledPatterns.filter((p) => !matchesAny(p, file.scope, workspaceFiles)).map((p) => p.pattern);
    if (dead.length) out.set(file, new Set(dead));
  }
  return out;
}

const TREE = [
  'README.md',
  'SRC',
  'Straße/Notes.MD',
  'docs/Guide.md',
  'docs/api/index.md',
  'packages/Api/src/Handler.TS',
  'packages/Api/src/handler.test.ts',
  'packages/api/src/a.ts',
  'packages/api/src/deep/er/b.tsx',
  'packages/api/tests/c.py',
  'packages/web/app.tsx',
  'packages/web/src/main.ts',
  'packages/web/src',
  'src/x.go',
  'tools/build',
  'ƙelvin/k.md',
  'ｆｕｌｌ/w.ts',
].sort();

const PATTERNS: Array<[string, string[]]> = [
  ['', ['**/*.ts', '*.md', 'src/**', 'SRC', 'src', 'nothing/**', '**/*.rs', 'docs/*.md', 'docs/API/**', 'packages/*/src/**/*.tsx']],
  ['', ['packages/{api,web}/src/*.ts', 'tools/build/**', 'tools/**', 'straße/**', 'Straße/*.md', '!**/*.ts', 'ƙelvin/**', 'ｆｕｌｌ/**']],
  ['packages', ['api/src/a.ts', 'Api/**', 'web/src', 'web/src/**', '*.tsx', 'web/*.tsx', '**/deep/**', 'api/tests/*.PY', 'zzz/**']],
  ['packages/api', ['src/**/*.tsx', 'tests/*.py', 'src/*.TS', '**/b.tsx', 'missing.ts', '**/er/**']],
  ['packages/Api', ['src/Handler.TS', 'src/handler.TS', '*.ts', 'SRC/**']],
  ['packages/web', ['src', 'src/', 'src/**', 'app.tsx', '*.TSX', 'other/**']],
  ['docs', ['*.md', 'api/', 'API/', 'Guide.MD', '**']],
  ['nowhere', ['**']],
];

describe('patternsMatchingNothing (one pass over the file list)', () => {
  for (const semantics of ['glob', 'gitignore', 'anywhere'] as const) {
    it(`gives the per-pattern scan's answer for ${semantics} patterns: case, folders named like files, non-ASCII paths`, () => {
      const files = PATTERNS.map(([scope, patterns]) => rule(scope, patterns, semantics));
      const expected = bruteForce(files, TREE);
      const actual = patternsMatchingNothing(files, TREE);
      expect(new Map([...actual].map(([f, s]) => [f.relativePath + JSON.stringify(f.compiledPatterns.map((p) => p.pattern)), [...s].sort()]))).toEqual(
        new Map([...expected].map(([f, s]) => [f.relativePath + JSON.stringify(f.compiledPatterns.map((p) => p.pattern)), [...s].sort()])),
      );
      // the check is not vacuous: some patterns match and some do not, in every semantics
      expect(expected.size).toBeGreaterThan(0);
      expect([...expected.values()].reduce((n, s) => n + s.size, 0)).toBeLessThan(PATTERNS.reduce((n, [, p]) => n + p.length, 0));
    });
  }

  it('agrees with the scan on every prefix of a generated tree (patterns matching early, late and never)', () => {
    const tree: string[] = [];
    for (let p = 0; p < 12; p++) for (let d = 0; d < 8; d++) for (let f = 0; f < 6; f++) tree.push(`packages/p${p}/${d % 2 ? 'Src' : 'src'}/d${d}/${d % 3 ? `f${f}.ts` : `F${f}.TSX`}`);
    tree.sort();
    const files = [
      rule('', ['packages/p11/src/d6/f5.ts', 'packages/p3/SRC/**', '**/*.tsx', 'packages/p0/src/d9/**'], 'gitignore'),
      rule('', ['packages/p11/src/d6/f5.ts', 'packages/p3/Src/**', '**/*.tsx', '**/f9.ts'], 'glob'),
      rule('packages/p7', ['src/**/*.ts', 'Src/d1/F0.TSX', 'src/d3/f0.ts'], 'anywhere'),
    ];
    for (const n of [0, 1, 50, 300, tree.length]) {
      const part = tree.slice(0, n);
      const actual = patternsMatchingNothing(files, part);
      const expected = bruteForce(files, part);
      for (const f of files) expect([...(actual.get(f) ?? [])].sort()).toEqual([...(expected.get(f) ?? [])].sort());
    }
  });
});

describe('compiled pattern tests (what lint, counts and selection call)', () => {
  const plain = [
    ...TREE,
    'a', 'a/b', 'a/b/c', 'a/x/b', 'a/x/b/y', 'a/b/x/b/z.ts', 'x/a/b', 'src', 'src/a.ts', 'src/a.ts/b', 'lib/src/x/y.ts', 'src/x/SRC/y/z',
    'packages/api/src/a.ts/inner/z', '.github/a.md', 'x/.hidden/src/a.ts', 'deep/er/b.tsx', 'Deep/ER/B.TSX', 'a/b/c/d/e/f/b/c',
  ];
  // paths no listing or canonical target has: globs with several globstars hand them to minimatch itself
  const odd = ['', '/', '/a/b', 'a//b', 'a/b/', './a/b', 'a/./b', 'a/../b', 'src/..', '.', '..', 'src//x.ts', '/src/a.ts'];
  const patterns = [
    '**/*.ts', '**/*.ts/**', 'a/**/b/**', '**/a/**', '**/b/**', 'a/**/b', '**/src/**/*.ts', '**/**/b', 'src/**', 'src/**/**',
    'packages/**/*.ts', 'packages/*/src/**', '**/deep/**', '**/er/**/*.tsx', '**/x/**/z', 'a/**/b/**/c/**', '**', '*', '**/*',
    'a/*/b/**', '**/.github/**', '**/.hidden/**', 'src', 'a/**b/**', '***/b/**', '**/**/**', 'a/**/**/b/**', '**/b/c/**',
  ];
  for (const semantics of ['glob', 'gitignore', 'anywhere'] as const) {
    it(`agree with minimatch's match for ${semantics} patterns, globstars anywhere`, () => {
      let matched = 0;
      let multi = 0;
      for (const pattern of patterns) {
        const { compiled, invalid } = compilePatterns([pattern], 1, semantics);
        expect(invalid, pattern).toBe(false);
        for (const alt of compiled[0].alternatives) {
          const mm = new Minimatch(alt.glob, { dot: true, nobrace: true, nocase: semantics !== 'glob' });
          // a glob with at most one globstar is minimatch's own makeRe RegExp, as it always was
          if ((alt.glob.match(/\*\*/g)?.length ?? 0) <= 1) continue;
          multi++;
          const fast = globTest(alt.glob, mm, semantics !== 'glob')!;
          for (const p of [...plain, ...odd]) {
            expect(fast(p), `${semantics} ${pattern} (${alt.glob}) on "${p}"`).toBe(mm.match(p));
            if (mm.match(p)) matched++;
          }
          // the pattern's own test (literal pre-checks, then this) agrees on every path a listing has
          for (const p of plain) expect(alt.test(p), `${semantics} ${pattern} (${alt.glob}) on "${p}"`).toBe(mm.match(p));
        }
      }
      expect(matched).toBeGreaterThan(50); // not vacuous
      expect(multi).toBeGreaterThan(8);
    });
  }
});
