import { z } from 'zod';
import { defineEvents, defineRequests } from './define';

/**
 * Folder trust. A decision (`trusted` | `untrusted`) is recorded for one canonical
 * directory; the state of any folder is decided by the deepest ancestor-or-self directory with a
 * decision. No decision anywhere above → `undecided`, which behaves exactly like `untrusted`
 * (restricted mode: only user-level resources are active). Workspaces are judged by their
 * `trustRoot` (a linked worktree git lists by its main checkout), so all worktrees of a repo share one
 * decision; the trust root is derived from the disk at every use, never stored.
 */

/** Effective trust of a folder. `undecided` behaves like `untrusted`. */
export const TrustState = z.enum(['trusted', 'untrusted', 'undecided']);
export type TrustState = z.infer<typeof TrustState>;

/** What can be recorded for a directory. */
export const TrustDecisionState = z.enum(['trusted', 'untrusted']);
export type TrustDecisionState = z.infer<typeof TrustDecisionState>;

/** Who recorded a decision: the user directly, or the user confirming an import from another tool. */
export const TrustSource = z.enum(['user', 'import:claude', 'import:codex', 'import:gemini']);
export type TrustSource = z.infer<typeof TrustSource>;

/** Tools whose stored trust decisions can be imported (read only; Atrium never writes them). */
export const TrustImportSource = z.enum(['claude', 'codex', 'gemini']);
export type TrustImportSource = z.infer<typeof TrustImportSource>;

/** The trust a listed workspace carries (`Workspace.trust`), enough for a sidebar badge. */
export const WorkspaceTrust = z.object({
  state: TrustState,
  /** Directory whose decision applies (the trust root itself or an ancestor); null when undecided. */
  decidedBy: z.string().nullable(),
  /**
   * True when the decision was recorded for another folder than this one: an ancestor, or (for a
   * linked worktree) the main checkout whose decision all its worktrees share.
   */
  inherited: z.boolean(),
});
export type WorkspaceTrust = z.infer<typeof WorkspaceTrust>;

/** Full trust status of one folder, as `atrium trust status --json` prints it. */
export const TrustStatus = WorkspaceTrust.extend({
  /** The folder asked about, canonical (realpath, bytes as on disk; lexical for a folder that does not exist). */
  path: z.string(),
  /** Directory whose decision governs `path` (main checkout's matching directory for a linked worktree). */
  trustRoot: z.string(),
  /** When the applying decision was recorded (ISO 8601); null when undecided. */
  decidedAt: z.string().nullable(),
  /**
   * The decision recorded for this folder itself, when it is its own trust root; always null inside a
   * linked worktree (it has no decision of its own: see `worktreeOf` and `trustRootDecision`).
   */
  ownDecision: TrustDecisionState.nullable(),
  /** The main checkout when `path` lies in a linked worktree git lists (whose decision it shares), else null. */
  worktreeOf: z.string().nullable(),
  /**
   * The decision recorded for `trustRoot` itself, if any: what `clear` on this folder removes. For a
   * worktree that is the main checkout's decision, shared by every worktree of the repository.
   */
  trustRootDecision: TrustDecisionState.nullable(),
  /**
   * "Trust parent folder" target (e.g. `~/src`): offered only when trusting it would make this folder
   * trusted, i.e. the folder is not trusted yet and its trust root has no decision of its own (which
   * would override the parent's). Null otherwise, or when no plausible parent exists.
   */
  parentSuggestion: z.string().nullable(),
  /** Why trusting `trustRoot` itself is refused (filesystem root, home directory or above), else null. */
  trustRefused: z.string().nullable(),
});
export type TrustStatus = z.infer<typeof TrustStatus>;

/** One recorded decision. */
export const TrustDecision = z.object({
  path: z.string(),
  state: TrustDecisionState,
  /** ISO 8601. */
  decidedAt: z.string(),
  source: TrustSource,
});
export type TrustDecision = z.infer<typeof TrustDecision>;

/** One entry of the append-only audit history. `null` state = no decision (before first decision / after clear). */
export const TrustChange = z.object({
  id: z.number().int(),
  path: z.string(),
  oldState: TrustDecisionState.nullable(),
  newState: TrustDecisionState.nullable(),
  /** ISO 8601. */
  changedAt: z.string(),
  source: TrustSource,
});
export type TrustChange = z.infer<typeof TrustChange>;

