import { z } from 'zod';
import { HOOK_EVENTS } from '../hookEvents';
import { defineEvents, defineRequests } from './define';
import { HookUncovered, TrustWarning } from './trust';

/**
 * Hook trust by content digest. Every hook handler (and every MCP server a repository
 * file declares) is listed literally with a digest: `"sha256:" +` hex SHA-256 of canonical JSON of
 * its definition, its source and the bytes of every script its command runs. A hook runs only while
 * its current digest is approved for its trust root (user-level hooks: the home directory).
 */

/**
 * - `approved`: the current digest is approved;
 * - `modified`: an earlier digest was approved for the same hook key (file + event + matcher +
 *   position) but the current one is not (the definition or a script changed);
 * - `unapproved`: never approved (or revoked);
 * - `invalid`: a schema mistake: it can never run (see its warnings);
 * - `disabled`: switched off by `disableAllHooks` (a repository's only switches off its own hooks),
 *   Blade's `hooks.enabled`, Gemini's `hooksConfig`.
 */
export const HookState = z.enum(['approved', 'modified', 'unapproved', 'invalid', 'disabled']);
export type HookState = z.infer<typeof HookState>;

/** Where a hook comes from: `~/...` (user), the repository's shared file, its personal `*.local.json`, a plugin in the repository. */
export const HookScope = z.enum(['user', 'project', 'local', 'plugin']);
export type HookScope = z.infer<typeof HookScope>;

/** The file format a hook was written in (decides matcher and result semantics). */
export const HookFormat = z.enum(['claude', 'codex', 'gemini', 'blade', 'plugin']);
export type HookFormat = z.infer<typeof HookFormat>;

/** Events Atrium fires today (`hooks.run`); other events are listed and approvable but never fire yet. */
export const HookEvent = z.enum(HOOK_EVENTS);
export type HookEvent = z.infer<typeof HookEvent>;

/** The file that defines a hook or server. */
export const HookSource = z.object({
  scope: HookScope,
  /** Relative POSIX path: to the workspace folder, or to the home directory for `user` scope (shown as `~/...`). */
  file: z.string(),
  /** Plugin name for plugin hooks, else null. */
  plugin: z.string().nullable(),
  format: HookFormat,
  /** Absolute path of the file. */
  absolutePath: z.string(),
});
export type HookSource = z.infer<typeof HookSource>;

/** A file the command executes or passes to an interpreter, hashed into the digest. */
export const HookScript = z.object({
  /** Workspace-relative POSIX path; `~/...` or absolute when outside the workspace. */
  path: z.string(),
  /** Hex SHA-256 of the file's bytes. */
  sha256: z.string(),
  /** True when the file is not inside the workspace folder (still hashed). */
  outsideWorkspace: z.boolean(),
  /** Size in bytes. */
  size: z.number().int(),
});
export type HookScript = z.infer<typeof HookScript>;

/** A heuristic danger highlight (download piped to a shell, `rm -rf`, `sudo`, secrets, network...). */
export const HookDanger = z.object({
  /** Stable code: `download-exec`, `rm-rf`, `sudo`, `write-outside`, `secret-read`, `env-secret`, `eval`, `base64`, `network`, `outside-script`, `http-insecure`, `env-code` (env names that load code or pick programs: `PATH`, `NODE_OPTIONS`, `LD_*`...). */
  code: z.string(),
  message: z.string(),
});
export type HookDanger = z.infer<typeof HookDanger>;

/** What a digest does not cover: defined beside the trust review, which carries it too (see `./trust`). */
export { HookUncovered } from './trust';

/** The approval recorded for a hook key (possibly for an older digest). */
export const HookApproval = z.object({
  digest: z.string(),
  /** ISO 8601. */
  approvedAt: z.string(),
  /** Who approved, e.g. `user (app)`, `user (cli)`. */
  approvedBy: z.string(),
});
export type HookApproval = z.infer<typeof HookApproval>;

