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

/** Why a process ended, as start-up messages say it (`Cannot start "x": ENOENT` or `The agent exited during start-up (exit code 1).`). */
function exitMessage(info: ExitInfo, command: string): string {
  return info.spawnError ? `Cannot start "${command}": ${info.spawnError}` : `The agent exited during start-up (${info.signal ? `signal ${info.signal}` : `exit code ${info.code}`}).`;
}

/**
 * Wraps start-up requests so they reject as soon as the process exits.
 * @throws AtriumError AGENT_START_FAILED (from the returned function) when the process exits first
 */
export function raceExit(proc: AgentProcess, command: string): <T>(send: () => Promise<T>) => Promise<T> {
  return <T>(send: () => Promise<T>): Promise<T> =>
    Promise.race([
      send(),
      proc.exited.then((info): never => {
        throw new AtriumError('AGENT_START_FAILED', exitMessage(info, command));
      }),
    ]);
}

/** The message of a failed start: how the process ended when it did (`exit`), else the error (an Atrium error's own message, an agent error described). */
export function startFailureMessage(exit: ExitInfo | null, error: unknown, command: string): string {
  if (exit) return exitMessage(exit, command);
  return error instanceof AtriumError ? error.message : `The agent could not start the session: ${describeAgentError(error)}`;
}

/** What the handshake needs: the freshly connected agent and the session it attaches. */
export interface HandshakeContext {
  conn: acp.ClientConnection;
  proc: AgentProcess;
  launch: { command: string; args: string[] };
  /** Requests that fail when the process exits (see {@link raceExit}). */
  request: <T>(send: () => Promise<T>) => Promise<T>;
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
      const base: acp.NewSessionRequest = { cwd: r.cwd, mcpServers: [] };
      if (r.additionalDirectories.length && caps.additionalDirectories) base.additionalDirectories = r.additionalDirectories;
      return h.hooks.beforeSessionSetup(h.hookContext(), method, base);
    },
    beginReplay: () => h.inbox.beginReplay(!hasConversation),
    endReplay: () => h.inbox.endReplay(),
    request: h.request,
  });
  h.append({ kind: 'agent_session', data: { agentSessionId: result.agentSessionId, via: result.via, modes: result.modes, configOptions: result.configOptions } });
  h.inbox.endSetup();
  if (result.outcome !== 'new') {
    h.append({ kind: 'resume', data: { outcome: result.outcome, message: result.message, replayed: result.replayed, imported: result.outcome === 'loaded' && h.inbox.replayStored && result.replayed > 0 } });
  }
  return result;
}
