/** Numeric limits of the rule catalog, in one place (seed "Numbers at a glance"). */
export const RULE_LIMITS = {
  /** Files larger than this (bytes on disk) are `invalid` and never read. */
  maxFileBytes: 1024 * 1024,
  /** Default budget of `staticRules`, body bytes (seed §4.5). */
  staticBudgetBytes: 48 * 1024,
  /** Default budget of `contextualRules`, body bytes (seed §4.5). */
  contextualBudgetBytes: 32 * 1024,
  /** Maximum `@import` depth. */
  maxImportDepth: 5,
  /** Maximum directory depth below the catalog root. */
  maxDepth: 32,
  /** Above this many rule files the catalog carries a warning (never fails; the seed threw at 128). */
  manyFilesWarning: 1000,
  /** Longest accepted pattern, characters (guards the regex engine against hostile patterns). */
  maxPatternLength: 512,
  /** Most brace expansions one pattern may produce. */
  maxBraceExpansions: 256,
  /** Codex `project_doc_max_bytes` default (formats.md §1.2). */
  codexBudgetBytes: 32 * 1024,
  /** Claude Code skips memory files above this size (formats.md §2.1). */
  claudeSkipBytes: 4 * 1024 * 1024,
  /** Claude Code warns above this many characters (formats.md §2.1, 2025 builds). */
  claudeWarnChars: 40_000,
} as const;