/** One hook handler, literally. */
export const Hook = z.object({
  /** Short stable id (`h_` + 12 hex of the hook key), for `hooks.approve` and the CLI. */
  id: z.string(),
  /** The hook key: scope, file, plugin, event, matcher and position, as JSON. */
  key: z.string(),
  source: HookSource,
  /** 1-based line of the handler in its file, or null. */
  line: z.number().int().nullable(),
  /** Event name exactly as written (e.g. `PreToolUse`, Gemini `BeforeTool`). */
  event: z.string(),
  /** The Atrium event it fires on (Gemini's `BeforeTool` → `PreToolUse`), or null when Atrium does not fire it yet. */
  runsOn: HookEvent.nullable(),
  /** Matcher as written (Blade's object rendered `tools=… paths=…`); null = matches everything. */
  matcher: z.string().nullable(),
  /** Handler `if` condition (permission-rule form, e.g. `Bash(git commit*)`), or null. */
  if: z.string().nullable(),
  /** `command` | `http` | `prompt` | `agent` | `mcp_tool` (or what the file says, when invalid). */
  type: z.string(),
  /** The full literal command (exec form: command and arguments), or null. */
  command: z.string().nullable(),
  url: z.string().nullable(),
  /** For an http hook: the host its address policy refuses unless allowed (plain http, localhost, private IP literal), else null. */
  refusedHost: z.string().nullable().optional(),
  prompt: z.string().nullable(),
  args: z.array(z.string()).nullable(),
  /** Timeout as written (the format's unit: seconds, Gemini milliseconds), or null. */
  timeout: z.number().nullable(),
  /** Effective timeout in milliseconds (the format's default when not written). */
  timeoutMs: z.number().int(),
  /** Optional handler name (Gemini, Blade). */
  name: z.string().nullable(),
  digest: z.string(),
  /** The canonical definition the digest covers (for display and diffs). */
  definition: z.record(z.string(), z.unknown()),
  scripts: z.array(HookScript),
  /** What the digest does not cover (empty when every file the command runs is hashed). */
  uncovered: z.array(HookUncovered),
  state: HookState,
  /** The approval recorded for this hook key, if any (its digest differs when `modified`). */
  approval: HookApproval.nullable(),
  danger: z.array(HookDanger),
  warnings: z.array(TrustWarning),
  /** False for prompt/agent/mcp_tool handlers: approvable, but Atrium does not run them yet. */
  supported: z.boolean(),
  /** True for a project hook listed while the folder is restricted (`includeHeldBack`): it cannot run until trusted. */
  heldBack: z.boolean(),
});
export type Hook = z.infer<typeof Hook>;

/** MCP server approval states (`disabled`: declared by a plugin that is off or not loaded; it never starts). */
export const McpServerState = z.enum(['approved', 'modified', 'unapproved', 'invalid', 'disabled']);
export type McpServerState = z.infer<typeof McpServerState>;

/** An MCP server declared by a repository file, approved by digest like a hook. Secret-looking values are masked. */
/** A variable an MCP server definition reads, as written (see `formats/envExpand.ts`). */
export const McpVariable = z.object({
  /** The reference as written: `${API_KEY}`, `${URL:-https://x}`, `$HOME` (Gemini), `${env:TOKEN}`, `${input:key}`. */
  text: z.string(),
  /** `env`: from the environment; `builtin`: a value the tool supplies (workspace folder, home, plugin root); `input`: a prompt VS Code would show. */
  kind: z.enum(['env', 'builtin', 'input']),
  name: z.string(),
  /** The `:-default` text, or null. */
  fallback: z.string().nullable(),
});
export type McpVariable = z.infer<typeof McpVariable>;

/** An MCP server's `command`, `args`, `url`, `env` and `headers` as they would be passed now, secrets masked. */
export const McpExpansion = z.object({
  /** Whose syntax was expanded: `claude-code`, `gemini-cli`, `cursor`, `vscode`. */
  dialect: z.string(),
  command: z.string().nullable(),
  args: z.array(z.string()),
  /** Origin and path only (query strings can carry tokens). */
  url: z.string().nullable(),
  env: z.record(z.string(), z.string()),
  headers: z.record(z.string(), z.string()),
  /** Environment variables read that are unset and have no default: the server is withheld from sessions. */
  missing: z.array(z.string()),
  /** References that can never be expanded (`${input:…}`, Atrium's own `ATRIUM_*`): the server is withheld. */
  unresolvable: z.array(z.object({ text: z.string(), why: z.string() })),
  /**
   * Credentials read as empty instead of substituted (the server still starts): Claude Code 2.1.318
   * never expands its own tokens, nor `ANTHROPIC_API_KEY` and other credentials into a remote
   * server's `url` or `headers`; Atrium does the same for every dialect (`formats/envExpand.ts`).
   */
  blanked: z.array(z.object({ name: z.string(), why: z.string() })),
});
export type McpExpansion = z.infer<typeof McpExpansion>;