/** Kinds of repository-supplied items a trust review lists. Order = suggested display order. */
export const TrustItemKind = z.enum([
  'hook',
  'mcpServer',
  'lspServer',
  'command',
  'setting',
  'env',
  'plugin',
  'skill',
  'subagent',
  'outputStyle',
  'instruction',
]);
export type TrustItemKind = z.infer<typeof TrustItemKind>;

/** A parse problem or risk, written for a person: which file, which line, what to do. */
export const TrustWarning = z.object({
  /** Workspace-relative POSIX path of the file. */
  path: z.string(),
  /** 1-based line, or null when not known. */
  line: z.number().int().nullable(),
  message: z.string(),
  /** How to fix it, or null when there is nothing to fix (a risk notice). */
  fix: z.string().nullable(),
});
export type TrustWarning = z.infer<typeof TrustWarning>;

/**
 * Something a command runs that its digest cannot cover: code chosen at run time (a package runner
 * such as `npx pkg`, module resolution, a path built from a variable, inline interpreter code that
 * loads files). A hook or server with any of these is approved only with an explicit
 * acknowledgement (`hooks.approve` item `acknowledgeUncovered: true`, CLI `--acknowledge-uncovered`).
 */
export const HookUncovered = z.object({
  /** Stable code: `package-runner`, `module-resolution`, `dynamic-path`, `interpreter-code`, `unparsed`, `size-cap`, ... */
  code: z.string(),
  /** The part of the command (or file) concerned, literally. */
  text: z.string(),
  /** One sentence: what the digest does not cover and why. */
  message: z.string(),
});
export type HookUncovered = z.infer<typeof HookUncovered>;

/** Structured data about an item, for the expanded view. Secret-bearing values are never included. */
export const TrustItemDetail = z
  .object({
    /** Hook event name as written (e.g. `PreToolUse`, `BeforeTool`). */
    event: z.string(),
    /** Hook matcher as written (objects rendered as `key=value` pairs); absent = matches everything. */
    matcher: z.string(),
    /** Hook handler type (`command`, `http`, `prompt`, ...). */
    handlerType: z.string(),
    /** The literal command a hook / server / helper runs (exactly as in the file). */
    command: z.string(),
    /** Arguments of a server command, literal. */
    args: z.array(z.string()),
    /** URL of an http hook or remote MCP server, reduced to origin + path (query and credentials dropped). */
    url: z.string(),
    /** MCP transport (`stdio`, `http`, `sse`, `ws`). */
    transport: z.string(),
    /** Names of environment variables set (values are never reported). */
    envNames: z.array(z.string()),
    /** Names of HTTP headers sent (values are never reported). */
    headerNames: z.array(z.string()),
    /**
     * Variable references an MCP server definition reads from the environment, as written
     * (`${AWS_SECRET_ACCESS_KEY}`): what trusting lets the repository's server receive (values are never reported).
     */
    variables: z.array(z.string()),
    /** Plugin the item belongs to. */
    plugin: z.string(),
    /** Frontmatter description or first line. */
    description: z.string(),
    /** Commands a command/skill file runs through a shell when invoked (`` !`cmd` ``, `!{cmd}`, ```` ```! ```` blocks). */
    shellEmbeds: z.array(z.string()),
    /** For a symbolic link: where it points (as stored in the link). */
    linkTarget: z.string(),
    /** Handler `if` condition (permission-rule syntax). */
    condition: z.string(),
    /**
     * For an extension the workspace bundle holds once trusted: its id on the Extensions tab and in
     * `atrium resources` (`deploy`, `frontend/lint`, `plugin:p:deploy`, `project:typescript`), so
     * both surfaces name it alike. Absent for items the bundle does not read (nested folders, other tools).
     */
    resourceId: z.string(),
  })
  .partial();
export type TrustItemDetail = z.infer<typeof TrustItemDetail>;

