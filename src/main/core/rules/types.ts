/**
 * Shapes of the project rule catalog (seed §4). Everything a catalog hands out is
 * deeply frozen: a snapshot taken by a session never changes, whatever happens on disk later.
 */

/** Instruction file format, one per row of the discovery table (`classify.ts`). */
export type RuleFormat =
  | 'copilot'
  | 'cursor-legacy'
  | 'claude'
  | 'gemini'
  | 'agents'
  | 'agents-override'
  | 'blade'
  | 'copilot-instructions'
  | 'cursor'
  | 'claude-rules'
  | 'blade-rules'
  | 'claude-local';

/** Where a file comes from: the repository, the user's personal untracked file, or the home directory. */
export type RuleSource = 'project' | 'local' | 'user';

/**
 * When a rule applies. `always` = loaded for every session whose start folder is inside its scope;
 * `conditional` = loaded when a target path matches one of its patterns; `manual` = listed, never
 * auto-loaded (Cursor rule without `alwaysApply`/`globs`/`description`, Copilot file without
 * `applyTo`); `agent-requested` = a Cursor rule with a `description`, no `globs` and no
 * `alwaysApply: true` ("Apply Intelligently", cursor.com/docs/rules, formats.md §3.1): Cursor lists its
 * description to the agent, which reads the rule when it judges it relevant; Atrium lists it
 * (status `manual`) and never loads it automatically; `unknown` = not read because the folder is
 * not trusted (restricted mode, names only).
 */
export type RuleKind = 'always' | 'conditional' | 'manual' | 'agent-requested' | 'unknown';

/**
 * `active` = selectable; `overridden` = hidden by `AGENTS.override.md` in the same folder;
 * `inert` = empty body or `paths: []`; `invalid` = rejected (reason in warnings); `manual` = see
 * {@link RuleKind}; `restricted` = project file in an untrusted folder, listed by name only.
 */
export type RuleStatus = 'active' | 'overridden' | 'inert' | 'invalid' | 'manual' | 'restricted';

/**
 * Severity of a finding: `error` = the file is invalid, or (`hidden-characters`) it loads but hides
 * text from a reader; `warning` needs a fix; `info` is a note.
 */
export type RuleSeverity = 'error' | 'warning' | 'info';

/** One finding about one file: what happened, where (1-based line or null) and how to fix it. */
export interface RuleWarning {
  readonly code: string;
  readonly severity: RuleSeverity;
  readonly message: string;
  readonly line: number | null;
  readonly fix: string | null;
}

/** A finding with the file it is about (catalog-level and lint lists). */
export interface RuleFinding extends RuleWarning {
  /** Display path of the file (root-relative, `~/…` for user files) or null for the catalog itself. */
  readonly path: string | null;
}

/** Result of classifying a path: format, source, scope directory and same-depth priority. */
export interface RuleClassification {
  readonly format: RuleFormat;
  readonly source: RuleSource;
  /** Root-relative POSIX scope directory ('' = catalog root). */
  readonly scope: string;
  readonly priority: number;
}

/** One `@import` expanded into a rule, with its own digest. */
export interface RuleImport {
  /** Display path: root-relative, or `~/…` under the home directory. */
  readonly path: string;
  /** SHA-256 hex of the imported file's normalised, trimmed text (its own imports not expanded). */
  readonly sha256: string;
  /** 1 = imported by the rule itself, 2 = by an imported file, … (≤ 5). */
  readonly depth: number;
  /** Display path of the importing file. */
  readonly from: string;
  /** 1-based line of the `@token` in the importing file. */
  readonly line: number;
}

/** One brace expansion of a pattern, with cheap literal pre-checks (used by the selection index). */
export interface PatternAlternative {
  /** The expanded glob. */
  readonly glob: string;
  /** Literal directory prefix every match starts with ('' when none). */
  readonly prefix: string;
  /** Literal tail every match ends with ('' when none). */
  readonly suffix: string;
  /** True when the glob has no glob characters at all. */
  readonly literal: boolean;
  /** True when the reading tool compares paths ignoring case (Claude's `paths`, Copilot's `applyTo`). */
  readonly caseInsensitive: boolean;
  /**
   * Case-insensitive alternatives: the literal directory prefix (as {@link prefix} would be) in ASCII
   * lower case, '' when it holds a non-ASCII character. A path made only of ASCII characters can
   * match only if its ASCII-lower-cased form starts with it (or equals it without its trailing `/`).
   * Case-sensitive alternatives: {@link prefix}.
   */
  readonly foldedPrefix: string;
  /** Like {@link foldedPrefix}, for the literal tail ({@link suffix}). */
  readonly foldedSuffix: string;
  /**
   * The longest literal piece of the glob (a segment without glob characters, or the literal start
   * or end of one) that every matching path contains: as written for case-sensitive alternatives,
   * in ASCII lower case for case-insensitive ones ('' when there is none, or it is not ASCII).
   */
  readonly needle: string;
  /** Tests a scope-relative POSIX path. */
  test(scopeRelativePath: string): boolean;
}

/** A compiled `paths`/`globs`/`applyTo` pattern (minimatch, `dot: true`, braces expanded). */
export interface CompiledPattern {
  /** The normalised pattern as written (after trim, `\` → `/`, leading `./` removed). */
  readonly pattern: string;
  readonly alternatives: readonly PatternAlternative[];
  /** Tests a path relative to the rule's scope directory (POSIX): any alternative matches. */
  test(scopeRelativePath: string): boolean;
}