export const McpServer = z.object({
  /** Short stable id (`m_` + 12 hex of the server key). */
  id: z.string(),
  key: z.string(),
  name: z.string(),
  source: HookSource,
  line: z.number().int().nullable(),
  /** `stdio` | `http` | `sse` | `ws` | ... */
  transport: z.string(),
  command: z.string().nullable(),
  args: z.array(z.string()),
  cwd: z.string().nullable(),
  url: z.string().nullable(),
  /** Environment values; secret-looking ones replaced by `••••••`. */
  env: z.record(z.string(), z.string()),
  /** Header values; secret-looking ones replaced by `••••••`. */
  headers: z.record(z.string(), z.string()),
  digest: z.string(),
  /** The canonical definition with secret-looking values masked. */
  definition: z.record(z.string(), z.unknown()),
  /** Files the server command runs, hashed into the digest (same rules as hook scripts). */
  scripts: z.array(HookScript),
  /** What the digest does not cover (e.g. `npx -y pkg@latest`). */
  uncovered: z.array(HookUncovered),
  state: McpServerState,
  approval: HookApproval.nullable(),
  danger: z.array(HookDanger),
  warnings: z.array(TrustWarning),
  heldBack: z.boolean(),
  /** The variables the definition reads (the digest covers the references, never their values). */
  variables: z.array(McpVariable),
  /** The definition expanded from Atrium's environment (what a session would pass), or null when it reads no variable. */
  expansion: McpExpansion.nullable(),
});
export type McpServer = z.infer<typeof McpServer>;

/** Counts per state, over hooks and MCP servers together. */
export const HookCounts = z.record(HookState, z.number().int());
export type HookCounts = z.infer<typeof HookCounts>;

/** Every hook and MCP server that applies to a folder, with its state. */
export const HookListing = z.object({
  path: z.string(),
  trustRoot: z.string(),
  /** The workspace listed, when the folder is one. */
  workspaceId: z.string().nullable(),
  /** True when the folder is in restricted mode: only user-level hooks apply. */
  restricted: z.boolean(),
  /**
   * `disableAllHooks` with the file that decided it; null when no file sets it. `scope: 'user'`
   * (your `~/.claude/settings.json`): `true` switches off every Claude-format hook. `scope:
   * 'project'` (the repository's `.claude/settings(.local).json`, local > project): `true` switches
   * off the repository's hooks only; your own hooks keep running. Your `true` wins over the
   * repository's value.
   */
  disableAllHooks: z.object({ value: z.boolean(), file: z.string(), scope: z.enum(['user', 'project']) }).nullable(),
  hooks: z.array(Hook),
  mcpServers: z.array(McpServer),
  /** Problems not tied to one hook (unparseable files, unreadable sources). */
  warnings: z.array(TrustWarning),
  counts: HookCounts,
  /** Hosts the user allowed http hooks to reach despite the https/loopback/private-address policy. */
  httpAllowedHosts: z.array(z.string()),
});
export type HookListing = z.infer<typeof HookListing>;

/** One approve/revoke in the append-only audit history. */
export const HookAuditEntry = z.object({
  id: z.number().int(),
  trustRoot: z.string(),
  key: z.string(),
  /** The hook's or server's id. */
  itemId: z.string(),
  kind: z.enum(['hook', 'mcp']),
  action: z.enum(['approve', 'revoke']),
  digest: z.string(),
  /** The digest approved before (re-approval of a modified hook), else null. */
  previousDigest: z.string().nullable(),
  /** Short description, e.g. `PreToolUse [Bash] .claude/hooks/x.sh`. */
  label: z.string(),
  /** ISO 8601. */
  at: z.string(),
  by: z.string(),
  /**
   * Present (non-empty) only on an `approve` that acknowledged what the digest does not cover:
   * the item's `uncovered` entries exactly as the user was shown them when approving.
   */
  acknowledgedUncovered: z.array(HookUncovered).optional(),
});
export type HookAuditEntry = z.infer<typeof HookAuditEntry>;

/** What one handler decided. `none` = no decision (success without one, non-blocking error, skipped, timeout). */
export const HookDecision = z.enum(['none', 'allow', 'ask', 'defer', 'deny', 'block', 'stop']);
export type HookDecision = z.infer<typeof HookDecision>;

