/**
 * Project rule catalog requests and events. Paths inside results are relative to the
 * catalog root (the git work tree containing the workspace) with `/` separators; user-level files
 * appear as `~/…`. Path inputs (`path`, `from`, `prefix`) are absolute or relative to the
 * workspace folder. The CLI `atrium rules list|explain|lint --json` prints exactly these results.
 */
import { z } from 'zod';
import { defineEvents, defineRequests } from './define';

export const RuleSeverity = z.enum(['error', 'warning', 'info']);

/** One finding about a file: code, severity, message for a person, 1-based line (or null), suggested fix. */
export const RuleWarning = z.object({
  code: z.string(),
  severity: RuleSeverity,
  message: z.string(),
  line: z.number().int().nullable(),
  fix: z.string().nullable(),
});
export type RuleWarning = z.infer<typeof RuleWarning>;

/** A finding with the file it concerns (null = the catalog as a whole). */
export const RuleFinding = RuleWarning.extend({ path: z.string().nullable() });
export type RuleFinding = z.infer<typeof RuleFinding>;

export const RuleFormat = z.enum([
  'copilot',
  'cursor-legacy',
  'claude',
  'gemini',
  'agents',
  'agents-override',
  'blade',
  'copilot-instructions',
  'cursor',
  'claude-rules',
  'blade-rules',
  'claude-local',
]);
export const RuleSource = z.enum(['project', 'local', 'user']);
/**
 * `unknown` = restricted mode: the file was not read. `agent-requested` = a Cursor rule Cursor
 * offers to the agent by its description (listed with status `manual`: Atrium never loads it).
 */
export const RuleKind = z.enum(['always', 'conditional', 'manual', 'agent-requested', 'unknown']);
/** `restricted` = a project file in an untrusted folder, listed by name only ("would load"). */
export const RuleStatus = z.enum(['active', 'overridden', 'inert', 'invalid', 'manual', 'restricted']);
export const RuleTrust = z.enum(['trusted', 'partial', 'restricted']);

export const RuleImportInfo = z.object({
  path: z.string(),
  sha256: z.string(),
  /** 1 = imported by the rule itself. */
  depth: z.number().int(),
  /** Path of the importing file. */
  from: z.string(),
  /** Line of the `@path` token in the importing file. */
  line: z.number().int(),
});

/** A catalog entry (the `rules list --json` file shape, plus display extras). */
export const RuleFileInfo = z.object({
  id: z.string(),
  path: z.string(),
  format: RuleFormat,
  source: RuleSource,
  kind: RuleKind,
  /** Root-relative scope directory ('' = root). */
  scope: z.string(),
  priority: z.number().int(),
  patterns: z.array(z.string()),
  /** Size on disk, bytes. */
  bytes: z.number().int(),
  /** null when the file is invalid or restricted. */
  sha256: z.string().nullable(),
  status: RuleStatus,
  imports: z.array(RuleImportInfo),
  /** The file's own warnings plus every lint finding about it (pattern matches nothing, symlink stored as text…). */
  warnings: z.array(RuleWarning),
  /** When it loads, in words: "always", "when src/**", "never: paths is empty", "not read (folder not trusted)". */
  condition: z.string(),
  /** Frontmatter key that made it conditional (`paths`, `globs`, `applyTo`). */
  conditionKey: z.string().nullable(),
  description: z.string().nullable(),
  /** Bytes counted by budgets (body with imports expanded). */
  bodyBytes: z.number().int(),
  /** Symlink target (root-relative when inside the root). */
  linkTarget: z.string().nullable(),
  /**
   * Root-relative folder of the nested git repository, submodule or worktree holding the file (the
   * innermost), or null when it belongs to the catalog root's repository. Agents that stop their
   * upward walk at a `.git` (Codex) start this file's scope chain there.
   */
  nestedRoot: z.string().nullable(),
  /** Position in catalog order (later = more specific). */
  order: z.number().int(),
});
export type RuleFileInfo = z.infer<typeof RuleFileInfo>;

/** Files of one scope directory, for grouping in the Rules tab (catalog order). */
export const RuleScopeGroup = z.object({ scope: z.string(), depth: z.number().int(), fileIds: z.array(z.string()) });

