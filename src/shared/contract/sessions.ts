import { z } from 'zod';

/**
 * Agent sessions over ACP. Atrium launches ACP agents as child processes, speaks the Agent
 * Client Protocol as the client, and keeps a durable record of every session: an append-only event
 * log plus projections (transcript items, tool calls, plan, modes, usage) so a session opens without
 * replaying its log. Every surface (UI, browser, CLI) sees the same shapes below.
 *
 * Ids: a session id is Atrium's own (UUID); `agentSessionId` is the id the agent reported (observed,
 * never invented). Transcript items have an integer `id` that is stable within their session and
 * increases in transcript order, so a virtualized list can page with `before`/`after`.
 */

// ---------------------------------------------------------------------------------------------
// Agents

/** Where a runnable agent comes from: installed by Atrium, found on PATH, or a user command. */
export const AgentSource = z.enum(['data-dir', 'path', 'command']);
export type AgentSource = z.infer<typeof AgentSource>;

/**
 * Install state of an agent. `installed`: runnable (see `source`); `available`: an npm preset that
 * `agents.install` can install; `installing`: an install is running; `unavailable`: cannot run and
 * cannot be installed here (e.g. a user command that is not found).
 */
export const AgentInstallState = z.enum(['installed', 'available', 'installing', 'unavailable']);
export type AgentInstallState = z.infer<typeof AgentInstallState>;

/** One agent Atrium can launch: a built-in preset (pinned version) or a user-defined command. */
export const AgentSummary = z.object({
  /** `claude`, `codex`, `gemini`, `opencode`, `qwen`, or a user-defined id. */
  id: z.string(),
  name: z.string(),
  description: z.string(),
  kind: z.enum(['preset', 'user']),
  /** Pinned version for presets; null for user-defined agents. */
  version: z.string().nullable(),
  /** npm package of a preset (null for user-defined agents). */
  package: z.string().nullable(),
  install: z.object({
    state: AgentInstallState,
    source: AgentSource.nullable(),
    /** Install folder (`<dataDir>/agents/<id>@<version>`) or the binary found on PATH. */
    path: z.string().nullable(),
    /** Why the last install failed, or why the agent is unavailable. */
    error: z.string().nullable(),
  }),
  /** The command line Atrium runs (no shell); for a not-yet-installed preset, what it will run. */
  command: z.string(),
  args: z.array(z.string()),
  /** Names of the extra environment variables set for this agent (values are never reported). */
  envNames: z.array(z.string()),
  /**
   * Whether Atrium launches this agent isolated (its preset, or the preset recognised behind its
   * command line, has switches that keep it from loading the repository's hooks and MCP servers by
   * itself); false means Atrium cannot enforce approvals for it (`sessions.agentBehaviour` says why).
   */
  isolated: z.boolean(),
});
export type AgentSummary = z.infer<typeof AgentSummary>;

/** Progress of an agent install; phase `done`/`failed` ends it and carries the updated agent. */
export const AgentInstallProgress = z.object({
  agentId: z.string(),
  version: z.string(),
  phase: z.enum(['started', 'progress', 'done', 'failed']),
  /** One line for a person (npm output line, or the summary). */
  message: z.string(),
  /** Packages fetched so far (counted from npm's http log lines). */
  fetched: z.number().int(),
  /** Milliseconds since the install started. */
  elapsedMs: z.number(),
  agent: AgentSummary.nullable(),
});
export type AgentInstallProgress = z.infer<typeof AgentInstallProgress>;

// ---------------------------------------------------------------------------------------------
// Sessions

/**
 * `starting`: spawning the agent / creating or resuming its session; `idle`: ready for a prompt;
 * `busy`: a turn is running; `awaiting_permission`: a turn waits for the user's permission answer;
 * `interrupted`: a turn or start-up was cut off (Atrium quit or crashed) — resumable;
 * `failed`: the agent crashed or could not start (see `lastError`, `exit`) — resumable on request;
 * `paused`: Atrium refused to re-attach the agent on purpose (see `pausedReason`; `lastError` says
 * what changed) — resumable, and prompts are refused until the user chooses how to go on;
 * `closed`: closed by the user — resumable on request.
 */
