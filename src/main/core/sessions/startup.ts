/**
 * Pieces of a live session's agent start-up that need none of its state: the environment an agent
 * gets, requests that fail as soon as the process exits, the ACP handshake (`initialize`, then
 * attaching the session, journaled), and the message a failed start records.
 */
import * as acp from '@agentclientprotocol/sdk';
import { AtriumError } from '../../../shared/errors';
import { CLIENT_CAPABILITIES, describeAgentError } from './acpConnection';
import { attach, type AttachResult } from './attach';
import { capabilities } from './convert';
import type { JournalEvent } from './events';
import type { HookChain, HookContext } from './hooks';
import type { SessionRecord } from './records';
import type { AgentProcess, ExitInfo } from './supervisor';
import type { UpdateInbox } from './updateInbox';

/** The agent's environment: the user's, then the agent's configured variables, then Atrium's session (and workspace) ids. */
export function agentEnv(base: Record<string, string>, agent: Record<string, string>, record: SessionRecord): Record<string, string> {
  return { ...base, ...agent, ATRIUM_SESSION_ID: record.id, ...(record.workspaceId ? { ATRIUM_WORKSPACE_ID: record.workspaceId } : {}) };
}

/**
 * How far an agent's start-up got: the request it has not answered yet (`initialize`,
 * `session/new`, `session/load`, `session/resume`), or null once the handshake is done. Start-up
 * messages name it: "The agent exited with code 3 before answering initialize."
 */
export interface StartupProgress {
  step: string | null;
}

/** How a process ended, in words: "exited with code 3", "was killed by signal SIGKILL". */
export function howItEnded(info: Pick<ExitInfo, 'code' | 'signal'>): string {
  return info.signal ? `was killed by signal ${info.signal}` : `exited with code ${info.code}`;
}

/**
 * Why a process ended during start-up, as start-up messages say it: `Cannot start "x": ENOENT`,
 * `The agent exited with code 3 before answering initialize.`, or `… during start-up.` once the
 * handshake was answered.
 */
export function exitMessage(info: ExitInfo, command: string, step: string | null = null): string {
  if (info.spawnError) return `Cannot start "${command}": ${info.spawnError}`;
  return `The agent ${howItEnded(info)} ${step ? `before answering ${step}` : 'during start-up'}.`;
}

/**
 * Wraps start-up requests so they reject as soon as the process exits. `progress` names the
 * request being waited for in the message.
 * @throws AtriumError AGENT_START_FAILED (from the returned function) when the process exits first
 */
export function raceExit(proc: AgentProcess, command: string, progress: StartupProgress = { step: null }): <T>(send: () => Promise<T>) => Promise<T> {
  return <T>(send: () => Promise<T>): Promise<T> =>
    Promise.race([
      send(),
      proc.exited.then((info): never => {
        throw new AtriumError('AGENT_START_FAILED', exitMessage(info, command, progress.step));
      }),
    ]);
}

/** How long a failed start waits for the process to exit after its connection broke (ms), so the message can say how it ended. */
const EXIT_AFTER_BROKEN_PIPE_MS = 2000;

/**
 * The process's exit when the start failed because of it: the exit itself when it already
 * happened, else, when the failure is the connection breaking (`write EPIPE`, "ACP connection
 * closed": the agent is dying), the exit if it comes within 2 s; null when the agent is still
 * running (it answered with an error). Never rejects.
 */
export async function exitBehindFailure(proc: AgentProcess, error: unknown, connectionClosed: boolean): Promise<ExitInfo | null> {
  if (!proc.running) return proc.exited;
  if (error instanceof AtriumError || !(connectionClosed || isBrokenPipe(error))) return null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), EXIT_AFTER_BROKEN_PIPE_MS)));
  try {
    return await Promise.race([proc.exited, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A write to or read from a dead process's pipes. */
function isBrokenPipe(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && ['EPIPE', 'ECONNRESET', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END'].includes(code)) return true;
  return /\bEPIPE\b|connection closed|stream (was )?destroyed/i.test(error instanceof Error ? error.message : String(error));
}

/**
 * The message of a failed start: how the process ended when it did (`exit`, naming the request
 * it did not answer), else the error (an Atrium error's own message, an agent error described).
 */
export function startFailureMessage(exit: ExitInfo | null, error: unknown, command: string, step: string | null = null): string {
  if (exit) return exitMessage(exit, command, step);
  return error instanceof AtriumError ? error.message : `The agent could not start the session: ${describeAgentError(error)}`;
}

/** What the handshake needs: the freshly connected agent and the session it attaches. */
export interface HandshakeContext {
  conn: acp.ClientConnection;
  proc: AgentProcess;
  launch: { command: string; args: string[] };
  /** Requests that fail when the process exits (see {@link raceExit}). */
  request: <T>(send: () => Promise<T>) => Promise<T>;
  /** Updated with the request the agent has to answer next (messages name it). */
  progress: StartupProgress;
  clientInfo: { name: string; version: string };
  record: SessionRecord;
  /** True when the session's conversation is already stored (a `session/load` replay is then only counted). */
  hasConversation: () => boolean;
  inbox: UpdateInbox;
  append(event: JournalEvent): void;
  hooks: HookChain;
  hookContext(): HookContext;
}

/**
 * `initialize`, then `session/new` or the resume chain (see `attach`), each step journaled
 * (`agent_started`, `agent_session`, `resume` unless the session is new). Updates that arrive before
 * the agent's session id is known are held by the inbox and handled once it is.
 * @throws what `initialize` or `attach` throw (AGENT_START_FAILED when the process exits meanwhile)
 */
export async function handshake(h: HandshakeContext): Promise<AttachResult> {
  const r = h.record;
  const params: acp.InitializeRequest = { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: h.hooks.clientCapabilities(h.hookContext(), CLIENT_CAPABILITIES), clientInfo: h.clientInfo };
  const initialize = () => h.conn.agent.request(acp.methods.agent.initialize, params);
  h.progress.step = 'initialize';
  const init = await h.request(initialize);
  const caps = capabilities(init);
  h.append({ kind: 'agent_started', data: { pid: h.proc.pid ?? null, command: h.launch.command, args: h.launch.args, capabilities: caps } });
  h.inbox.beginSetup();
  const hasConversation = h.hasConversation();
  const result = await attach({
    conn: h.conn,
    caps,
    agentSessionId: r.agentSessionId,
    params: async (method) => {
      h.progress.step = `session/${method}`;
      const base: acp.NewSessionRequest = { cwd: r.cwd, mcpServers: [] };
      if (r.additionalDirectories.length && caps.additionalDirectories) base.additionalDirectories = r.additionalDirectories;
      return h.hooks.beforeSessionSetup(h.hookContext(), method, base);
    },
    beginReplay: () => h.inbox.beginReplay(!hasConversation),
    endReplay: () => h.inbox.endReplay(),
    request: h.request,
  });
  h.progress.step = null;
  h.append({ kind: 'agent_session', data: { agentSessionId: result.agentSessionId, via: result.via, modes: result.modes, configOptions: result.configOptions } });
  h.inbox.endSetup();
  if (result.outcome !== 'new') {
    h.append({ kind: 'resume', data: { outcome: result.outcome, message: result.message, replayed: result.replayed, imported: result.outcome === 'loaded' && h.inbox.replayStored && result.replayed > 0 } });
  }
  return result;
}
