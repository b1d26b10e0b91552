import { compilePatterns, patternSemanticsOf, readPatternValue } from './patterns';
import type { CompiledPattern, RuleFormat, RuleKind, RuleWarning } from './types';
import { warning } from './warnings';

/** Result of {@link resolveCondition}. */
export interface RuleCondition {
  kind: Exclude<RuleKind, 'unknown'>;
  /** `inert` for an explicitly empty list; `invalid` for a bad pattern or value type. */
  status: 'ok' | 'inert' | 'invalid';
  patterns: string[];
  compiled: CompiledPattern[];
  /** The key that made the file conditional (`paths`, `globs`, `applyTo`) or null. */
  conditionKey: string | null;
  warnings: RuleWarning[];
}

/**
 * Decides when a rule applies from its format and frontmatter:
 * - `paths` on any file makes it conditional;
 * - Cursor (cursor.com/docs/rules; the rule-type table of shared/reference/formats.md §3.1; a
 *   missing `alwaysApply` is false): `alwaysApply: true` → always (globs ignored); `globs` →
 *   conditional ("Apply to Specific Files"); else a non-empty `description` → agent-requested
 *   ("Apply Intelligently": offered to the agent by its description); else manual ("Apply
 *   Manually", only when @-mentioned);
 * - Copilot `.instructions.md`: `applyTo` → conditional (a YAML list is accepted with a warning,
 *   VS Code ignores it); none → manual;
 * - a list that is only `**` → always; an empty list → inert (warning); a bad pattern → invalid.
 * `lineOf` maps a top-level key to its 1-based line. Never throws.
 */
export function resolveCondition(format: RuleFormat, data: Readonly<Record<string, unknown>>, lineOf: (key: string) => number | null): RuleCondition {
  const warnings: RuleWarning[] = [];
  const has = (key: string) => Object.hasOwn(data, key);
  let key: string | null = null;
  let manualWhenNone = false;

  if (format === 'cursor') {
    const alwaysApply = data.alwaysApply;
    if (typeof alwaysApply === 'string') {
      warnings.push(warning('cursor-always-apply-string', 'warning', `alwaysApply is the string "${alwaysApply}", which Cursor treats as false.`, lineOf('alwaysApply'), `Write alwaysApply: ${alwaysApply.trim().toLowerCase() === 'true' ? 'true' : 'false'} without quotes.`));
    }
    if (alwaysApply === true) {
      if (has('globs') && data.globs !== null && data.globs !== '') {
        warnings.push(warning('cursor-globs-ignored', 'info', 'globs is ignored because alwaysApply is true.', lineOf('globs'), 'Remove globs, or set alwaysApply: false to make the rule conditional.'));
      }
      return { kind: 'always', status: 'ok', patterns: [], compiled: [], conditionKey: null, warnings };
    }
    key = has('paths') ? 'paths' : has('globs') && data.globs !== null ? 'globs' : null;
    manualWhenNone = true;
  } else if (format === 'copilot-instructions') {
    key = has('applyTo') && data.applyTo !== null ? 'applyTo' : has('paths') ? 'paths' : null;
    manualWhenNone = true;
    if (key === 'applyTo' && Array.isArray(data.applyTo)) {
      warnings.push(warning('apply-to-list', 'warning', 'applyTo is a YAML list; Atrium accepts it but VS Code ignores this form, so Copilot never applies the file automatically.', lineOf('applyTo'), `Write one string: applyTo: "${(data.applyTo as unknown[]).filter((v) => typeof v === 'string').join(',')}"`));
    }
  } else {
    key = has('paths') ? 'paths' : null;
  }

  if (key !== null && (data[key] === null || data[key] === undefined)) {
    warnings.push(warning('empty-key', 'warning', `${key} has no value, so it is ignored.`, lineOf(key), `Give ${key} a pattern such as "src/**", or delete the line.`));
    key = null;
  }
  if (key === null) {
    const described = typeof data.description === 'string' && data.description.trim() !== '';
    if (format === 'cursor' && described) return { kind: 'agent-requested', status: 'ok', patterns: [], compiled: [], conditionKey: null, warnings };
    return { kind: manualWhenNone ? 'manual' : 'always', status: 'ok', patterns: [], compiled: [], conditionKey: null, warnings };
  }

  const line = lineOf(key);
  const read = readPatternValue(key, data[key], line);
  warnings.push(...read.warnings);
  if (read.invalid) return { kind: 'conditional', status: 'invalid', patterns: [], compiled: [], conditionKey: key, warnings };
  if (read.patterns.length === 0) {
    // Claude Code 2.1.318 reads an empty paths list as no condition and loads the rule always; Atrium's catalog never loads it, so the two disagree and the file should say what it means.
    const message = format === 'claude-rules' ? `${key} is empty: Claude Code loads this rule always when it reads .claude/rules itself, while Atrium never loads it.` : `${key} is empty, so this file can never load.`;
    warnings.push(warning('empty-patterns', 'warning', message, line, `List at least one pattern, e.g. ${key}: "src/**", or remove ${key} to make the rule unconditional.`));
    return { kind: 'conditional', status: 'inert', patterns: [], compiled: [], conditionKey: key, warnings };
  }
  if (read.patterns.every((p) => p === '**')) {
    return { kind: 'always', status: 'ok', patterns: [], compiled: [], conditionKey: null, warnings };
  }
  const compiled = compilePatterns(read.patterns, line, patternSemanticsOf(format));
  warnings.push(...compiled.warnings);
  return {
    kind: 'conditional',
    status: compiled.invalid ? 'invalid' : 'ok',
    patterns: read.patterns,
    compiled: compiled.compiled,
    conditionKey: key,
    warnings,
  };
}