export const RulesListResult = z.object({
  root: z.string(),
  workspaceDir: z.string(),
  trust: RuleTrust,
  catalogSha256: z.string(),
  files: z.array(RuleFileInfo),
  /** Catalog-level findings (listing failure, many files, restricted mode). */
  warnings: z.array(RuleFinding),
  /**
   * Instruction files of other tools (`.windsurfrules`, `.clinerules`, …) that the trust review
   * counts but this catalog does not read, by design. Root-relative paths.
   */
  otherTools: z.array(z.object({ path: z.string(), tool: z.string() })),
  /**
   * Git repositories below the root that the root's `git ls-files` does not enter, listed with
   * their own: `submodule` (gitlink, `.git` file into `.git/modules`), `worktree` (`.git` file into
   * `<main>/.git/worktrees/<name>`), `repository` (a `.git` folder). Root-relative folders. Ones the
   * root's `.gitignore` ignores are not included.
   */
  nestedRoots: z.array(z.object({ path: z.string(), kind: z.enum(['submodule', 'worktree', 'repository']) })),
  scopes: z.array(RuleScopeGroup),
  stats: z.object({
    workspaceFiles: z.number().int(),
    ruleFiles: z.number().int(),
    activeFiles: z.number().int(),
    listing: z.enum(['git', 'walk', 'none']),
    buildMs: z.number(),
    builtAt: z.string(),
  }),
});
export type RulesListResult = z.infer<typeof RulesListResult>;

export const RulePatternCount = z.object({
  pattern: z.string(),
  /** Workspace files the pattern matches relative to the rule's scope. */
  matches: z.number().int(),
  capped: z.boolean(),
  sample: z.array(z.string()),
});

export const RuleFileDetail = z.object({
  file: RuleFileInfo,
  absolutePath: z.string(),
  /** Normalised file text (BOM stripped, LF); null when not read (too large, binary, restricted). */
  raw: z.string().nullable(),
  frontmatter: z.object({ raw: z.string(), data: z.record(z.string(), z.unknown()), mode: z.enum(['yaml', 'repaired', 'lines']) }).nullable(),
  /** Trimmed body as written (imports not expanded). */
  body: z.string().nullable(),
  /** 1-based line where the body starts in `raw`. */
  bodyLine: z.number().int(),
  /** Body with imports expanded (what is hashed and rendered). */
  content: z.string().nullable(),
  /** The `<instruction-file>` block sessions receive (seed §4.5). */
  rendered: z.string().nullable(),
  patterns: z.array(RulePatternCount),
});
export type RuleFileDetail = z.infer<typeof RuleFileDetail>;

export const RuleAgentName = z.enum(['codex', 'claude', 'gemini', 'copilot']);
export const RuleExplainAgent = z.enum(['atrium', 'codex', 'claude', 'gemini', 'copilot']);

export const RuleAgentViewFile = z.object({
  path: z.string(),
  bytes: z.number().int(),
  loadedBytes: z.number().int(),
  status: z.enum(['loaded', 'truncated', 'cut', 'skipped', 'ignored', 'conditional', 'restricted']),
  when: z.enum(['start', 'on-read']).nullable(),
  reason: z.string(),
  truncatedAt: z.number().int().nullable(),
});

/** What an agent would load from a start folder. */
export const RuleAgentView = z.object({
  agent: RuleAgentName,
  fromDir: z.string(),
  targetPath: z.string().nullable(),
  budgetBytes: z.number().int().nullable(),
  usedBytes: z.number().int(),
  files: z.array(RuleAgentViewFile),
  notes: z.array(z.string()),
  content: z.string(),
});
export type RuleAgentView = z.infer<typeof RuleAgentView>;

/** A rule in an explanation, with why it is there (or not). `id` is null for files outside the catalog (agent views). */
export const ExplainedRule = z.object({
  id: z.string().nullable(),
  path: z.string(),
  /** Code: user, scope-contains-start, pattern-match, nested-scope, budget, loaded, no-pattern-match, out-of-scope, … */
  reason: z.string(),
  /** The reason as a sentence. */
  detail: z.string(),
  matchedPattern: z.string().nullable(),
  triggerPath: z.string().nullable(),
  bytes: z.number().int(),
  /** For reason `same-file`: the path of the file whose text this one is (loaded once, under that path). */
  sameAs: z.string().nullable(),
});

