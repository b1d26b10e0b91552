import * as acp from '@agentclientprotocol/sdk';
import type { AgentCapabilitiesInfo, ResumeOutcome } from '../../../shared/contract';
import { describeAgentError, isStaleSessionError } from './acpConnection';

/** The result of attaching a freshly started agent to Atrium's session. */
export interface AttachResult {
  /** `new` for a brand-new Atrium session; otherwise the resume outcome to record. */
  outcome: ResumeOutcome | 'new';
  via: 'new' | 'load' | 'resume';
  agentSessionId: string;
  modes: acp.SessionModeState | null;
  configOptions: unknown[];
  /** What was tried and why it failed (for `replaced-by-new`), or null. */
  message: string | null;
  /** Updates the agent replayed during `session/load`. */
  replayed: number;
}

/** What {@link attach} needs from the session runtime. */
export interface AttachContext {
  conn: acp.ClientConnection;
  caps: AgentCapabilitiesInfo;
  /** The agent session id to continue, or null for a new session. */
  agentSessionId: string | null;
  /** Params for session/new|load|resume (cwd, MCP servers, directories, hook additions). */
  params(method: 'new' | 'load' | 'resume'): Promise<acp.NewSessionRequest>;
  /** Replay window around `session/load`: updates in between are counted, not stored again. */
  beginReplay(): void;
  endReplay(): number;
  /** Sends a request, rejecting early if the agent process dies meanwhile. */
  request<T>(send: () => Promise<T>): Promise<T>;
}

/**
 * Creates or re-attaches the agent session, capability-driven (acp.md §1.2, VibeAround's
 * StartupSession): a new Atrium session → `session/new`. A known agent session id →
 * `session/resume` if the agent advertises `sessionCapabilities.resume` (no replay), else
 * `session/load` if it advertises `loadSession` (the agent replays history; those updates are
 * recognised and not stored again), else `session/new` with outcome `replaced-by-new`. A failure of
 * resume or load (a stale id answers -32002 or "not found") falls through the same chain, and the
 * reason is kept in `message`, so the outcome is never silent.
 *
 * @throws the `session/new` error when even a new session cannot be created
 */
export async function attach(ctx: AttachContext): Promise<AttachResult> {
  const tried: string[] = [];
  const id = ctx.agentSessionId;
  if (id !== null) {
    if (ctx.caps.resume) {
      try {
        const p = await ctx.params('resume');
        const res = await ctx.request(() => ctx.conn.agent.request(acp.methods.agent.session.resume, { ...p, sessionId: id }));
        return { outcome: 'resumed', via: 'resume', agentSessionId: id, modes: res?.modes ?? null, configOptions: res?.configOptions ?? [], message: null, replayed: 0 };
      } catch (error) {
        tried.push(`session/resume failed: ${describeAgentError(error)}${isStaleSessionError(error) ? ' (the agent no longer knows this session)' : ''}`);
      }
    } else {
      tried.push('the agent does not offer session/resume');
    }
    if (ctx.caps.loadSession) {
      ctx.beginReplay();
      let replayed = 0;
      try {
        const p = await ctx.params('load');
        const res = await ctx.request(() => ctx.conn.agent.request(acp.methods.agent.session.load, { ...p, sessionId: id }));
        replayed = ctx.endReplay();
        return { outcome: 'loaded', via: 'load', agentSessionId: id, modes: res?.modes ?? null, configOptions: res?.configOptions ?? [], message: tried.length ? tried.join('; ') : null, replayed };
      } catch (error) {
        replayed = ctx.endReplay();
        tried.push(`session/load failed: ${describeAgentError(error)}${replayed ? ` after ${replayed} replayed updates` : ''}`);
      }
    } else {
      tried.push('the agent does not offer session/load');
    }
  }
  const p = await ctx.params('new');
  const res = await ctx.request(() => ctx.conn.agent.request(acp.methods.agent.session.new, p));
  if (!res || typeof res.sessionId !== 'string' || !res.sessionId) throw new Error('The agent answered session/new without a session id.');
  return {
    outcome: id === null ? 'new' : 'replaced-by-new',
    via: 'new',
    agentSessionId: res.sessionId,
    modes: res.modes ?? null,
    configOptions: res.configOptions ?? [],
    message: tried.length ? `Previous agent session ${id}: ${tried.join('; ')}.` : null,
    replayed: 0,
  };
}