export const SessionState = z.enum(['starting', 'idle', 'busy', 'awaiting_permission', 'interrupted', 'failed', 'paused', 'closed']);
export type SessionState = z.infer<typeof SessionState>;

/**
 * Why a session is `paused`. `rules_changed`: the rules (or hook / MCP snapshot inputs) it was given
 * changed since it was created, so its resume failed closed; continue with the current rules
 * (`sessions.resolveRuleMismatch` `continue`) or start a new session with them (`new`).
 */
export const PausedReason = z.enum(['rules_changed']);
export type PausedReason = z.infer<typeof PausedReason>;

/** How the last (re)attachment to the agent's session went. Never silent: also a transcript notice. */
export const ResumeOutcome = z.enum(['resumed', 'loaded', 'replaced-by-new', 'failed']);
export type ResumeOutcome = z.infer<typeof ResumeOutcome>;

/** ACP stop reasons plus Atrium's own `error` (the prompt request failed) and `crashed` (agent died mid-turn). */
export const StopReason = z.enum(['end_turn', 'max_tokens', 'max_turn_requests', 'refusal', 'cancelled', 'error', 'crashed']);
export type StopReason = z.infer<typeof StopReason>;

export const SessionMode = z.object({ id: z.string(), name: z.string(), description: z.string().nullable() });
export type SessionMode = z.infer<typeof SessionMode>;

/** An agent configuration option (ACP `configOptions`: mode, model, effort…). Groups are flattened into `group`. */
export const SessionConfigOption = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  category: z.string().nullable(),
  type: z.enum(['select', 'boolean']),
  currentValue: z.union([z.string(), z.boolean()]),
  options: z.array(z.object({ value: z.string(), name: z.string(), description: z.string().nullable(), group: z.string().nullable() })),
});
export type SessionConfigOption = z.infer<typeof SessionConfigOption>;

/** Context-window usage (ACP `usage_update`): tokens used of `size`, optional cost. */
export const SessionUsage = z.object({
  used: z.number(),
  size: z.number(),
  cost: z.object({ amount: z.number(), currency: z.string() }).nullable(),
});
export type SessionUsage = z.infer<typeof SessionUsage>;

/** A slash command the agent offers (ACP `available_commands_update`). */
export const AgentCommand = z.object({ name: z.string(), description: z.string(), hint: z.string().nullable() });
export type AgentCommand = z.infer<typeof AgentCommand>;

