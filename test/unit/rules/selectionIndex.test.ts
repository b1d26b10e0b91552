import { describe, expect, it } from 'vitest';
import { compilePatterns, type PatternSemantics } from '../../../src/main/core/rules/patterns';
import { scopeContains } from '../../../src/main/core/rules/paths';
import { buildSelection } from '../../../src/main/core/rules/render';
import { SelectionIndex } from '../../../src/main/core/rules/select';
import { plainNameTest } from '../../../src/main/core/rules/scopeMatcher';
import { Minimatch } from 'minimatch';
import type { RuleFile, SelectedRule } from '../../../src/main/core/rules/types';

/** Deterministic PRNG (mulberry32), so a failure names a seed that reproduces it. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEMANTICS: PatternSemantics[] = ['glob', 'gitignore', 'anywhere'];
const DIRS = ['packages', 'Packages', 'api', 'API', 'src', 'web', 'docs', '.github', 'a.b', 'deep', 'er', 'Straße', 'tools', 'x'];
const NAMES = ['a.ts', 'b.TS', 'c.tsx', 'index.md', 'README.md', 'Makefile', '.eslintrc', '.ts', 'x.test.ts', 'y.d.ts', 'z.py', 'w.Md', 'Dockerfile', 'k.rs', 'ƙ.md', 'src', 'api', 'e.'];
const PATTERN_PARTS = [
  '**/*.ts', '**/*.{ts,tsx}', '*.md', '**/*.MD', 'src/**', 'src', 'src/', 'packages/**/*.ts', 'packages/*/src/**', 'packages/api/**',
  'api/*.ts', '**/README.md', 'README.md', 'Makefile', '**/Makefile', '**/.eslintrc', '.github/**', 'a.b/**/*.py', '**/deep/**', 'deep/er/*.t?',
  '*', '**', '**/*', '*.ts', '**/x.*', '**/*.test.ts', '**/er/**/*.rs', 'docs/**/*.{md,Md}', 'Straße/**', 'straße/*.md', '!**/*.ts', '**/src/**/*.tsx',
  'packages/[ab]pi/**', '**/*.@(ts|py)', 'web/src/**/**', '**/*.', 'tools/**/index.md', '**/API/*.ts', 'x/**/*.rs/**', '*/*/*.ts', '**/?.py', 'packages/*.md',
];

interface FakeRule {
  file: RuleFile;
}

/** Just what selection reads of a rule file. */
function rule(order: number, scope: string, kind: 'always' | 'conditional', patterns: string[], semantics: PatternSemantics): FakeRule {
  const { compiled, invalid } = compilePatterns(patterns, 1, semantics);
  if (invalid) throw new Error(`invalid test pattern in ${patterns.join(', ')}`);
  const file = { id: `r${order}`, order, scope, kind, status: 'active', source: 'project', patterns: compiled.map((c) => c.pattern), compiledPatterns: compiled, relativePath: `${scope ? `${scope}/` : ''}r${order}.md` } as unknown as RuleFile;
  return { file };
}

/** The reference: every file, every pattern, in order (seed §4.5 as written). */
function reference(files: readonly RuleFile[], fromRel: string, triggers: readonly string[], loaded: ReadonlySet<string>): SelectedRule[] {
  const picked = new Map<RuleFile, SelectedRule>();
  for (const trigger of triggers) {
    for (const file of files) {
      if (picked.has(file) || loaded.has(file.id) || !scopeContains(file.scope, trigger)) continue;
      if (file.kind === 'always') {
        if (!scopeContains(file.scope, fromRel)) picked.set(file, { file, reason: 'nested-scope', matchedPattern: null, triggerPath: trigger });
        continue;
      }
      const inScope = file.scope === '' ? trigger : trigger.slice(file.scope.length + 1);
      if (inScope === '') continue;
      const index = file.compiledPatterns.findIndex((p) => p.test(inScope));
      if (index >= 0) picked.set(file, { file, reason: 'pattern-match', matchedPattern: file.patterns[index], triggerPath: trigger });
    }
  }
  return [...picked.values()].sort((a, b) => a.file.order - b.file.order);
}

const summary = (xs: SelectedRule[]) => xs.map((s) => `${s.file.id} ${s.reason} ${s.matchedPattern} ${s.triggerPath}`);