/** Frontmatter as read from the file. */
export interface RuleFrontmatter {
  /** The YAML text between the fences. */
  readonly raw: string;
  /** Parsed mapping (after tolerant repair, see warnings); `{}` when unusable. */
  readonly data: Readonly<Record<string, unknown>>;
  /** How it was read: strict YAML, YAML after quoting bad values, or line by line. */
  readonly mode: 'yaml' | 'repaired' | 'lines';
}

/**
 * One catalog entry (frozen). `sha256`/`content` are null when the file could not be read (too
 * large, binary, escaping symlink, restricted mode).
 */
export interface RuleFile {
  /** `<source>:` + first 20 hex of SHA-256(relativePath). */
  readonly id: string;
  /** Root-relative POSIX path; user files as `~/.claude/CLAUDE.md`. */
  readonly relativePath: string;
  readonly absolutePath: string;
  readonly format: RuleFormat;
  readonly source: RuleSource;
  readonly kind: RuleKind;
  readonly status: RuleStatus;
  /** Root-relative scope directory ('' = root; user files are scoped to the root). */
  readonly scope: string;
  readonly priority: number;
  /** Normalised patterns (empty for unconditional/manual files). */
  readonly patterns: readonly string[];
  readonly compiledPatterns: readonly CompiledPattern[];
  /** Which frontmatter key made it conditional (`paths`, `globs`, `applyTo`) or null. */
  readonly conditionKey: string | null;
  /** `description` frontmatter, if a string. */
  readonly description: string | null;
  /** Size of the file on disk in bytes (after following a symlink). */
  readonly bytes: number;
  /** UTF-8 bytes of `content`: what the selection budget counts (0 when unread). */
  readonly bodyBytes: number;
  /** SHA-256 of JSON `{"relativePath","patterns","content"}`, or null when unread. */
  readonly sha256: string | null;
  /** Normalised file text (BOM stripped, LF), or null when unread. */
  readonly text: string | null;
  readonly frontmatter: RuleFrontmatter | null;
  /** Trimmed body without imports expanded, or null when unread. */
  readonly body: string | null;
  /** Trimmed body with imports expanded: what gets rendered and hashed. */
  readonly content: string | null;
  /** 1-based line where the body starts in the file. */
  readonly bodyLine: number;
  readonly imports: readonly RuleImport[];
  /** For a symlink: where it points (root-relative when inside the root), else null. */
  readonly linkTarget: string | null;
  /** Canonical path of the file read (realpath), for duplicate detection. */
  readonly realPath: string | null;
  /**
   * Root-relative folder of the nested git repository, submodule or worktree the file lies in
   * (the innermost one), or null when it belongs to the catalog root's own repository (or folder).
   * Agents that stop at a `.git` start their scope chain there.
   */
  readonly nestedRoot: string | null;
  readonly warnings: readonly RuleWarning[];
  /** Position in catalog order (0-based). */
  readonly order: number;
}

/** A rule reference carried by sessions (seed §4.5 references; `sha256` = the seed's contentSha256). */
export interface RuleReference {
  readonly id: string;
  readonly relativePath: string;
  readonly source: RuleSource;
  readonly sha256: string;
}

/** Why a file was selected, dropped or skipped by a selection. */
export type SelectionReason =
  | 'user'
  | 'scope-contains-start'
  | 'pattern-match'
  | 'nested-scope'
  | 'hydrated'
  | 'budget'
  | 'loaded'
  | 'no-pattern-match'
  | 'out-of-scope'
  | 'already-static'
  | 'manual'
  | 'overridden'
  | 'inert'
  | 'invalid'
  | 'restricted'
  | 'same-file';

/** One selected file with the reason it was chosen. */
export interface SelectedRule {
  readonly file: RuleFile;
  readonly reason: SelectionReason;
  /** For `pattern-match`: the pattern (as written) that matched first. */
  readonly matchedPattern: string | null;
  /** For contextual selections: the first trigger path (root-relative) that selected it. */
  readonly triggerPath: string | null;
}

/** A file not selected, with why (budget drops and, for explanations, everything else). */
export interface UnselectedRule {
  readonly file: RuleFile;
  readonly reason: SelectionReason;
  readonly detail: string;
  /**
   * For reason `same-file`: relative path of the selected (or already loaded) file whose text this
   * one is, so it is loaded once. Absent otherwise.
   */
  readonly sameAs?: string;
}

/** Result of `staticRules`/`contextualRules`/`hydrate` (seed §4.5 resolution object, extended). */
export interface RuleSelection {
  /** Rendered text (empty string when nothing is selected). */
  readonly content: string;
  /** Kept files in catalog order. */
  readonly files: readonly SelectedRule[];
  readonly references: readonly RuleReference[];
  /** Root-relative, unique, sorted (contextual only). */
  readonly triggerPaths: readonly string[];
  /** UTF-8 bytes of `content`. */
  readonly contentBytes: number;
  /** Sum of kept files' body bytes (what the budget counts). */
  readonly bodyBytes: number;
  /** The byte budget applied (null for hydrate: no budget). */
  readonly maxBytes: number | null;
  /** SHA-256 over `"<id>:<sha256>"` lines of the kept files (SHA-256 of "" when none). */
  readonly provenanceSha256: string;
  /** Files that matched but did not fit the budget (reason `budget`). */
  readonly dropped: readonly UnselectedRule[];
  /**
   * Files that matched but are the same text as a kept or already loaded file (reason `same-file`,
   * `sameAs` set): a symlink to it, or a file that only imports it, or a file another selected
   * file imports. Collapsed before budgeting, so they cost nothing and are not rendered.
   */
  readonly collapsed: readonly UnselectedRule[];
}

/** How much of the project the catalog may activate (asked of the TrustGate, see builder). */
export type RuleTrustMode = 'trusted' | 'partial' | 'restricted';