/** Why a handler did not run. */
export const HookSkipReason = z.enum(['unapproved', 'modified', 'invalid', 'disabled', 'unsupported', 'restricted', 'duplicate']);
export type HookSkipReason = z.infer<typeof HookSkipReason>;

/** The result of one handler in one `hooks.run`. */
export const HookResult = z.object({
  id: z.string(),
  digest: z.string(),
  /** Process exit code (command), HTTP status (http), or null (skipped, timeout, not supported). */
  exitCode: z.number().int().nullable(),
  durationMs: z.number(),
  timedOut: z.boolean(),
  decision: HookDecision,
  /** Reason given with the decision (exit-2 stderr, JSON `reason`/`permissionDecisionReason`). */
  reason: z.string().nullable(),
  /** Captured stdout (≤ 1 MiB) / HTTP response body (≤ 256 KiB). */
  stdout: z.string(),
  stderr: z.string(),
  /** True when output was cut at the cap. */
  truncated: z.boolean(),
  /** Set when the handler did not run. */
  skipped: HookSkipReason.nullable(),
  /** A short explanation for errors, skips and "not supported yet". */
  message: z.string().nullable(),
});
export type HookResult = z.infer<typeof HookResult>;

/** The combined outcome of the handlers one event ran (Claude Code semantics, formats.md §2.5). */
export const HookRunOutcome = z.object({
  event: HookEvent,
  /** Combined decision: `stop` (continue:false) beats everything; PreToolUse deny > defer > ask > allow; `block` for blocking events. */
  decision: HookDecision,
  reason: z.string().nullable(),
  /** False when a handler returned `continue: false`. */
  continue: z.boolean(),
  stopReason: z.string().nullable(),
  /** Context for the agent: plain stdout of UserPromptSubmit/SessionStart and every `additionalContext`, joined by blank lines. */
  additionalContext: z.string().nullable(),
  /** `systemMessage`s for the user. */
  systemMessages: z.array(z.string()),
  /** Tool input replaced by a PreToolUse/PermissionRequest handler (`updatedInput`), else null. */
  updatedInput: z.record(z.string(), z.unknown()).nullable(),
  results: z.array(HookResult),
});
export type HookRunOutcome = z.infer<typeof HookRunOutcome>;

/** One recorded execution (or skip) from the run history. */
export const HookRunRecord = HookResult.extend({
  runId: z.number().int(),
  key: z.string(),
  event: z.string(),
  sessionId: z.string().nullable(),
  /** ISO 8601. */
  at: z.string(),
});
export type HookRunRecord = z.infer<typeof HookRunRecord>;

/** The approved and the current version of a hook or server, for a diff. */
export const HookVersion = z.object({
  digest: z.string(),
  /** Pretty canonical JSON of the definition (secret-looking MCP values masked). */
  definition: z.string(),
  scripts: z.array(z.object({ path: z.string(), sha256: z.string(), content: z.string().nullable() })),
});
export type HookVersion = z.infer<typeof HookVersion>;

const target = {
  path: z.string().min(1).optional(),
  workspaceId: z.string().min(1).optional(),
};
const exactlyOneTarget = (v: { path?: string; workspaceId?: string }) => (v.path === undefined) !== (v.workspaceId === undefined);
const targetMessage = { message: 'Give exactly one of "path" (absolute folder) or "workspaceId".' };
const Via = z.enum(['app', 'cli']).optional();