/** One thing trusting the folder would activate. */
export const TrustReviewItem = z.object({
  /** Stable within one review (kind + path + position), for list keys. */
  id: z.string(),
  kind: TrustItemKind,
  /** Workspace-relative POSIX path of the file that defines the item; `trust.readFile` shows it. */
  path: z.string(),
  /** 1-based line of the definition inside the file, or null. */
  line: z.number().int().nullable(),
  /** Short name (hook event, server name, command name, file name). */
  name: z.string(),
  /** One line for the list. */
  summary: z.string(),
  /**
   * True when the item runs code on this machine: hooks, stdio MCP and LSP servers, shell embeds,
   * helper commands, `env` variables that make programs load other code (NODE_OPTIONS, LD_PRELOAD…).
   * Not an http MCP server nor a model endpoint redirect: those send data and are approved on their own.
   */
  executable: z.boolean(),
  /** Which tool reads it: `claude`, `codex`, `gemini`, `blade`, `cursor`, `vscode`, `copilot`, `windsurf`, `cline`, `agents`, `plugin`. */
  tool: z.string(),
  warnings: z.array(TrustWarning),
  /**
   * For a hook or MCP server: what its digest does not cover (`npx pkg`, module resolution, ...),
   * exactly the `uncovered` list of the same item in `hooks.list`; empty for every other item and
   * for a hook or server the hooks listing does not hold.
   */
  uncovered: z.array(HookUncovered),
  detail: TrustItemDetail,
});
export type TrustReviewItem = z.infer<typeof TrustReviewItem>;

/** Item counts for every kind (zero included), e.g. for the restricted-mode banner. */
export const TrustItemCounts = z.record(TrustItemKind, z.number().int());
export type TrustItemCounts = z.infer<typeof TrustItemCounts>;

/** Everything trusting a folder would activate. Items are sorted executable first, then by kind order, path, line. */
export const TrustReview = z.object({
  /** The folder walked (the workspace folder). */
  path: z.string(),
  trustRoot: z.string(),
  state: TrustState,
  items: z.array(TrustReviewItem),
  /** Problems not tied to one item (unreadable listing, skipped files). */
  warnings: z.array(TrustWarning),
  counts: TrustItemCounts,
  executableCount: z.number().int(),
  /** Number of files the walk looked at. */
  fileCount: z.number().int(),
  /** ISO 8601. */
  reviewedAt: z.string(),
  /** Wall time of the review in milliseconds. */
  durationMs: z.number(),
});
export type TrustReview = z.infer<typeof TrustReview>;

/** A decision another tool stores, offered for import; nothing is recorded until confirmed. */
export const TrustImportSuggestion = z.object({
  from: TrustImportSource,
  /** Directory the decision would be recorded for (canonical trust root of the path in the file). */
  path: z.string(),
  /** The path exactly as the other tool stored it. */
  sourcePath: z.string(),
  state: TrustDecisionState,
  /** What the other tool stored, e.g. `hasTrustDialogAccepted: true`, `trust_level = "trusted"`, `TRUST_PARENT`. */
  sourceValue: z.string(),
  exists: z.boolean(),
  /** Atrium's current status of `path`. */
  current: WorkspaceTrust,
  /** True when Atrium already records exactly this decision for `path`. */
  alreadyRecorded: z.boolean(),
  /** Why this suggestion cannot be imported (e.g. trusting the home directory, a missing folder, or another tool marks the folder untrusted), else null. */
  refused: z.string().nullable(),
  /**
   * When the tools disagree about `path` (one trusts it, another marks it untrusted): the sentence
   * saying so and how the import resolves it (untrusted wins: the trusted suggestion is refused),
   * else null.
   */
  conflict: z.string().nullable(),
});
export type TrustImportSuggestion = z.infer<typeof TrustImportSuggestion>;

/** Which file was read for one import source. */
export const TrustImportSourceReport = z.object({
  from: TrustImportSource,
  file: z.string(),
  found: z.boolean(),
  warnings: z.array(TrustWarning),
});
export type TrustImportSourceReport = z.infer<typeof TrustImportSourceReport>;

/**
 * What trusting a folder lets one agent load from it by itself when Atrium launches it (the
 * `whenTrusted` sentences of its isolation), shown with the trust review.
 */
export const AgentTrustNote = z.object({
  agentId: z.string(),
  name: z.string(),
  /** False: Atrium does not isolate this agent, so approvals are not enforced for it. */
  isolated: z.boolean(),
  whenTrusted: z.array(z.string()),
});
export type AgentTrustNote = z.infer<typeof AgentTrustNote>;

