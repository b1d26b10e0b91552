import { z } from 'zod';
import { defineEvents, defineRequests } from './define';
import { CommandPreview, CommandRunResult, ExtensionSource } from './extensions';
import { HookDecision, HookEvent, HookSkipReason, HookState, McpServerState } from './hooks';
import { PermissionItem, PolicyRuleRef, Session } from './sessions';

/**
 * Sessions that obey the workspace: what a session was given when it was created (an
 * immutable snapshot of the workspace's rules, approved hooks and approved MCP servers), which
 * contextual rules it loaded since, where it runs (the workspace folder or a git worktree), who is
 * attached to it (handover), and the fail-closed state after a static rule changed under a
 * session that is being resumed. Every surface reads the same {@link SessionPolicy}.
 */

/** Where a static or contextual rule reached the agent. */
export const RuleDelivery = z.enum([
  /** ACP embedded resource blocks (`file://` URI per rule file) in a prompt (agent advertises `embeddedContext`). */
  'embedded',
  /** One text block (the rendered `<project-instructions>` form) in a prompt. */
  'text',
  /** Claude Code: appended to the system prompt (`_meta.systemPrompt.append`). */
  'system-prompt',
  /** The error message of a refused write (first-write barrier, seed §7). */
  'write-error',
  /** Claude Code: a hook's deny reason or `additionalContext` (acp.md §7 bridge). */
  'claude-hook',
  /** The agent loads the file by itself (preset declares the format); Atrium did not send it. */
  'native',
]);
export type RuleDelivery = z.infer<typeof RuleDelivery>;

/** The static rules of a session's snapshot (seed §6 static rule pin). */
export const StaticRulesInfo = z.object({
  /** SHA-256 over `"<id>:<sha256>"` lines of every selected static file (native ones included). */
  provenanceSha256: z.string(),
  /** Files Atrium sends (in catalog order). */
  files: z.array(PolicyRuleRef),
  /** Files the agent loads by itself (preset's native formats); listed, never sent twice. */
  native: z.array(PolicyRuleRef),
  /** Files that matched but did not fit the 48 KiB budget. */
  dropped: z.array(z.object({ relativePath: z.string(), reason: z.string() })),
  /** How the sent files reach the agent; null until decided (before the agent started). */
  delivery: RuleDelivery.nullable(),
  /** When they were sent (first prompt or session setup), or null. */
  sentAt: z.string().nullable(),
});
export type StaticRulesInfo = z.infer<typeof StaticRulesInfo>;

/** What made a contextual rule load (seed §6 path mapping). */
export const RuleTrigger = z.enum(['read', 'write', 'terminal', 'tool', 'permission']);
export type RuleTrigger = z.infer<typeof RuleTrigger>;

/** A contextual rule the session loaded (references and trigger paths only; never the body). */
export const LoadedContextualRule = PolicyRuleRef.extend({
  /** Root-relative paths (in the source project) that selected it. */
  triggerPaths: z.array(z.string()),
  trigger: RuleTrigger,
  /** True when it was loaded by refusing a first write (seed §7 barrier). */
  blockedWrite: z.boolean(),
  delivery: RuleDelivery,
  loadedAt: z.string(),
});
export type LoadedContextualRule = z.infer<typeof LoadedContextualRule>;

/** One hook event the session ran at the ACP boundary, with every handler's result. */
export const SessionHookRun = z.object({
  at: z.string(),
  event: HookEvent,
  /** Claude tool name the event was mapped to (`Write`, `Edit`, `Bash`, …), or null. */
  tool: z.string().nullable(),
  decision: HookDecision,
  reason: z.string().nullable(),
  /** What Atrium did with the decision (e.g. `refused the write`, `sent a follow-up prompt`). */
  effect: z.string().nullable(),
  results: z.array(
    z.object({
      id: z.string(),
      decision: HookDecision,
      exitCode: z.number().int().nullable(),
      skipped: HookSkipReason.nullable(),
      message: z.string().nullable(),
      durationMs: z.number(),
    }),
  ),
});
export type SessionHookRun = z.infer<typeof SessionHookRun>;

/**
 * What a snapshot hook calls besides `command`: its handler type (`command`, `http`, `prompt`…) and
 * an http hook's URL. Absent in snapshots taken before Atrium recorded them.
 */