export const hooksRequests = defineRequests({
  'hooks.list': {
    description:
      'Every hook (user, project, local, plugin) and repository MCP server of a folder or workspace with digest and state. Restricted folders list user hooks only, unless includeHeldBack (for the trust review).',
    params: z.object({ ...target, includeHeldBack: z.boolean().optional() }).refine(exactlyOneTarget, targetMessage),
    result: HookListing,
  },
  'hooks.approve': {
    description:
      'Approves hooks or MCP servers by id at the digest the user saw (HOOK_DIGEST_MISMATCH when it changed since; HOOK_INVALID for invalid ones; HOOK_UNCOVERED when an item with a non-empty `uncovered` list lacks `acknowledgeUncovered`; NOT_FOUND for unknown ids). All or nothing.',
    params: z
      .object({
        ...target,
        items: z
          .array(
            z.object({
              id: z.string().min(1),
              digest: z.string().min(1).optional(),
              /** Required (true) for an item whose `uncovered` list is not empty: the user saw what the digest does not cover. */
              acknowledgeUncovered: z.boolean().optional(),
            }),
          )
          .min(1),
        via: Via,
      })
      .refine(exactlyOneTarget, targetMessage),
    result: z.object({ changes: z.array(HookAuditEntry) }),
  },
  'hooks.approveAllUser': {
    description:
      "Approves every valid user-level hook (~/.claude, ~/.codex, ~/.gemini, ~/.blade) at its current digest, in one action, except those whose `uncovered` list is not empty: they are never approved in bulk and come back in `leftUncovered` (approve each with `hooks.approve` and `acknowledgeUncovered`).",
    params: z.object({ ...target, via: Via }).refine(exactlyOneTarget, targetMessage),
    result: z.object({
      changes: z.array(HookAuditEntry),
      /** User hooks left unapproved because their digest does not cover everything they run. */
      leftUncovered: z.array(z.object({ id: z.string(), label: z.string(), digest: z.string(), uncovered: z.array(HookUncovered) })),
    }),
  },
  'hooks.revoke': {
    description: 'Removes the approval of hooks or MCP servers by id (NOT_FOUND when one has none).',
    params: z.object({ ...target, ids: z.array(z.string().min(1)).min(1), via: Via }).refine(exactlyOneTarget, targetMessage),
    result: z.object({ changes: z.array(HookAuditEntry) }),
  },
  'hooks.diff': {
    description: 'The last approved version of a hook or server next to the current one (definition and script contents), for a diff.',
    params: z.object({ ...target, id: z.string().min(1) }).refine(exactlyOneTarget, targetMessage),
    result: z.object({ id: z.string(), approved: HookVersion.nullable(), current: HookVersion, approval: HookApproval.nullable() }),
  },
  'hooks.readScript': {
    description: "Content of one script a hook references (only paths in that hook's script list; ≤ 1 MiB).",
    // `script` (not `path`): `path` names the workspace folder in every hooks request.
    params: z.object({ ...target, id: z.string().min(1), script: z.string().min(1) }).refine(exactlyOneTarget, targetMessage),
    result: z.object({ path: z.string(), sha256: z.string(), content: z.string(), size: z.number().int(), truncated: z.boolean(), binary: z.boolean() }),
  },
  'hooks.run': {
    description:
      'Runs the approved hooks of one event whose matcher matches `input` (Claude Code semantics), with scripts re-hashed first; unapproved/modified ones are skipped. Every execution is recorded.',
    params: z
      .object({ ...target, event: HookEvent, input: z.record(z.string(), z.unknown()), sessionId: z.string().min(1).optional() })
      .refine(exactlyOneTarget, targetMessage),
    result: HookRunOutcome,
  },
  'hooks.runs': {
    description: 'Run history of a folder (newest first), optionally for one hook.',
    params: z
      .object({ ...target, id: z.string().min(1).optional(), limit: z.number().int().min(1).max(1000).optional() })
      .refine(exactlyOneTarget, targetMessage),
    result: z.object({ runs: z.array(HookRunRecord) }),
  },
  'hooks.history': {
    description: 'Approval audit history of a folder (its trust root) and of user-level hooks, newest first.',
    params: z.object({ ...target, limit: z.number().int().min(1).max(10_000).optional() }).refine(exactlyOneTarget, targetMessage),
    result: z.object({ entries: z.array(HookAuditEntry) }),
  },
  'hooks.allowHttpHost': {
    description: 'Adds (allowed:true) or removes a host http hooks may reach despite the policy (https only, no loopback or private addresses).',
    params: z.object({ host: z.string().min(1).max(253), allowed: z.boolean() }),
    result: z.object({ hosts: z.array(z.string()) }),
  },
});

export const hooksEvents = defineEvents({
  hooksChanged: {
    description:
      'Hooks or their approvals changed: approve/revoke (`reason: approval`), a watched hook file or script changed on disk (`file`), or a run was recorded (`run`). `becameModified` lists hook ids that turned `modified` on disk.',
    payload: z.object({
      workspaceId: z.string().optional(),
      reason: z.enum(['approval', 'file', 'run']).optional(),
      becameModified: z.array(z.string()).optional(),
    }),
  },
});