/** What the agent said it supports at `initialize`; the UI shows features from this, not per agent. */
export const AgentCapabilitiesInfo = z.object({
  loadSession: z.boolean(),
  resume: z.boolean(),
  list: z.boolean(),
  close: z.boolean(),
  additionalDirectories: z.boolean(),
  image: z.boolean(),
  audio: z.boolean(),
  embeddedContext: z.boolean(),
  agentName: z.string().nullable(),
  agentTitle: z.string().nullable(),
  agentVersion: z.string().nullable(),
  /** Authentication methods the agent offers (ids and names), for a "log in" hint. */
  authMethods: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type AgentCapabilitiesInfo = z.infer<typeof AgentCapabilitiesInfo>;

/** A prompt waiting behind the running turn. */
export const QueuedPrompt = z.object({ promptId: z.string(), text: z.string(), queuedAt: z.string() });
export type QueuedPrompt = z.infer<typeof QueuedPrompt>;

/**
 * The other Atrium process (a terminal's `atrium session …`, `atrium serve`, the desktop app) whose
 * agent runs a session right now. Only that process can prompt, stop or answer it; other surfaces
 * show the session as it is saved and follow it as the host writes.
 */
export const HostedElsewhere = z.object({
  /** `acp`: an editor drives the session through `atrium acp`. */
  kind: z.enum(['cli', 'serve', 'app', 'acp']),
  pid: z.number().int(),
  /** Where that process answers requests (serve / the app's pickup server), or null (a terminal). */
  origin: z.string().nullable(),
  /** For a person: `a terminal (an atrium session command, pid 123)`, `atrium serve (pid 123) at http://…`. */
  description: z.string(),
});
export type HostedElsewhere = z.infer<typeof HostedElsewhere>;

/** Atrium's durable record of one session, as lists and headers show it. */
export const Session = z.object({
  id: z.string(),
  /** The workspace the session belongs to (null if it was removed from the list; the session stays). */
  workspaceId: z.string().nullable(),
  /** Absolute canonical working directory; immutable once created. */
  cwd: z.string(),
  additionalDirectories: z.array(z.string()),
  agentId: z.string(),
  /** Host binding: the preset version the session was started with (null for user-defined agents). */
  agentVersion: z.string().nullable(),
  /** The agent's own session id, as observed from `session/new` / `session/list`; null until known. */
  agentSessionId: z.string().nullable(),
  title: z.string().nullable(),
  state: SessionState,
  /** Why the session is `paused` (null in every other state). */
  pausedReason: PausedReason.nullable(),
  /** True while an agent process is attached (an idle session may have none after idle shutdown or a restart). */
  live: z.boolean(),
  stopReason: StopReason.nullable(),
  resume: z.object({ outcome: ResumeOutcome, at: z.string(), message: z.string().nullable() }).nullable(),
  lastError: z.string().nullable(),
  /** Exit status of the last agent process that ended unexpectedly. */
  exit: z.object({ code: z.number().int().nullable(), signal: z.string().nullable(), at: z.string() }).nullable(),
  createdAt: z.string(),
  /** Last activity (ISO 8601). */
  updatedAt: z.string(),
  queue: z.array(QueuedPrompt),
  pendingPermissions: z.number().int(),
  modes: z.object({ currentModeId: z.string(), available: z.array(SessionMode) }).nullable(),
  configOptions: z.array(SessionConfigOption),
  usage: SessionUsage.nullable(),
  commands: z.array(AgentCommand),
  capabilities: AgentCapabilitiesInfo.nullable(),
  /** Number of events in the session's log. */
  eventCount: z.number().int(),
  /** Number of transcript items (ids run from 1 to this). */
  itemCount: z.number().int(),
  /** The other live Atrium process hosting the session's agent, or null (hosted here, or by nobody). */
  hostedElsewhere: HostedElsewhere.nullable(),
});
export type Session = z.infer<typeof Session>;

export const ToolKind = z.enum(['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other']);
export type ToolKind = z.infer<typeof ToolKind>;

/** ACP tool call statuses plus `cancelled` (the turn was cancelled while the call was unfinished). */
export const ToolCallStatus = z.enum(['pending', 'in_progress', 'completed', 'failed', 'cancelled']);
export type ToolCallStatus = z.infer<typeof ToolCallStatus>;

export const ToolLocation = z.object({ path: z.string(), line: z.number().int().nullable() });
export type ToolLocation = z.infer<typeof ToolLocation>;

/** A content block reduced for display: text is kept, images/audio keep their mime type only, links keep uri and name. */
export const ContentSummary = z.object({
  type: z.string(),
  text: z.string().nullable(),
  mimeType: z.string().nullable(),
  uri: z.string().nullable(),
  name: z.string().nullable(),
});
export type ContentSummary = z.infer<typeof ContentSummary>;

/** Tool call content: agent output, a file diff (texts capped at 256 KiB, `truncated` then), or a terminal reference. */
export const ToolContent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('content'), content: ContentSummary }),
  z.object({ type: z.literal('diff'), path: z.string(), oldText: z.string().nullable(), newText: z.string(), truncated: z.boolean() }),
  z.object({ type: z.literal('terminal'), terminalId: z.string() }),
]);
export type ToolContent = z.infer<typeof ToolContent>;

export const PermissionOption = z.object({
  optionId: z.string(),
  name: z.string(),
  kind: z.enum(['allow_once', 'allow_always', 'reject_once', 'reject_always']),
});
export type PermissionOption = z.infer<typeof PermissionOption>;

const itemBase = {
  /** Stable within the session; increases in transcript order (1, 2, 3…). */
  id: z.number().int(),
  /** Turn number the item belongs to (1-based); null for items outside turns (start-up notices). */
  turn: z.number().int().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
};

/** A user prompt; `queued` until its turn starts, `dropped` if the queue was cleared or the agent died first. */
export const UserMessageItem = z.object({
  ...itemBase,
  kind: z.literal('user_message'),
  text: z.string(),
  blocks: z.array(ContentSummary),
  promptId: z.string().nullable(),
  status: z.enum(['queued', 'sent', 'dropped', 'replayed']),
});

