import { isAscii, literalPrefix } from './patterns';
import { lowerBound } from './sortedList';
import type { CompiledPattern, PatternAlternative, RuleFile } from './types';

/** Workspace files (root-relative, sorted) below a scope directory, as scope-relative paths. */
export function* filesInScope(workspaceFiles: readonly string[], scope: string): Generator<string> {
  if (scope === '') {
    yield* workspaceFiles;
    return;
  }
  const prefix = `${scope}/`;
  for (let i = lowerBound(workspaceFiles, prefix); i < workspaceFiles.length && workspaceFiles[i].startsWith(prefix); i++) {
    yield workspaceFiles[i].slice(prefix.length);
  }
}

/** How many workspace files one pattern matches in its rule's scope, with a few examples. */
export interface PatternMatchCount {
  pattern: string;
  /** Exact number of matching files (capped at `limit`, see `capped`). */
  matches: number;
  capped: boolean;
  /** Up to 5 matching paths, root-relative. */
  sample: string[];
}

/**
 * Counts the workspace files each of a rule's patterns matches, relative to the rule's scope
 * (the "matches N files here" of the Rules tab). `limit` caps the count per pattern
 * (default 100,000) so huge trees stay fast.
 */
export function countPatternMatches(file: RuleFile, workspaceFiles: readonly string[], limit = 100_000): PatternMatchCount[] {
  return file.compiledPatterns.map((p) => countOne(p, file.scope, workspaceFiles, limit));
}

function countOne(pattern: CompiledPattern, scope: string, workspaceFiles: readonly string[], limit: number): PatternMatchCount {
  let matches = 0;
  const sample: string[] = [];
  for (const rel of filesInScope(workspaceFiles, scope)) {
    if (!pattern.test(rel)) continue;
    matches++;
    if (sample.length < 5) sample.push(scope ? `${scope}/${rel}` : rel);
    if (matches >= limit) return { pattern: pattern.pattern, matches, capped: true, sample };
  }
  return { pattern: pattern.pattern, matches, capped: false, sample };
}

/** One distinct (scope, expanded glob) of the patterns being checked. */
interface Unit {
  /** `scope/`, or '' for the root. */
  readonly scopePrefix: string;
  readonly alt: PatternAlternative;
  /** The (scope, pattern) pairs with this alternative. */
  readonly owners: Owner[];
  /** True once testing it can change nothing: every owner is settled, or no file can match it. */
  done: boolean;
}

/** One distinct (scope, pattern): it matches something as soon as one of its units does. */
interface Owner {
  readonly pattern: CompiledPattern;
  readonly units: Unit[];
  matched: boolean;
  /** Matched, or every unit is done without a match. */
  settled: boolean;
}

/** Files of a unit's likely range tried before its whole scope is (unless the range is all it can match). */
const PROBE_FILES = 256;

/**
 * The patterns (as written) of each file that match no workspace file in the file's scope: for
 * every file of `files` and each of its compiled patterns, the same answer as testing the pattern
 * against every file of {@link filesInScope} (each pattern's own `test` decides every match),
 * without scanning the scope once per pattern.
 *
 * Every brace alternative becomes a unit; identical (scope, glob) pairs share one, identical
 * (scope, pattern) pairs one answer, and a pattern is settled by its first matching alternative.
 * First each unit tries its likely range of the sorted list (binary search): the files below the
 * scope and the glob's literal folder as written (`packages/api/` of `packages/api/**`, also after
 * a leading `**\/`), up to {@link PROBE_FILES} files. Patterns usually name a folder that exists
 * and match within a few files there. For a case-sensitive glob without a leading `**\/` that
 * range is every file it can match, so it is scanned whole and settles the unit either way. The
 * units still open (patterns that match nothing, or only in another case or place) then scan
 * their scope, with cheap literal checks first: the alternative's own prefix, suffix and needle,
 * compared in ASCII lower case for case-blind alternatives (Claude's `paths`, Copilot's
 * `applyTo`; never for a path with a non-ASCII character, see `asciiFold` in patterns.ts).
 * Files without an entry in the result have every pattern matching.
 */