const hookTarget = { type: z.string().optional(), url: z.string().nullable().optional() };

/** Hooks in a session's snapshot: the approved ones that run, and the ones that never will. */
export const SessionHooksInfo = z.object({
  approved: z.array(z.object({ id: z.string(), digest: z.string(), event: z.string(), runsOn: HookEvent.nullable(), matcher: z.string().nullable(), command: z.string().nullable(), ...hookTarget, file: z.string() })),
  /** Hooks that apply but do not run: not approved, modified since approval, invalid, disabled, restricted. */
  skipped: z.array(z.object({ id: z.string(), event: z.string(), state: HookState, heldBack: z.boolean(), command: z.string().nullable(), ...hookTarget, file: z.string() })),
  /** Most recent runs last (bounded, 200). */
  runs: z.array(SessionHookRun),
});
export type SessionHooksInfo = z.infer<typeof SessionHooksInfo>;

/** A repository MCP server that was not passed to the agent, and why. */
export const WithheldMcpServer = z.object({
  id: z.string(),
  name: z.string(),
  state: McpServerState,
  /** True when the folder is in restricted mode (trust it first). */
  heldBack: z.boolean(),
  reason: z.string(),
});
export type WithheldMcpServer = z.infer<typeof WithheldMcpServer>;

/** Where a session runs. A worktree's path is stored at creation and never recomputed. */
export const ExecutionInfo = z.object({
  kind: z.enum(['folder', 'worktree']),
  /** The agent's working directory (absolute). */
  dir: z.string(),
  /** The source project folder whose rules, trust root and approvals apply. */
  sourceDir: z.string(),
  /** `atrium/<title slug>-<first 8 characters of the session id>` for a worktree, else the folder's current branch (null when not a git checkout or detached). */
  branch: z.string().nullable(),
  /** Commit the worktree was created from, or null. */
  baseCommit: z.string().nullable(),
  /** Uncommitted changes (`git status --porcelain`), null when unknown (not git, removed). */
  dirty: z.boolean().nullable(),
  /** Up to 50 changed paths (porcelain lines). */
  changes: z.array(z.string()),
  /** When the worktree was removed (archive), or null. */
  removedAt: z.string().nullable(),
});
export type ExecutionInfo = z.infer<typeof ExecutionInfo>;

/** A surface attached to a session: the desktop window, a browser tab, a terminal. */
export const AttachedSurface = z.object({
  surfaceId: z.string(),
  kind: z.enum(['app', 'browser', 'cli']),
  label: z.string(),
  /** `owner` attached when opening the session; `pickup` redeemed a handover code. */
  via: z.enum(['owner', 'pickup']),
  attachedAt: z.string(),
});
export type AttachedSurface = z.infer<typeof AttachedSurface>;

/**
 * A secret a page (browser tab, desktop window) generates once and sends with its handover
 * requests, never shown to anyone: it proves "the same page" when the page reconnects on a new
 * connection, since surface ids are visible to every reader. 16-200 characters.
 */
const surfaceKey = z.string().min(16).max(200).optional();

/** A handover code (VibeAround seed 003): 4 characters from `ABCDEFGHJKLMNPQRSTUVWXYZ23456789`, single use. */
export const HandoverCode = z.object({
  code: z.string(),
  sessionId: z.string(),
  /** ISO 8601; 120 seconds after it was issued. */
  expiresAt: z.string(),
});
export type HandoverCode = z.infer<typeof HandoverCode>;

/** What any reader of a session may know about its live handover code: that one exists and until when, never the code (only `sessions.handover` answers it, to its caller). */
export const HandoverStatus = z.object({
  sessionId: z.string(),
  /** ISO 8601; 120 seconds after it was issued. */
  expiresAt: z.string(),
});
export type HandoverStatus = z.infer<typeof HandoverStatus>;

/** One rule file that differs between what a session recorded and the current catalog. */
export const RuleFileChange = z.object({
  relativePath: z.string(),
  source: z.string(),
  change: z.enum(['added', 'removed', 'edited']),
  /** `static` (provenance pin) or `contextual` (a loaded reference that no longer hydrates). */
  scope: z.enum(['static', 'contextual']),
  /** Unified diff of the recorded and current text (when both are known), else null. */
  diff: z.string().nullable(),
});
export type RuleFileChange = z.infer<typeof RuleFileChange>;

