import { Minimatch, minimatch } from 'minimatch';
import { RULE_LIMITS } from './limits';
import { hasHiddenControl } from '../formats/unicode';
import type { CompiledPattern, PatternAlternative, RuleWarning } from './types';
import { warning } from './warnings';

/**
 * Splits a pattern string on commas and newlines **outside braces** (formats.md
 * §5.9: `**\/*.{ts,tsx}` must stay one pattern). Items are trimmed; empties dropped.
 */
export function splitPatternString(value: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of value) {
    if (ch === '{') depth++;
    else if (ch === '}' && depth > 0) depth--;
    if ((ch === ',' || ch === '\n') && depth === 0) {
      out.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  out.push(current);
  return out.map((s) => s.trim()).filter(Boolean);
}

/** Result of {@link readPatternValue}: normalised patterns or a reason the value is unusable. */
export interface PatternValue {
  patterns: string[];
  /** The value was an explicitly empty list/string (`paths: []`, `paths: ""`). */
  explicitlyEmpty: boolean;
  warnings: RuleWarning[];
  /** The value had an unusable type (number, mapping…): the file is invalid. */
  invalid: boolean;
}

/**
 * Reads a `paths`/`globs`/`applyTo` value: a YAML list of strings, or a string split with
 * {@link splitPatternString}. Items: trimmed, `\` → `/` (with a note), a leading `./` removed
 * (with a note), de-duplicated in first-seen order. `line` is the key's 1-based line.
 */
export function readPatternValue(key: string, value: unknown, line: number | null): PatternValue {
  const warnings: RuleWarning[] = [];
  let items: string[];
  if (typeof value === 'string') {
    items = splitPatternString(value);
  } else if (Array.isArray(value)) {
    const bad = value.filter((v) => typeof v !== 'string');
    if (bad.length > 0) {
      return {
        patterns: [],
        explicitlyEmpty: false,
        invalid: true,
        warnings: [warning('pattern-type', 'error', `"${key}" must list strings; found ${JSON.stringify(bad[0])}.`, line, `Quote every item of "${key}", e.g. - "src/**/*.ts".`)],
      };
    }
    items = (value as string[]).flatMap((v) => (v.includes('\n') ? splitPatternString(v) : [v.trim()])).filter(Boolean);
  } else {
    return {
      patterns: [],
      explicitlyEmpty: false,
      invalid: true,
      warnings: [warning('pattern-type', 'error', `"${key}" must be a string or a list of strings, not ${value === null ? 'empty' : typeof value}.`, line, `Write ${key}: "src/**/*.ts" or a YAML list of quoted patterns.`)],
    };
  }
  const seen = new Set<string>();
  const patterns: string[] = [];
  for (let item of items) {
    if (item.includes('\\')) {
      warnings.push(warning('pattern-backslash', 'info', `Backslashes in "${item}" were read as "/" (patterns always use "/").`, line, `Write ${item.replace(/\\/g, '/')}`));
      item = item.replace(/\\/g, '/');
    }
    while (item.startsWith('./')) {
      warnings.push(warning('pattern-dot-slash', 'info', `The leading "./" of "${item}" was removed: patterns are relative to the rule's scope already.`, line, `Write ${item.slice(2)}`));
      item = item.slice(2);
    }
    if (item && !seen.has(item)) {
      seen.add(item);
      patterns.push(item);
    }
  }
  return { patterns, explicitlyEmpty: items.length === 0, warnings, invalid: false };
}

/**
 * How the tool that reads a rule matches its patterns against a path relative to the rule's scope:
 * - `glob`: minimatch (`dot: true`, braces expanded): `*.ts` only directly in the scope (Cursor,
 *   Blade, Atrium's default);
 * - `gitignore`: Claude Code 2.1.318's `paths` (the `ignore` package after one trailing `/**` is
 *   stripped): a pattern without a `/` (other than a trailing one) matches a name at any depth,
 *   one with a `/` is anchored at the scope, and a matched folder matches everything below it, so
 *   `apps/**` matches `packages/x/apps/a.ts` and `*.ts` matches at any depth; case is ignored
 *   (the package's default `ignorecase`, which Claude keeps);
 * - `anywhere`: VS Code Copilot's `applyTo` (`computeAutomaticInstructions.ts`): `**\/` is put in
 *   front and the path is compared ignoring case, so `src/**` matches `pkg/SRC/a.ts`.
 */
export type PatternSemantics = 'glob' | 'gitignore' | 'anywhere';

/** The semantics of the tool that reads files of `format` (see {@link PatternSemantics}). */
export function patternSemanticsOf(format: string): PatternSemantics {
  if (format === 'claude-rules') return 'gitignore';
  if (format === 'copilot-instructions') return 'anywhere';
  return 'glob';
}

/**
 * The minimatch globs equivalent to one brace-free pattern under `semantics` (their union matches
 * exactly the paths the tool's own matcher accepts; `test/unit/rules/patternSemantics.test.ts`
 * checks the gitignore case against the `ignore` package).
 */
export function equivalentGlobs(pattern: string, semantics: PatternSemantics): string[] {
  if (semantics === 'glob') return [pattern];
  if (semantics === 'anywhere') return [pattern.startsWith('**/') ? pattern : `**/${pattern}`];
  let p = pattern.endsWith('/**') ? pattern.slice(0, -3) : pattern;
  const dirOnly = p.endsWith('/');
  if (dirOnly) p = p.replace(/\/+$/, '');
  const anchored = p.includes('/');
  p = p.replace(/^\/+/, '');
  if (!p || p === '**') return ['**'];
  const base = anchored || p.startsWith('**/') ? p : `**/${p}`;
  // A folder-only pattern matches what is inside the folder, never a file of that name.
  return dirOnly ? [`${base}/**/*`] : [base, `${base}/**`];
}

/** Outcome of {@link compilePatterns}: compiled patterns, or errors that make the file invalid. */
export interface CompiledPatterns {
  compiled: CompiledPattern[];
  warnings: RuleWarning[];
  invalid: boolean;
}

/**
 * Validates and compiles patterns with minimatch (`dot: true`, braces expanded), each translated
 * to the globs of the reading tool's `semantics` ({@link equivalentGlobs}). A pattern that
 * is absolute, contains a `..` segment, is longer than 512 characters, expands to more than 256
 * brace alternatives, contains hidden controls or fails to compile makes the file invalid (one
 * error warning naming the pattern). A leading `!` or `#` gets a warning (lists are OR-ed, so a
 * negation matches almost everything; `#` is a comment that never matches).
 */
export function compilePatterns(patterns: readonly string[], line: number | null, semantics: PatternSemantics = 'glob'): CompiledPatterns {
  const warnings: RuleWarning[] = [];
  const compiled: CompiledPattern[] = [];
  let invalid = false;
  for (const pattern of patterns) {
    const problem = patternProblem(pattern);
    if (problem) {
      warnings.push(warning('pattern-invalid', 'error', `Pattern "${pattern}" ${problem.message}`, line, problem.fix));
      invalid = true;
      continue;
    }
    if (pattern.startsWith('!')) {
      warnings.push(warning('pattern-negated', 'warning', `Pattern "${pattern}" starts with "!": patterns in a list are alternatives, so a negation matches almost every file.`, line, 'Remove the "!" entry; list only the paths the rule is for.'));
    } else if (pattern.startsWith('#')) {
      warnings.push(warning('pattern-comment', 'warning', `Pattern "${pattern}" starts with "#", which glob engines read as a comment: it never matches.`, line, `Escape it as \\${pattern} or remove it.`));
    }
    const matcher = compileOne(pattern, semantics);
    if (!matcher) {
      warnings.push(warning('pattern-invalid', 'error', `Pattern "${pattern}" does not compile as a glob.`, line, 'Check brackets and braces; escape a literal "[" as "\\[".'));
      invalid = true;
      continue;
    }
    compiled.push(matcher);
  }
  return { compiled, warnings, invalid };
}

function patternProblem(pattern: string): { message: string; fix: string } | null {
  if (pattern.length > RULE_LIMITS.maxPatternLength) return { message: `is longer than ${RULE_LIMITS.maxPatternLength} characters.`, fix: 'Shorten it or split it into several patterns.' };
  if (hasHiddenControl(pattern)) return { message: 'contains hidden control characters.', fix: 'Retype the pattern without invisible characters.' };
  if (pattern.startsWith('/') || /^[A-Za-z]:\//.test(pattern) || pattern.startsWith('~')) {
    return { message: 'is absolute; patterns are relative to the rule\'s scope directory.', fix: `Write it relative to the scope, e.g. ${pattern.replace(/^([A-Za-z]:)?\/+|^~\/?/, '') || '**'}` };
  }
  if (pattern.split('/').includes('..')) return { message: 'contains a ".." segment; a rule cannot reach outside its scope.', fix: 'Move the rule file up to a folder that contains the target, or drop the pattern.' };
  let expansions: string[];
  try {
    expansions = minimatch.braceExpand(pattern);
  } catch {
    return { message: 'has unbalanced braces.', fix: 'Balance every "{" with "}".' };
  }
  if (expansions.length > RULE_LIMITS.maxBraceExpansions) return { message: `expands to ${expansions.length} alternatives (limit ${RULE_LIMITS.maxBraceExpansions}).`, fix: 'Use fewer brace groups.' };
  return null;
}

/** Compiled patterns are immutable, so identical patterns across rules and rebuilds share one. */
const compileCache = new Map<string, CompiledPattern | null>();
const COMPILE_CACHE_MAX = 10_000;

function compileOne(pattern: string, semantics: PatternSemantics): CompiledPattern | null {
  const key = `${semantics}\0${pattern}`;
  const cached = compileCache.get(key);
  if (cached !== undefined) return cached;
  const compiled = compileUncached(pattern, semantics);
  if (compileCache.size >= COMPILE_CACHE_MAX) compileCache.delete(compileCache.keys().next().value!);
  compileCache.set(key, compiled);
  return compiled;
}

function compileUncached(pattern: string, semantics: PatternSemantics): CompiledPattern | null {
  try {
    const alternatives: PatternAlternative[] = [];
    const nocase = semantics !== 'glob';
    for (const expanded of minimatch.braceExpand(pattern).flatMap((g) => equivalentGlobs(g, semantics))) {
      const { comment, negate } = globMarks(expanded);
      if (comment) continue;
      const matches = cachedGlobTest(expanded, lazyMinimatch(expanded, nocase), nocase);
      if (matches === null) return null;
      // The literal pre-checks compare case-sensitively, so a case-blind pattern has none.
      const prefix = nocase ? '' : literalPrefix(expanded);
      const suffix = nocase ? '' : literalSuffix(expanded);
      const bare = prefix.endsWith('/') ? prefix.slice(0, -1) : null;
      const needle = negate ? '' : literalNeedle(expanded);
      // a case-sensitive needle that the prefix or suffix check already covers is not searched again
      const search = nocase || prefix.includes(needle) || suffix.includes(needle) ? '' : needle;
      const test = (p: string): boolean => {
        if (!p.endsWith(suffix)) return false;
        if (!p.startsWith(prefix) && p !== bare) return false;
        if (search !== '' && !p.includes(search)) return false;
        return matches(p);
      };
      // minimatch reads `a//b` as `a/b`; the case-sensitive pre-check never did, the case-blind one must not start to.
      const foldedPrefix = nocase ? (literalPrefix(expanded).includes('//') ? '' : asciiFold(literalPrefix(expanded))) : prefix;
      const foldedSuffix = nocase ? asciiFold(literalSuffix(expanded)) : suffix;
      alternatives.push(Object.freeze({ glob: expanded, prefix, suffix, literal: !nocase && !negate && !GLOB_CHARS.test(expanded), caseInsensitive: nocase, foldedPrefix, foldedSuffix, needle: nocase ? asciiFold(needle) : needle, test }));
    }
    const test = (p: string): boolean => {
      for (const alt of alternatives) if (alt.test(p)) return true;
      return false;
    };
    return Object.freeze({ pattern, alternatives: Object.freeze(alternatives), test });
  } catch {
    return null;
  }
}

/**
 * The exact test minimatch 10.2.6 `match` makes for one brace-free glob (`dot: true`), as fast as
 * a compiled RegExp where that is safe; null when the glob does not compile. A glob with at most
 * one globstar uses `makeRe` (it agrees with `match`). With more globstars `makeRe` is wrong (it
 * drops a trailing `/**` after a second globstar: `a/**\/b/**` becomes /^a(…)b$/ and misses
 * `a/b/x`), and `match` costs about 20 µs a call, so such globs are split instead: a trailing
 * `/**` matches a path when the rest of the glob matches one of its proper folder prefixes, a
 * leading `**\/` when the rest matches the path or one of its tails after a `/`. That is what
 * `**` means to minimatch for a path without empty, `.` or `..` segments (every path a listing or
 * a canonical target has); any other path, a negated glob, two globstars in a row and a globstar
 * in the middle of a glob with another one go to `match` itself. `test/unit/rules/patternIndex.test.ts` compares the two.
 */
export function globTest(glob: string, mm: Minimatch, nocase: boolean): ((p: string) => boolean) | null {
  return cachedGlobTest(glob, () => mm, nocase);
}

/** {@link globTest} with the glob's Minimatch made only when needed (its parse is most of a compile). */
function cachedGlobTest(glob: string, mm: () => Minimatch, nocase: boolean): ((p: string) => boolean) | null {
  const key = `${nocase ? 'i' : 's'}${glob}`;
  const cached = testCache.get(key);
  if (cached !== undefined) return cached;
  const made = makeGlobTest(glob, mm, nocase);
  if (testCache.size >= COMPILE_CACHE_MAX) testCache.delete(testCache.keys().next().value!);
  testCache.set(key, made);
  return made;
}

/** A Minimatch of `glob` (`dot: true`, no brace expansion) made on first call, then the same one. */
function lazyMinimatch(glob: string, nocase: boolean): () => Minimatch {
  let made: Minimatch | null = null;
  return () => (made ??= new Minimatch(glob, { dot: true, nobrace: true, nocase }));
}

/**
 * What minimatch 10.2.6 reads from a glob's first characters without parsing it: a comment (it
 * starts with `#`) or a negation (an odd number of leading `!`), as its `make`/`parseNegate` decide
 * for our options (comments and negation on).
 */
function globMarks(glob: string): { comment: boolean; negate: boolean } {
  if (glob.charAt(0) === '#') return { comment: true, negate: false };
  let bangs = 0;
  while (glob.charAt(bangs) === '!') bangs++;
  return { comment: false, negate: bangs % 2 === 1 };
}

/**
 * Tests by glob and case: Claude's `paths` make `X` and `X/**` of every pattern, and `X/**` is
 * tested through `X`, so each is compiled once (tests are pure functions of the glob).
 */
const testCache = new Map<string, ((p: string) => boolean) | null>();

function makeGlobTest(glob: string, lazy: () => Minimatch, nocase: boolean): ((p: string) => boolean) | null {
  if (globMarks(glob).negate) return (p) => lazy().match(p);
  if ((glob.match(/\*\*/g)?.length ?? 0) <= 1) {
    const re = lazy().makeRe();
    return re === false ? null : (p) => re.test(p);
  }
  // minimatch reads `**/**` its own way (`src/**/**` matches `src`, `src/**` does not): left to it
  if (/(?:^|\/)\*\*\/\*\*(?:\/|$)/.test(glob)) return lazy().makeRe() === false ? null : (p) => lazy().match(p);
  const part = (rest: string) => {
    // (a rest starting with `!` or `#` is a negation or comment on its own: never taken from the cache)
    const marks = globMarks(rest);
    if (marks.negate || marks.comment) return null;
    return cachedGlobTest(rest, lazyMinimatch(rest, nocase), nocase);
  };
  // A glob whose head or tail compiles is the same glob with a globstar segment added, which always
  // compiles too (minimatch's makeRe fails only on an empty set), so the whole one's Minimatch is
  // made only for paths the split cannot take (see isPlainPath) or when neither part compiles.
  const mm = lazy;
  if (glob.endsWith('/**') && glob.length > 3) {
    const head = part(glob.slice(0, -3));
    if (head) {
      // every folder the head matches contains its literal piece (`.ts` of `**\/*.ts/**`)
      const needle = literalNeedle(glob.slice(0, -3));
      const folded = nocase ? asciiFold(needle) : needle;
      return (p) => {
        if (!isPlainPath(p)) return mm().match(p);
        const last = p.lastIndexOf('/');
        if (last <= 0) return false;
        if (folded !== '') {
          const dir = p.slice(0, last);
          if (nocase ? isAscii(dir) && !dir.toLowerCase().includes(folded) : !dir.includes(folded)) return false;
        }
        for (let i = p.indexOf('/'); i > 0; i = p.indexOf('/', i + 1)) if (head(p.slice(0, i))) return true;
        return false;
      };
    }
  } else if (glob.startsWith('**/') && glob.length > 3) {
    const tail = part(glob.slice(3));
    if (tail) {
      return (p) => {
        if (!isPlainPath(p)) return mm().match(p);
        if (tail(p)) return true;
        for (let i = p.indexOf('/'); i >= 0; i = p.indexOf('/', i + 1)) if (tail(p.slice(i + 1))) return true;
        return false;
      };
    }
  }
  if (lazy().makeRe() === false) return null;
  return (p) => lazy().match(p);
}

const ODD_SEGMENT = /(?:^|\/)\.{0,2}(?:\/|$)/;

/** A path without empty, `.` or `..` segments (no leading, trailing or doubled `/`). */
function isPlainPath(p: string): boolean {
  return !ODD_SEGMENT.test(p);
}

const GLOB_CHARS = /[*?[\]{}()!+@\\]/;

/** True when `text` holds a character minimatch may read as glob syntax (conservatively: `*?[]{}()!+@\\`). */
export function hasGlobChars(text: string): boolean {
  return GLOB_CHARS.test(text);
}

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * `text` in ASCII lower case, or '' when it holds a non-ASCII character. Between two ASCII strings
 * every case-blind comparison minimatch may use (a RegExp `i` flag with or without `u`,
 * `toLowerCase` on both sides) agrees with comparing their ASCII-lower-cased forms; with non-ASCII
 * characters they disagree (the Kelvin sign lower-cases to `k`, final sigma folds to sigma), so
 * no literal pre-check is derived then.
 */
export function asciiFold(text: string): string {
  return NON_ASCII.test(text) ? '' : text.toLowerCase();
}

/** True when `text` holds only ASCII characters. */
export function isAscii(text: string): boolean {
  return !NON_ASCII.test(text);
}

/** Literal directory prefix before the first glob character (only whole segments). */
export function literalPrefix(pattern: string): string {
  if (pattern.startsWith('!')) return '';
  const index = pattern.search(GLOB_CHARS);
  if (index < 0) return pattern;
  return pattern.slice(0, pattern.lastIndexOf('/', index) + 1);
}

/**
 * The longest literal piece every path matching the (brace-expanded, non-negated) glob contains: a
 * segment without glob characters (minimatch matches it as one whole path segment), or the part of
 * a segment before its first or after its last glob character. '' when there is none.
 */
function literalNeedle(glob: string): string {
  let best = '';
  for (const segment of glob.split('/')) {
    const first = segment.search(GLOB_CHARS);
    if (first < 0) {
      if (segment.length > best.length) best = segment;
      continue;
    }
    let last = first;
    for (let i = segment.length - 1; i > first; i--) {
      if (GLOB_CHARS.test(segment[i])) {
        last = i;
        break;
      }
    }
    const head = segment.slice(0, first);
    const tail = segment.slice(last + 1);
    if (head.length > best.length) best = head;
    if (tail.length > best.length) best = tail;
  }
  return best;
}

/** Literal tail of the last segment after its last `*` (e.g. `.ts` for `**\/*.ts`). */
function literalSuffix(pattern: string): string {
  if (pattern.startsWith('!')) return '';
  const last = pattern.slice(pattern.lastIndexOf('/') + 1);
  if (last === '**') return '';
  const star = last.lastIndexOf('*');
  const tail = star < 0 ? last : last.slice(star + 1);
  return GLOB_CHARS.test(tail) ? '' : tail;
}