/**
 * Streamed agent text (Markdown) or thought. Long messages are split into items of at most 32 KiB;
 * `continued` marks an item that continues the previous one.
 */
export const AgentMessageItem = z.object({
  ...itemBase,
  kind: z.enum(['agent_message', 'agent_thought']),
  text: z.string(),
  blocks: z.array(ContentSummary),
  messageId: z.string().nullable(),
  continued: z.boolean(),
});

export const ToolCallItem = z.object({
  ...itemBase,
  kind: z.literal('tool_call'),
  toolCallId: z.string(),
  title: z.string(),
  toolKind: ToolKind,
  status: ToolCallStatus,
  locations: z.array(ToolLocation),
  content: z.array(ToolContent),
  /** The tool's raw input/output as JSON text (capped at 64 KiB), or null. */
  rawInput: z.string().nullable(),
  rawOutput: z.string().nullable(),
});

/** The agent's plan; the latest plan of a turn replaces the earlier one in the same item. */
export const PlanItem = z.object({
  ...itemBase,
  kind: z.literal('plan'),
  entries: z.array(z.object({ content: z.string(), priority: z.enum(['high', 'medium', 'low']), status: z.enum(['pending', 'in_progress', 'completed']) })),
});

/**
 * A permission request as a card: the tool call's title, kind, locations and diffs plus the agent's
 * options. `state` is `pending` until answered; `answeredBy` says who answered (`user`, `hook`,
 * `policy` = a terminal's `--on-permission allow-once|reject`, `cancel` = the turn was cancelled,
 * `shutdown` = the agent or Atrium stopped first, `nobody` = cancelled because no one could answer:
 * the terminal that had to ask had no input, e.g. a CLI run without a TTY and without `--on-permission`).
 */
export const PermissionItem = z.object({
  ...itemBase,
  kind: z.literal('permission'),
  requestId: z.string(),
  toolCallId: z.string().nullable(),
  title: z.string(),
  toolKind: ToolKind,
  locations: z.array(ToolLocation),
  content: z.array(ToolContent),
  rawInput: z.string().nullable(),
  options: z.array(PermissionOption),
  state: z.enum(['pending', 'selected', 'cancelled']),
  optionId: z.string().nullable(),
  answeredBy: z.enum(['user', 'hook', 'policy', 'cancel', 'shutdown', 'nobody']).nullable(),
  /**
   * The attached surface that should answer (the one that sent the prompt, else the
   * earliest attached; re-targeted when it detaches while the request is pending); null = any
   * surface. Recorded with the request, so a surface opened later routes from the item itself.
   * Absent on items recorded before Atrium kept it (treat as null).
   */
  surfaceId: z.string().nullable().optional(),
  /** That surface's label when it was addressed ("Browser tab 3F2A", "Terminal …"), or null. */
  surfaceLabel: z.string().nullable().optional(),
  /** That surface's kind (`app` = a desktop window of this Atrium), or null. */
  surfaceKind: z.enum(['app', 'browser', 'cli']).nullable().optional(),
});
export type PermissionItem = z.infer<typeof PermissionItem>;

/**
 * A reference to a rule file a session was given: identity and digest, never the body
 * (bodies are re-hydrated from the catalog and must match `sha256`, seed §7).
 */
export const PolicyRuleRef = z.object({
  id: z.string(),
  /** Root-relative POSIX path; user files as `~/…`. */
  relativePath: z.string(),
  source: z.enum(['project', 'local', 'user']),
  sha256: z.string(),
  /** Rule format (`agents`, `claude`, `cursor`, …). */
  format: z.string(),
  /** Absolute path of the file when the session took its snapshot (for `file://` links). */
  absolutePath: z.string().nullable(),
});
export type PolicyRuleRef = z.infer<typeof PolicyRuleRef>;