/**
 * A resume refused because rules changed (fail closed, seed §6/§7). The session does not continue
 * until the user picks one of `actions`: `continue` (the current rules; the new provenance is
 * recorded in the transcript) or `new` (a new session with the current rules).
 */
export const ProvenanceMismatch = z.object({
  detectedAt: z.string(),
  recordedProvenanceSha256: z.string(),
  currentProvenanceSha256: z.string(),
  changes: z.array(RuleFileChange),
  actions: z.array(z.enum(['continue', 'new'])),
});
export type ProvenanceMismatch = z.infer<typeof ProvenanceMismatch>;

/** What an agent loads or executes from a workspace by itself, and how Atrium launches it to stop unapproved things. */
export const AgentBehaviour = z.object({
  agentId: z.string(),
  /** How to name the agent to people: the preset's name, `<id> (<preset name>)` for a recognised command line, else the id. */
  name: z.string(),
  /** Rule formats the agent reads by itself as Atrium launches it (not sent twice). */
  nativeRuleFormats: z.array(z.string()),
  /** Plain sentences: what the agent itself loads or runs from the workspace (shown in the new-session dialog). */
  ownBehaviour: z.array(z.string()),
  /** The switches Atrium passes so that nothing unapproved runs (empty when the agent offers none). */
  switches: z.array(z.string()),
  /** True when Atrium can stop the agent from running unapproved repository hooks/servers itself. */
  isolated: z.boolean(),
  /** Plain sentences: what trusting a folder lets the agent load from it by itself when Atrium launches it (the trust review). */
  whenTrusted: z.array(z.string()),
});
export type AgentBehaviour = z.infer<typeof AgentBehaviour>;

/** Everything the session view needs about workspace policy. */
export const SessionPolicy = z.object({
  sessionId: z.string(),
  /** Null until the snapshot was taken (the agent's first start). */
  snapshot: z
    .object({
      takenAt: z.string(),
      /** Source project folder the snapshot is of (where rules are matched). */
      sourceDir: z.string(),
      /** Start folder of static rules (in the source project). */
      fromDir: z.string(),
      catalogSha256: z.string(),
      trust: z.enum(['trusted', 'partial', 'restricted']),
    })
    .nullable(),
  staticRules: StaticRulesInfo.nullable(),
  contextualRules: z.array(LoadedContextualRule),
  hooks: SessionHooksInfo,
  mcp: z.object({ passed: z.array(z.string()), withheld: z.array(WithheldMcpServer) }),
  execution: ExecutionInfo,
  surfaces: z.array(AttachedSurface),
  handover: HandoverStatus.nullable(),
  mismatch: ProvenanceMismatch.nullable(),
  agent: AgentBehaviour,
  archivedAt: z.string().nullable(),
});
export type SessionPolicy = z.infer<typeof SessionPolicy>;

/** Settings of the session runtime. */
export const SessionSettings = z.object({
  /** Stop an agent process idle this long; the next prompt resumes it (default 10; 0 = never). */
  idleMinutes: z.number().int().min(0).max(24 * 60),
});
export type SessionSettings = z.infer<typeof SessionSettings>;

// ---------------------------------------------------------------------------------------------
// Workspace commands and skills in a session

/**
 * A workspace custom command or user-invocable skill a session offers in its "/" menu, from the
 * session's snapshot (later disk edits never change what the session was given).
 */
export const SessionCommand = z.object({
  /** Unique among the session's commands and skills: `frontend/x`, `plugin:p:x`, a skill's folder name. */
  id: z.string(),
  /** What to type after "/": the short name when it is unique (and not shadowed), else the id. */
  invoke: z.string(),
  /** Display name (`name` of the file; a skill's frontmatter `name`). */
  name: z.string(),
  /** `command` (`commands/**\/*.md`) or `skill` (`SKILL.md` with `user-invocable` not false). */
  kind: z.enum(['command', 'skill']),
  source: ExtensionSource,
  plugin: z.string().nullable(),
  description: z.string().nullable(),
  argumentHint: z.string().nullable(),
  /** A skill's named arguments (`$name`), in order; empty for commands. */
  arguments: z.array(z.string()),
  /** The file (workspace-relative, `~/…`, or absolute). */
  path: z.string(),
  /** Digest recorded in the snapshot (a skill body read later must still match it). */
  sha256: z.string().nullable(),
  /** The literal shell embeds it would run (only after confirmation, only when trusted). */
  shellEmbeds: z.array(z.string()),
});
export type SessionCommand = z.infer<typeof SessionCommand>;