export function patternsMatchingNothing(files: readonly RuleFile[], workspaceFiles: readonly string[]): Map<RuleFile, Set<string>> {
  const units = new Map<string, Unit>();
  const owners = new Map<string, Owner>();
  const byFile: Array<{ file: RuleFile; owners: Owner[] }> = [];
  for (const file of files) {
    const scopePrefix = file.scope ? `${file.scope}/` : '';
    const own: Owner[] = [];
    for (const pattern of file.compiledPatterns) {
      const ownerKey = `${scopePrefix}\0${pattern.alternatives.map((a) => `${a.caseInsensitive ? 'i' : 's'}${a.glob}`).join('\0')}`;
      let owner = owners.get(ownerKey);
      if (!owner) {
        owners.set(ownerKey, (owner = { pattern, units: [], matched: false, settled: false }));
        for (const alt of pattern.alternatives) {
          const key = `${scopePrefix}\0${alt.caseInsensitive ? 'i' : 's'}${alt.glob}`;
          let unit = units.get(key);
          if (!unit) units.set(key, (unit = { scopePrefix, alt, owners: [], done: false }));
          unit.owners.push(owner);
          owner.units.push(unit);
        }
      }
      own.push(owner);
    }
    byFile.push({ file, owners: own });
  }
  // Tests one path of the unit's scope; true when it matched (the unit's owners are settled then).
  const test = (unit: Unit, path: string): boolean => {
    if (!unit.alt.test(unit.scopePrefix === '' ? path : path.slice(unit.scopePrefix.length))) return false;
    for (const owner of unit.owners) {
      if (owner.settled) continue;
      owner.settled = owner.matched = true;
      // the pattern's other alternatives are done too once none of their patterns is still open
      for (const u of owner.units) if (!u.done && u.owners.every((o) => o.settled)) u.done = true;
    }
    return true;
  };
  // No file can match the unit: its patterns are settled (unmatched) once all their units are done.
  const exhaust = (unit: Unit) => {
    unit.done = true;
    for (const owner of unit.owners) if (!owner.settled && owner.units.every((u) => u.done)) owner.settled = true;
  };
  const inRange = (from: string, i: number) => i < workspaceFiles.length && (from === '' || workspaceFiles[i].startsWith(from));

  for (const unit of units.values()) {
    if (unit.done) continue;
    const written = literalPrefix(unit.alt.glob.replace(/^(\*\*\/)+/, ''));
    const from = unit.scopePrefix + written;
    const whole = !unit.alt.caseInsensitive && written === unit.alt.prefix;
    if (written.endsWith('/')) {
      const bare = from.slice(0, -1); // `src/**` matches a file named `src`
      if (workspaceFiles[lowerBound(workspaceFiles, bare)] === bare && test(unit, bare)) continue;
    }
    let found = false;
    for (let i = lowerBound(workspaceFiles, from), probed = 0; inRange(from, i) && (whole || probed < PROBE_FILES); i++, probed++) {
      if ((found = test(unit, workspaceFiles[i]))) break;
    }
    if (!found && whole && !unit.done) exhaust(unit);
  }

  // the units still open, by scope: each scope is scanned once for all of them
  const open = new Map<string, Unit[]>();
  for (const unit of units.values()) {
    if (unit.done) continue;
    const list = open.get(unit.scopePrefix);
    if (list) list.push(unit);
    else open.set(unit.scopePrefix, [unit]);
  }
  let folded: string[] | null = null; // ASCII-lower-cased paths, '' for a path with a non-ASCII character
  for (const [scopePrefix, list] of open) {
    if (list.some((u) => u.alt.caseInsensitive)) folded ??= workspaceFiles.map((p) => (isAscii(p) ? p.toLowerCase() : ''));
    const skip = scopePrefix.length;
    let live = list;
    for (let i = scopePrefix === '' ? 0 : lowerBound(workspaceFiles, scopePrefix); live.length > 0 && inRange(scopePrefix, i); i++) {
      const path = workspaceFiles[i];
      const f = folded === null ? '' : folded[i];
      let finished = false;
      for (const unit of live) {
        if (unit.done) {
          finished = true;
          continue;
        }
        const alt = unit.alt;
        // a case-blind alternative's own literal checks, on the scope-relative path in lower case
        if (alt.caseInsensitive && f !== '' && (!f.endsWith(alt.foldedSuffix) || !f.includes(alt.needle, skip) || !(f.startsWith(alt.foldedPrefix, skip) || (alt.foldedPrefix.endsWith('/') && f.length - skip === alt.foldedPrefix.length - 1 && alt.foldedPrefix.startsWith(f.slice(skip)))))) continue;
        if (test(unit, path)) finished = true;
      }
      if (finished) live = live.filter((u) => !u.done);
    }
    for (const unit of list) if (!unit.done) exhaust(unit);
  }

  const out = new Map<RuleFile, Set<string>>();
  for (const { file, owners: own } of byFile) {
    for (const owner of own) {
      if (owner.matched) continue;
      let dead = out.get(file);
      if (!dead) out.set(file, (dead = new Set()));
      dead.add(owner.pattern.pattern);
    }
  }
  return out;
}

/** 1-based line of a top-level frontmatter key in a rule's text, or null. */
export function frontmatterKeyLine(file: RuleFile, key: string | null): number | null {
  if (!key || !file.text || !file.frontmatter) return null;
  const lines = file.text.split('\n');
  const end = Math.min(lines.length, file.bodyLine - 1);
  for (let i = 1; i < end; i++) {
    if (new RegExp(`^${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[ \\t]*:`).test(lines[i])) return i + 1;
  }
  return null;
}
