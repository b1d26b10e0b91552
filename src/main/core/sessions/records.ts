import type {
  AgentCapabilitiesInfo,
  AgentCommand,
  PausedReason,
  ResumeOutcome,
  Session,
  SessionConfigOption,
  SessionState,
  SessionUsage,
  StopReason,
} from '../../../shared/contract';
import { parseJsonColumn } from '../store/jsonColumn';

/** Atrium's durable record of one session, as held in memory and in the `sessions` row. */
export interface SessionRecord {
  id: string;
  workspaceId: string | null;
  cwd: string;
  additionalDirectories: string[];
  agentId: string;
  agentVersion: string | null;
  agentSessionId: string | null;
  title: string | null;
  state: SessionState;
  stopReason: StopReason | null;
  resume: { outcome: ResumeOutcome; at: string; message: string | null } | null;
  lastError: string | null;
  exit: { code: number | null; signal: string | null; at: string } | null;
  /** The mode the user (or the preset) chose; re-applied after a resume. */
  desiredModeId: string | null;
  modes: { currentModeId: string; available: Array<{ id: string; name: string; description: string | null }> } | null;
  configOptions: SessionConfigOption[];
  usage: SessionUsage | null;
  commands: AgentCommand[];
  capabilities: AgentCapabilitiesInfo | null;
  stderrTail: string;
  lastCommand: { command: string; args: string[] } | null;
  turnCount: number;
  lastSeq: number;
  lastItem: number;
  createdAt: string;
  updatedAt: string;
}

/** The `sessions` table row (schema 3). */
export interface SessionRow {
  id: string;
  workspace_id: string | null;
  cwd: string;
  additional_dirs_json: string;
  agent_id: string;
  agent_version: string | null;
  agent_session_id: string | null;
  title: string | null;
  state: string;
  stop_reason: string | null;
  resume_json: string | null;
  last_error: string | null;
  exit_json: string | null;
  desired_mode_id: string | null;
  modes_json: string | null;
  config_json: string;
  usage_json: string | null;
  commands_json: string;
  capabilities_json: string | null;
  stderr_tail: string;
  last_command_json: string | null;
  turn_count: number;
  last_seq: number;
  last_item: number;
  created_at: string;
  updated_at: string;
}

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

/** Row → record. Corrupt JSON columns fall back to empty values instead of throwing. */
export function fromRow(r: SessionRow): SessionRecord {
  return {
    id: r.id,
    workspaceId: r.workspace_id,
    cwd: r.cwd,
    additionalDirectories: parseJsonColumn(r.additional_dirs_json, []),
    agentId: r.agent_id,
    agentVersion: r.agent_version,
    agentSessionId: r.agent_session_id,
    title: r.title,
    state: r.state as SessionState,
    stopReason: r.stop_reason as StopReason | null,
    resume: parseJsonColumn(r.resume_json, null),
    lastError: r.last_error,
    exit: parseJsonColumn(r.exit_json, null),
    desiredModeId: r.desired_mode_id,
    modes: parseJsonColumn(r.modes_json, null),
    configOptions: parseJsonColumn(r.config_json, []),
    usage: parseJsonColumn(r.usage_json, null),
    commands: parseJsonColumn(r.commands_json, []),
    capabilities: parseJsonColumn(r.capabilities_json, null),
    stderrTail: r.stderr_tail,
    lastCommand: parseJsonColumn(r.last_command_json, null),
    turnCount: r.turn_count,
    lastSeq: r.last_seq,
    lastItem: r.last_item,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Record → named parameters for the INSERT/UPDATE statements below. */
export function toParams(s: SessionRecord): Record<string, unknown> {
  return {
    id: s.id,
    workspace_id: s.workspaceId,
    cwd: s.cwd,
    additional_dirs_json: JSON.stringify(s.additionalDirectories),
    agent_id: s.agentId,
    agent_version: s.agentVersion,
    agent_session_id: s.agentSessionId,
    title: s.title,
    state: s.state,
    stop_reason: s.stopReason,
    resume_json: json(s.resume),
    last_error: s.lastError,
    exit_json: json(s.exit),
    desired_mode_id: s.desiredModeId,
    modes_json: json(s.modes),
    config_json: JSON.stringify(s.configOptions),
    usage_json: json(s.usage),
    commands_json: JSON.stringify(s.commands),
    capabilities_json: json(s.capabilities),
    stderr_tail: s.stderrTail,
    last_command_json: json(s.lastCommand),
    turn_count: s.turnCount,
    last_seq: s.lastSeq,
    last_item: s.lastItem,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
  };
}

const COLUMNS = [
  'id', 'workspace_id', 'cwd', 'additional_dirs_json', 'agent_id', 'agent_version', 'agent_session_id', 'title', 'state',
  'stop_reason', 'resume_json', 'last_error', 'exit_json', 'desired_mode_id', 'modes_json', 'config_json', 'usage_json',
  'commands_json', 'capabilities_json', 'stderr_tail', 'last_command_json', 'turn_count', 'last_seq', 'last_item',
  'created_at', 'updated_at',
];

/** `INSERT INTO sessions` with every column as a named parameter. */
export const INSERT_SESSION_SQL = `INSERT INTO sessions (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})`;
/** `UPDATE sessions` of every column but id. */
export const UPDATE_SESSION_SQL = `UPDATE sessions SET ${COLUMNS.filter((c) => c !== 'id').map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`;

/** Live-only facts the runtime adds to a record to make the contract's {@link Session}. */
export interface LiveFacts {
  live: boolean;
  queue: Session['queue'];
  pendingPermissions: number;
  /** The other live process hosting the session (see `ownership.ts` `hostedElsewhereOf`); default null. */
  hostedElsewhere?: Session['hostedElsewhere'];
}

/**
 * How the message of a resume that failed closed on changed rules starts (the policy's
 * `mismatchMessage`). Sessions stored as `failed` with it before `paused` existed read as paused.
 */
export const RULES_CHANGED_MESSAGE_START = 'Project rule provenance mismatch';

/**
 * Why a session is paused, or null when it is not: a `paused` record (its only reason so far is
 * changed rules), or a `failed` one whose last error is a fail-closed rule mismatch (written before
 * the state existed; it is still resumable the same way).
 */
export function pausedReasonOf(s: Pick<SessionRecord, 'state' | 'lastError'>): PausedReason | null {
  if (s.state === 'paused') return 'rules_changed';
  if (s.state === 'failed' && s.lastError?.startsWith(RULES_CHANGED_MESSAGE_START)) return 'rules_changed';
  return null;
}

/** Record + live facts → the contract's Session. */
export function toSession(s: SessionRecord, live: LiveFacts): Session {
  const pausedReason = pausedReasonOf(s);
  return {
    id: s.id,
    workspaceId: s.workspaceId,
    cwd: s.cwd,
    additionalDirectories: s.additionalDirectories,
    agentId: s.agentId,
    agentVersion: s.agentVersion,
    agentSessionId: s.agentSessionId,
    title: s.title,
    state: pausedReason ? 'paused' : s.state,
    pausedReason,
    live: live.live,
    stopReason: s.stopReason,
    resume: s.resume,
    lastError: s.lastError,
    exit: s.exit,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    queue: live.queue,
    pendingPermissions: live.pendingPermissions,
    modes: s.modes,
    configOptions: s.configOptions,
    usage: s.usage,
    commands: s.commands,
    capabilities: s.capabilities,
    eventCount: s.lastSeq,
    itemCount: s.lastItem,
    hostedElsewhere: live.hostedElsewhere ?? null,
  };
}
