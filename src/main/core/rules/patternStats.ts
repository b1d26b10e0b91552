import { lowerBound } from './sortedList';
import type { CompiledPattern, RuleFile } from './types';

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

/** True when the pattern matches at least one workspace file in the scope (stops at the first). */
export function matchesAny(pattern: CompiledPattern, scope: string, workspaceFiles: readonly string[]): boolean {
  for (const rel of filesInScope(workspaceFiles, scope)) if (pattern.test(rel)) return true;
  return false;
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
