import type { RuleSeverity, RuleWarning } from './types';

/** Builds a frozen {@link RuleWarning}. `line` is 1-based in the file, or null. */
export function warning(code: string, severity: RuleSeverity, message: string, line: number | null = null, fix: string | null = null): RuleWarning {
  return Object.freeze({ code, severity, message, line, fix });
}

/** True when any warning is an error (the file is invalid, or it hides text from a reader: `hidden-characters`). */
export function hasError(warnings: readonly RuleWarning[]): boolean {
  return warnings.some((w) => w.severity === 'error');
}
