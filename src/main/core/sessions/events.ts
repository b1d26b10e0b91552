import type * as acp from '@agentclientprotocol/sdk';
import type { AgentCapabilitiesInfo, PolicyRuleRef, ResumeOutcome, SessionState, StopReason } from '../../../shared/contract';
import type { AnsweredBy } from './permissions';

/**
 * A workspace-policy notice: rules that reached the agent, files the agent loads
 * natively, hooks skipped or deciding, withheld MCP servers, accepted rule changes, idle shutdown.
 * Projected as a `notice` transcript item with the same fields. Never carries rule bodies.
 */
export interface PolicyNoticeData {
  severity: 'info' | 'warning' | 'error';
  code: string;
  title: string;
  detail: string | null;
  rules?: PolicyRuleRef[];
  triggerPaths?: string[];
  link?: { tab: 'rules' | 'hooks' | 'mcp'; ids: string[] };
}

/**
 * Where a permission request should be answered: an attached surface, recorded with the
 * request (`permission_requested.route`) and again when it is re-targeted (`permission_routed`,
 * after that surface detached). A null route means any surface; events written before routes were
 * recorded have none (read as null).
 */
export interface PermissionRoute {
  surfaceId: string;
  label: string;
  kind: 'app' | 'browser' | 'cli';
}

/**
 * The kinds of entries in a session's event log (`session_events.kind`) and their data. Every
 * `session/update` from the agent is an `update`; everything Atrium does on the session's behalf
 * (prompts, answers, file and terminal access, lifecycle) has its own kind. Events are appended
 * before they are applied to projections and pushed to clients.
 */
export type JournalEvent =
  | { kind: 'update'; data: { update: acp.SessionUpdate; replay?: boolean } }
  | { kind: 'prompt_queued'; data: { promptId: string; text: string; blocks: unknown[]; queuedAt: string } }
  /**
   * `text`/`blocks`: the prompt as queued; its user message enters the transcript here, where its
   * turn starts (logs written before they were recorded put it in at `prompt_queued`).
   */
  | { kind: 'prompt_sent'; data: { promptId: string; text?: string; blocks?: unknown[] } }
  /**
   * `text`/`blocks`: the prompt as queued; a queued prompt that is dropped (removed from the queue,
   * agent exit, close, stop) enters the transcript here, marked dropped, so its text stays readable
   * and whoever waits for it (a CLI routed to this host) sees it end.
   */
  | { kind: 'prompt_dropped'; data: { promptId: string; reason: string; text?: string; blocks?: unknown[] } }
  | { kind: 'turn_end'; data: { stopReason: StopReason; error: string | null } }
  | { kind: 'cancel_requested'; data: { clearQueue: boolean } }
  | { kind: 'permission_requested'; data: { requestId: string; toolCall: acp.ToolCallUpdate; options: acp.PermissionOption[]; route?: PermissionRoute | null } }
  | { kind: 'permission_routed'; data: { requestId: string; route: PermissionRoute | null; reason: string } }
  | { kind: 'permission_answered'; data: { requestId: string; outcome: 'selected' | 'cancelled'; optionId: string | null; by: AnsweredBy } }
  | { kind: 'state'; data: { state: SessionState; error?: string | null } }
  | { kind: 'agent_started'; data: { pid: number | null; command: string; args: string[]; capabilities: AgentCapabilitiesInfo } }
  | { kind: 'agent_session'; data: { agentSessionId: string; via: 'new' | 'load' | 'resume'; modes: acp.SessionModeState | null; configOptions: unknown[] } }
  | { kind: 'resume'; data: { outcome: ResumeOutcome; message: string | null; replayed: number; imported: boolean } }
  /** `duringStart`: the process ended before its handshake was answered; the `start_failed` that follows says why, with the stderr tail. */
  | { kind: 'agent_exited'; data: { code: number | null; signal: string | null; stderrTail: string; expected: boolean; spawnError: string | null; duringStart?: boolean } }
  /** `command`/`args`: the launch that failed, when a process was spawned (Diagnostics show it; `agent_started` comes only after `initialize`). */
  | { kind: 'start_failed'; data: { message: string; stderrTail: string; command?: string; args?: string[] } }
  | { kind: 'mode_set'; data: { modeId: string } }
  | { kind: 'config_set'; data: { configId: string; value: string | boolean; configOptions: unknown[] } }
  | { kind: 'fs_read'; data: { path: string; line: number | null; limit: number | null; chars: number } }
  | { kind: 'fs_write'; data: { path: string; chars: number } }
  | { kind: 'fs_refused'; data: { op: string; path: string; message: string } }
  | { kind: 'terminal_created'; data: { terminalId: string; command: string; args: string[]; cwd: string | null } }
  | { kind: 'terminal_exited'; data: { terminalId: string; output: string; truncated: boolean; exitCode: number | null; signal: string | null } }
  | { kind: 'interrupted'; data: { reason: string } }
  | { kind: 'title_set'; data: { title: string } }
  | { kind: 'policy_notice'; data: PolicyNoticeData };

export type JournalEventKind = JournalEvent['kind'];

/** Stored terminal output tail per terminal (bytes of text). */
export const STORED_TERMINAL_CHARS = 64 * 1024;