const target = {
  path: z.string().min(1).optional(),
  workspaceId: z.string().min(1).optional(),
};
const exactlyOneTarget = (v: { path?: string; workspaceId?: string }) => (v.path === undefined) !== (v.workspaceId === undefined);
const targetMessage = { message: 'Give exactly one of "path" (absolute folder) or "workspaceId".' };

export const trustRequests = defineRequests({
  'trust.status': {
    description: 'Trust status of a folder (absolute path) or of a workspace (by id, judged by its trust root).',
    params: z.object(target).refine(exactlyOneTarget, targetMessage),
    result: z.object({ status: TrustStatus }),
  },
  'trust.set': {
    description:
      'Records trusted/untrusted for the trust root of a folder or workspace (or its suggested parent with parent:true). Trusting the filesystem root or home directory is refused (TRUST_REFUSED).',
    params: z
      .object({ ...target, state: TrustDecisionState, parent: z.boolean().optional() })
      .refine(exactlyOneTarget, targetMessage),
    result: z.object({ status: TrustStatus, decision: TrustDecision, change: TrustChange.nullable() }),
  },
  'trust.clear': {
    description:
      'Removes the decision recorded for the trust root of a folder or workspace (or its suggested parent), so it inherits again. To revoke an inherited trust, clear `decidedBy` or set untrusted.',
    params: z.object({ ...target, parent: z.boolean().optional() }).refine(exactlyOneTarget, targetMessage),
    result: z.object({ removed: z.boolean(), change: TrustChange.nullable(), status: TrustStatus }),
  },
  'trust.list': {
    description: 'Every recorded decision, sorted by path.',
    params: z.object({}),
    result: z.object({ decisions: z.array(TrustDecision) }),
  },
  'trust.history': {
    description:
      'Audit history, newest first. With a path or workspace: only changes to directories that govern it (its trust root and ancestors).',
    params: z
      .object({ ...target, limit: z.number().int().min(1).max(10_000).optional() })
      .refine((v) => v.path === undefined || v.workspaceId === undefined, targetMessage),
    result: z.object({ entries: z.array(TrustChange) }),
  },
  'trust.review': {
    description: 'Lists everything trusting would activate in a workspace (or folder): hooks, MCP/LSP servers, commands, skills, rules, ...',
    params: z.object(target).refine(exactlyOneTarget, targetMessage),
    /** `agents`: every agent Atrium can launch (presets, then user-defined ones) and what trusting lets it load by itself. */
    result: z.object({ review: TrustReview, agents: z.array(AgentTrustNote) }),
  },
  'trust.readFile': {
    description: 'Content of one file inside a workspace (relative path), for expanding a review item. Refuses paths leaving the workspace.',
    params: z.object({ workspaceId: z.string().min(1), path: z.string().min(1) }),
    result: z.object({
      path: z.string(),
      content: z.string(),
      /** Size on disk in bytes. */
      size: z.number().int(),
      /** True when only the first 1 MiB is returned. */
      truncated: z.boolean(),
      /** True when the file looks binary (content is then empty). */
      binary: z.boolean(),
    }),
  },
  'trust.importSuggestions': {
    description: 'Reads the trust decisions Claude Code, Codex and Gemini CLI store (or one of them) and returns them as suggestions. Records nothing.',
    params: z.object({ from: TrustImportSource.optional() }),
    result: z.object({ sources: z.array(TrustImportSourceReport), suggestions: z.array(TrustImportSuggestion) }),
  },
  'trust.importConfirm': {
    description: 'Records the suggestions the user confirmed, all in one transaction. Refused entries fail the whole request (TRUST_REFUSED).',
    params: z.object({
      decisions: z.array(z.object({ path: z.string().min(1), state: TrustDecisionState, from: TrustImportSource })).min(1),
    }),
    result: z.object({ recorded: z.array(TrustChange), unchanged: z.array(z.string()) }),
  },
});

export const trustEvents = defineEvents({
  trustChanged: {
    description: 'Trust decisions changed (set, clear or import); `changes` are the new audit entries. Re-read statuses.',
    payload: z.object({ changes: z.array(TrustChange) }),
  },
});