/** Where a session's commands come from: its snapshot, or (not taken in this process yet) the current bundle. */
export const SessionCommandSource = z.object({
  /**
   * `snapshot`: the session's immutable snapshot. `current`: the workspace's current bundle, used
   * while the session has no snapshot in this Atrium process (after a restart, before its agent
   * starts again); its next start verifies and takes the same bundle.
   */
  from: z.enum(['snapshot', 'current']),
  /** When the snapshot was taken, or null for `current`. */
  takenAt: z.string().nullable(),
});

export const SessionCommandList = SessionCommandSource.extend({
  trust: z.enum(['trusted', 'restricted']),
  /** Project commands and skills that are inactive because the folder is in restricted mode. */
  inactive: z.number().int(),
  commands: z.array(SessionCommand),
});
export type SessionCommandList = z.infer<typeof SessionCommandList>;

/**
 * A command or skill expanded for a session (the same safety as `extensions.commandPreview`):
 * nothing runs; `@path` references resolve inside the session's execution folder (a worktree
 * session's own tree); `confirmToken` is bound to this session, the item and its digest.
 */
export const SessionCommandPreview = CommandPreview.extend({
  kind: z.enum(['command', 'skill']),
  ...SessionCommandSource.shape,
});
export type SessionCommandPreview = z.infer<typeof SessionCommandPreview>;

/** The expansion after its shell embeds ran; `sendToken` sends exactly this text once (`sessions.sendCommand`). */
export const SessionCommandRun = CommandRunResult.extend({
  /** Single-use, valid 10 minutes, bound to the session, the item and the argument text. */
  sendToken: z.string(),
});
export type SessionCommandRun = z.infer<typeof SessionCommandRun>;

const sessionRef = { sessionId: z.string().min(1) };

const commandRef = {
  ...sessionRef,
  /** Command or skill id, or a unique short name (a leading "/" is ignored). */
  name: z.string().min(1).max(500),
  /** The arguments as typed (split shell-style into words for `$0…$9`; `$ARGUMENTS` is this text). */
  argumentText: z.string().max(100_000).default(''),
};

const SurfaceKind = z.enum(['app', 'browser', 'cli']);