/**
 * Something the user must see: resume outcomes (`code: resume`, with `outcome`), agent exits and
 * start failures (`agent_exit`, `start_failed`, with the stderr tail in `detail`), refused file
 * access (`fs_refused`), agent notices (`agent_notice`), interruptions (`interrupted`).
 * Workspace policy adds `rules_loaded` (static or contextual rules reached the agent:
 * `rules` and `triggerPaths`, never bodies), `rules_native` (files the agent loads by itself),
 * `agent_not_isolated` (at the agent's first start, for an agent Atrium does not isolate: approvals are not enforced for it and what it may load and run by itself),
 * `hooks_skipped` (one line: hooks that do not run because they are not approved, or because a
 * snapshot hook's bytes changed since approval — "skipped: modified since approval"; `link` to the
 * Hooks tab), `hook_run` (a hook decided something), `mcp_withheld`, `rules_accepted` (the user
 * continued with changed rules: the new provenance), `idle_shutdown` and `worktree`.
 */
export const NoticeItem = z.object({
  ...itemBase,
  kind: z.literal('notice'),
  severity: z.enum(['info', 'warning', 'error']),
  code: z.string(),
  title: z.string(),
  detail: z.string().nullable(),
  outcome: ResumeOutcome.nullable(),
  /** Rule references the notice is about (`rules_loaded`, `rules_native`, `rules_accepted`). */
  rules: z.array(PolicyRuleRef).optional(),
  /** Paths (source-project relative) that triggered contextual rules. */
  triggerPaths: z.array(z.string()).optional(),
  /** Where the UI links to: a tab of the session's workspace and the ids to highlight. */
  link: z.object({ tab: z.enum(['rules', 'hooks', 'mcp']), ids: z.array(z.string()) }).optional(),
});

/** End of a turn with its stop reason. */
export const StopItem = z.object({ ...itemBase, kind: z.literal('stop'), stopReason: StopReason, error: z.string().nullable() });

/** One transcript entry. Upsert by `id`: `sessionEvent` re-sends an item whenever it changes (or only its appended text, as an {@link ItemAppend}). */
export const TranscriptItem = z.discriminatedUnion('kind', [UserMessageItem, AgentMessageItem, ToolCallItem, PlanItem, PermissionItem, NoticeItem, StopItem]);
export type TranscriptItem = z.infer<typeof TranscriptItem>;

/** One transcript item that matches a search: its id, kind, occurrences in it and a one-line snippet around the first. */
export const TranscriptSearchMatch = z.object({
  itemId: z.number().int(),
  kind: z.string(),
  count: z.number().int().positive(),
  snippet: z.string(),
});
export type TranscriptSearchMatch = z.infer<typeof TranscriptSearchMatch>;

/**
 * Text appended to a transcript item that only grew (an agent message, thought or user message
 * chunk) since the previous `sessionEvent` that carried it: its text is now `text` appended at
 * character `offset` (UTF-16 code units, i.e. JavaScript string length), and its `updatedAt` is
 * `updatedAt`. A consumer whose copy of the item does not have exactly `offset` characters missed
 * an event (it subscribed mid-stream, or reconnected) and must refetch the item
 * (`sessions.transcript` with `after: itemId - 1, limit: 1`) instead of appending.
 */
export const ItemAppend = z.object({
  itemId: z.number().int().positive(),
  offset: z.number().int().nonnegative(),
  text: z.string(),
  updatedAt: z.string(),
});
export type ItemAppend = z.infer<typeof ItemAppend>;

/** A session with what its view needs besides the transcript. */
export const SessionDetails = Session.extend({
  /** Pending permission requests, oldest first. */
  permissions: z.array(PermissionItem),
  diagnostics: z.object({
    /** The agent's recent stderr (bounded ring buffer, last 64 KiB; from the last process if none runs now). */
    stderrTail: z.string(),
    pid: z.number().int().nullable(),
    command: z.string().nullable(),
    args: z.array(z.string()),
  }),
});
export type SessionDetails = z.infer<typeof SessionDetails>;

/** A session the agent itself lists for a folder (ACP `session/list`), for adoption. */
export const AgentSessionListing = z.object({
  agentSessionId: z.string(),
  cwd: z.string(),
  title: z.string().nullable(),
  updatedAt: z.string().nullable(),
  /** The Atrium session already bound to it, if any. */
  adoptedAs: z.string().nullable(),
});
export type AgentSessionListing = z.infer<typeof AgentSessionListing>;