export const RuleReferenceInfo = z.object({ id: z.string(), relativePath: z.string(), source: RuleSource, sha256: z.string() });

const Budget = z.object({ maxBytes: z.number().int().nullable(), usedBytes: z.number().int() });

/** `rules explain`, plus the skipped files, references and budgets for the UI. */
export const RulesExplainResult = z.object({
  root: z.string(),
  agent: RuleExplainAgent,
  fromDir: z.string(),
  /** Root-relative target, or null when outside the catalog root. */
  targetPath: z.string().nullable(),
  static: z.array(ExplainedRule),
  contextual: z.array(ExplainedRule),
  dropped: z.array(ExplainedRule),
  /** Matched, but the same text as a loaded file (symlink, import-only file, imported file): reason `same-file`, `sameAs` set; not sent, not budgeted. */
  collapsed: z.array(ExplainedRule),
  skipped: z.array(ExplainedRule),
  contentBytes: z.number().int(),
  provenanceSha256: z.string(),
  content: z.string(),
  references: z.array(RuleReferenceInfo),
  budget: z.object({ static: Budget, contextual: Budget }),
  /** Set when `agent` is not `atrium`. */
  agentView: RuleAgentView.nullable(),
});
export type RulesExplainResult = z.infer<typeof RulesExplainResult>;

export const RulesLintResult = z.object({
  root: z.string(),
  catalogSha256: z.string(),
  findings: z.array(RuleFinding),
  counts: z.object({ error: z.number().int(), warning: z.number().int(), info: z.number().int() }),
});
export type RulesLintResult = z.infer<typeof RulesLintResult>;

export const RulePathCompletion = z.object({
  /** Relative to the workspace folder; folders end with `/`. */
  path: z.string(),
  kind: z.enum(['file', 'dir']),
});

const WorkspaceId = z.string().min(1);

export const rulesRequests = defineRequests({
  'rules.list': {
    description: "The workspace's rule catalog: every instruction file with format, kind, scope, status and warnings.",
    params: z.object({ workspaceId: WorkspaceId }),
    result: RulesListResult,
  },
  'rules.file': {
    description: 'One rule file in detail: raw text, frontmatter, body, rendered block and how many workspace files each pattern matches.',
    params: z.object({ workspaceId: WorkspaceId, id: z.string().min(1) }),
    result: RuleFileDetail,
  },
  'rules.explain': {
    description: 'Which rules apply to a path for a session starting in `from`, in order, with reasons, budget and dropped files; or an agent view.',
    params: z.object({
      workspaceId: WorkspaceId,
      path: z.string().min(1),
      from: z.string().min(1).optional(),
      loaded: z.array(z.string()).optional(),
      budget: z.number().int().positive().optional(),
      agent: RuleExplainAgent.optional(),
    }),
    result: RulesExplainResult,
  },
  'rules.agentView': {
    description: 'What Codex, Claude Code or Gemini CLI would load from a start folder (and, for Claude, on reading `path`).',
    params: z.object({ workspaceId: WorkspaceId, agent: RuleAgentName, from: z.string().min(1).optional(), path: z.string().min(1).optional() }),
    result: RuleAgentView,
  },
  'rules.lint': {
    description: 'Findings about the rule files with file, line and a suggested fix.',
    params: z.object({ workspaceId: WorkspaceId }),
    result: RulesLintResult,
  },
  'rules.completePath': {
    description: 'Completes a workspace-relative path prefix from the workspace tree (Test a path).',
    params: z.object({ workspaceId: WorkspaceId, prefix: z.string(), limit: z.number().int().positive().max(500).optional() }),
    result: z.object({ entries: z.array(RulePathCompletion) }),
  },
  'rules.refresh': {
    description: 'Rebuilds the catalog from disk now (the watcher normally does this by itself).',
    params: z.object({ workspaceId: WorkspaceId }),
    result: z.object({ catalogSha256: z.string(), buildMs: z.number() }),
  },
});

export const rulesEvents = defineEvents({
  rulesChanged: {
    description: "A workspace's rule files changed on disk (or its trust changed) and the catalog was rebuilt.",
    payload: z.object({ workspaceId: z.string(), catalogSha256: z.string() }),
  },
});