export const sessionPolicyRequests = defineRequests({
  'sessions.policy': {
    description: "A session's workspace policy: snapshot rules, loaded contextual rules, hooks run, withheld MCP servers, execution folder/worktree, attached surfaces, handover code, rule mismatch.",
    params: z.object(sessionRef),
    result: z.object({ policy: SessionPolicy }),
  },
  'sessions.resolveRuleMismatch': {
    description:
      'After a resume failed closed on changed rules (the session is `paused`): `continue` records the current rules and resumes; `new` starts a new session with the same agent, folder, mode and title and the current rules (the old one is closed, or left as it is with keepPrevious).',
    params: z.object({ ...sessionRef, action: z.enum(['continue', 'new']), keepPrevious: z.boolean().optional() }),
    result: z.object({ session: Session }),
  },
  'sessions.execution': {
    description: "The session's execution folder or worktree with its branch and current dirty state.",
    params: z.object(sessionRef),
    result: z.object({ execution: ExecutionInfo }),
  },
  'sessions.archive': {
    description:
      'Closes and archives a session. With removeWorktree, its worktree is removed too, but uncommitted work is never lost silently: WORKTREE_DIRTY lists it unless discardChanges is set.',
    params: z.object({ ...sessionRef, removeWorktree: z.boolean().optional(), discardChanges: z.boolean().optional() }),
    result: z.object({ session: Session, execution: ExecutionInfo }),
  },
  'sessions.handover': {
    description:
      'Issues a handover code for a session (4 characters, valid 120 s, single use); redeem with sessions.pickup or `atrium session pickup CODE`. Only this answer carries the code. Only a surface showing the session (or any caller while no other window, tab or terminal shows it) may issue one: HANDOVER_REQUIRED.',
    params: z.object({ ...sessionRef, surfaceKey }),
    result: HandoverCode,
  },
  'sessions.pickup': {
    description:
      'Redeems a handover code and attaches the calling surface to its session. Failed attempts are rate-limited per connection or window (5 per minute; clientId is only used by in-process callers), and throttled to one check per second across clients after 30 failures a minute: HANDOVER_RATE_LIMITED.',
    params: z.object({ code: z.string().min(1).max(16), clientId: z.string().min(1).max(200), kind: SurfaceKind, label: z.string().max(200).optional(), surfaceKey }),
    result: z.object({ session: Session, surface: AttachedSurface }),
  },
  'sessions.attach': {
    description:
      'Attaches a surface (window, tab, terminal) to a session it opened; output fans out to every attached surface. Without a code only a surface this connection already holds, or a new one when this connection already shows the session or no other window, tab or terminal does (else HANDOVER_REQUIRED); with `code`, redeems it as sessions.pickup does.',
    params: z.object({ ...sessionRef, surfaceId: z.string().min(1).max(200).optional(), kind: SurfaceKind, label: z.string().max(200).optional(), code: z.string().min(1).max(16).optional(), surfaceKey }),
    result: z.object({ surface: AttachedSurface, surfaces: z.array(AttachedSurface) }),
  },
  'sessions.detach': {
    description: 'Detaches a surface from a session; only the connection that attached it may (HANDOVER_REQUIRED otherwise).',
    params: z.object({ ...sessionRef, surfaceId: z.string().min(1), surfaceKey }),
    result: z.object({ surfaces: z.array(AttachedSurface) }),
  },
  'sessions.takeOverPermission': {
    description:
      'Addresses a pending permission request to the calling surface ("Answer here instead"): recorded in the transcript and pushed, so the surface asked before shows a notice instead of answer buttons. Only the connection that attached `surfaceId` may (HANDOVER_REQUIRED otherwise); `permission` is null when the request is no longer pending.',
    params: z.object({ ...sessionRef, requestId: z.string().min(1), surfaceId: z.string().min(1), surfaceKey }),
    result: z.object({ permission: PermissionItem.nullable() }),
  },
  'sessions.agentBehaviour': {
    description: 'What an agent loads or executes from a workspace by itself and the switches Atrium launches it with (for the new-session dialog).',
    params: z.object({ agentId: z.string().min(1) }),
    result: z.object({ behaviour: AgentBehaviour }),
  },
  'sessions.settings': {
    description: 'Session runtime settings (idle shutdown).',
    params: z.object({}),
    result: SessionSettings,
  },
  'sessions.setSettings': {
    description: 'Changes session runtime settings; applies to agents that become idle afterwards.',
    params: SessionSettings.partial(),
    result: SessionSettings,
  },
  // workspace commands and skills in a session
  'sessions.commands': {
    description: "The workspace's custom commands and user-invocable skills from the session's snapshot (the current bundle, marked `current`, until the snapshot exists in this process).",
    params: z.object(sessionRef),
    result: SessionCommandList,
  },
  'sessions.commandPreview': {
    description: 'Expands a workspace command or skill for a session from its snapshot, without running anything; lists its shell embeds and returns a confirmation token to run them (trusted workspaces only).',
    params: z.object(commandRef),
    result: SessionCommandPreview,
  },
  'sessions.runCommandEmbeds': {
    description: "Runs the shell embeds of a previewed session command after the user confirmed them (trusted workspaces only; the arguments never reach a shell); returns the expansion and a token to send it.",
    params: z.object({ ...sessionRef, confirmToken: z.string().min(1) }),
    result: SessionCommandRun,
  },
  'sessions.sendCommand': {
    description:
      "Expands a workspace command or skill from the session's snapshot and queues the result as a prompt (the transcript records that it came from /name). Shell embeds stay as written unless `sendToken` from sessions.runCommandEmbeds is given.",
    params: z.object({ ...commandRef, sendToken: z.string().min(1).optional(), surfaceId: z.string().min(1).max(200).optional() }),
    result: z.object({ promptId: z.string(), position: z.number().int(), session: Session, text: z.string(), id: z.string(), kind: z.enum(['command', 'skill']) }),
  },
});

export const sessionPolicyEvents = defineEvents({
  sessionPolicyChanged: {
    description: "A session's policy view changed (snapshot taken, rules loaded, hook run, surfaces, handover, mismatch, worktree); re-read sessions.policy.",
    payload: z.object({ sessionId: z.string(), reason: z.string() }),
  },
});