describe('SelectionIndex agrees with matching every pattern of every file', () => {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]) {
    it(`random catalogs and paths (seed ${seed})`, () => {
      const rnd = prng(seed);
      const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
      const randomPath = (min: number) => {
        const depth = min + Math.floor(rnd() * 5);
        const segs: string[] = [];
        for (let i = 0; i < depth; i++) segs.push(rnd() < 0.15 ? pick(DIRS).toLowerCase() : pick(DIRS));
        return [...segs, pick(NAMES)].join('/');
      };
      const scopes = ['', '', '', 'packages', 'packages/api', 'Packages', 'src'];
      const files: RuleFile[] = [];
      // enough distinct globs per scope that the root scope is indexed rather than scanned
      for (let i = 0; i < 90; i++) {
        const scope = pick(scopes);
        const kind = rnd() < 0.1 ? 'always' : 'conditional';
        const patterns = new Set<string>();
        const count = 1 + Math.floor(rnd() * 3);
        for (let p = 0; p < count; p++) patterns.add(rnd() < 0.2 ? randomPath(0).replace(/\/[^/]*$/, `/${pick(['**', '*.ts', '*.md', pick(NAMES)])}`) : pick(PATTERN_PARTS));
        files.push(rule(i, scope, kind, [...patterns], pick(SEMANTICS)).file);
      }
      const index = new SelectionIndex(files);
      // paths share folders, so folder plans are reused and built from different first names
      const paths: string[] = [];
      for (let i = 0; i < 400; i++) paths.push(randomPath(0));
      for (let i = 0; i < 400; i++) paths.push(pick(paths).replace(/[^/]*$/, pick(NAMES)));
      paths.push('packages', 'src', 'packages/api', 'packages/api/src', 'a/b/c/d/e/f/g/h.ts', 'Straße/x.md', 'straße/ƙ.md', 'src//a.ts', 'src/./a.ts', 'src/../a.ts');
      for (const from of ['', 'packages', 'src/web']) {
        for (const p of paths) {
          const loaded = rnd() < 0.1 ? new Set([`r${Math.floor(rnd() * 90)}`]) : new Set<string>();
          expect(summary(index.contextualCandidates(from, [p], loaded)), `${p} from "${from}"`).toEqual(summary(reference(files, from, [p], loaded)));
        }
      }
      for (let i = 0; i < 100; i++) {
        const triggers = [...new Set([pick(paths), pick(paths), pick(paths)])].sort();
        expect(summary(index.contextualCandidates('', triggers, new Set())), triggers.join(' ')).toEqual(summary(reference(files, '', triggers, new Set())));
      }
    });
  }
});

describe('buildSelection measures the content part by part', () => {
  it('gives the UTF-8 byte length of the whole content, lone surrogates and non-ASCII included', () => {
    const bodies = ['plain', 'Straße ✓ 😀', '\uD800 lone high', 'lone low \uDC00', '\uDBFF', '\uDC00'];
    const files = bodies.map((content, i) => ({ id: `f${i}`, order: i, kind: i % 2 ? 'conditional' : 'always', source: 'project', sha256: 'ab'.repeat(32), relativePath: `dir ${i}/ü"&.md`, content, bodyBytes: Buffer.byteLength(content) }) as unknown as RuleFile);
    for (let n = 0; n <= files.length; n++) {
      const kept = files.slice(0, n).map((file) => ({ file, reason: 'pattern-match' as const, matchedPattern: '**', triggerPath: 'x\uD800' }));
      const selection = buildSelection('contextual-project-instructions', kept, { triggerPaths: ['x\uD800', 'ü/\uDC00'], maxBytes: null });
      expect(selection.contentBytes).toBe(Buffer.byteLength(selection.content, 'utf8'));
    }
  });
});

describe('plainNameTest', () => {
  const segments = ['*.ts', '*.TS', '*.d.ts', '*x', '*.', '*..', '*-a_b', 'index.md', 'README.md', '.eslintrc', 'Makefile', 'a.b.c', '*', '*.t?', '?.md', '[ab].md', 'Straße.md', '*ß'];
  const names = ['a.ts', 'A.TS', '.ts', '..ts', 'x.ts.bak', 'ts', 'b.d.ts', 'B.D.TS', 'x', 'X', 'ax', 'a.', 'a..', '...', 'a-A_B', 'index.md', 'INDEX.MD', 'readme.md', 'README.md', '.eslintrc', '.ESLINTRC', 'makefile', 'Makefile', 'a.b.c', 'A.B.C', 'a-b.c', 'q.md', '.md', 'indexmd'];
  for (const nocase of [false, true]) {
    it(`agrees with minimatch on plain ASCII names (${nocase ? 'case-blind' : 'case-sensitive'})`, () => {
      for (const segment of segments) {
        const fast = plainNameTest(segment, nocase);
        const re = new Minimatch(segment, { dot: true, nobrace: true, nocase }).makeRe();
        if (!fast) continue;
        expect(re, segment).not.toBe(false);
        for (const name of names) expect(fast(name), `${segment} ${name}`).toBe((re as RegExp).test(name));
      }
      expect(segments.filter((s) => plainNameTest(s, nocase) !== null)).toEqual(['*.ts', '*.TS', '*.d.ts', '*x', '*.', '*..', '*-a_b', 'index.md', 'README.md', '.eslintrc', 'Makefile', 'a.b.c']);
    });
  }
});
