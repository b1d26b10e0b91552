import * as acp from '@agentclientprotocol/sdk';
import { AtriumError } from '../../../shared/errors';
import { CLIENT_CAPABILITIES, connectAgent, describeAgentError } from './acpConnection';
import type { ResolvedAgent } from './agentRegistry';
import { capabilities } from './convert';
import { AgentProcess } from './supervisor';

/** Pages of `session/list` read at most (the agent's cursor is followed until then). */
const MAX_PAGES = 20;

/**
 * Asks an agent which sessions it keeps for `cwd` (ACP `session/list`, gated on
 * `sessionCapabilities.list`), using a short-lived agent process that is killed afterwards. Used
 * to adopt sessions started outside Atrium (peers.md §3: zed#51341).
 * @throws AtriumError AGENT_START_FAILED when the agent cannot start or answer
 */
export async function listAgentSessions(
  agent: ResolvedAgent,
  cwd: string,
  env: Record<string, string>,
  clientInfo: { name: string; version: string },
): Promise<{ supported: boolean; sessions: Array<{ agentSessionId: string; cwd: string; title: string | null; updatedAt: string | null }> }> {
  const proc = AgentProcess.spawn({ command: agent.command, args: agent.args, cwd, env });
  const refuse = async () => ({ outcome: { outcome: 'cancelled' as const } });
  const fail = () => Promise.reject(new AtriumError('UNSUPPORTED', 'Not available while listing sessions.'));
  const conn = connectAgent(proc, {
    onUpdate: () => {},
    requestPermission: refuse,
    readTextFile: fail,
    writeTextFile: fail,
    createTerminal: fail,
    terminalOutput: () => {
      throw new AtriumError('UNSUPPORTED', 'Not available while listing sessions.');
    },
    waitForTerminalExit: fail,
    killTerminal: () => {},
    releaseTerminal: () => {},
  });
  const race = <T>(p: Promise<T>) =>
    Promise.race([
      p,
      proc.exited.then((info): never => {
        throw new Error(info.spawnError ?? `the agent exited (code ${info.code})`);
      }),
    ]);
  try {
    const params: acp.InitializeRequest = { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: CLIENT_CAPABILITIES, clientInfo };
    const initializing = conn.agent.request(acp.methods.agent.initialize, params);
    const init = await race(initializing);
    if (!capabilities(init).list) return { supported: false, sessions: [] };
    const sessions: Array<{ agentSessionId: string; cwd: string; title: string | null; updatedAt: string | null }> = [];
    let cursor: string | null | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const listing = conn.agent.request(acp.methods.agent.session.list, cursor ? { cwd, cursor } : { cwd });
      const res = await race(listing);
      for (const s of res?.sessions ?? []) {
        if (s && typeof s.sessionId === 'string') {
          sessions.push({ agentSessionId: s.sessionId, cwd: typeof s.cwd === 'string' ? s.cwd : cwd, title: s.title ?? null, updatedAt: s.updatedAt ?? null });
        }
      }
      cursor = res?.nextCursor;
      if (!cursor) break;
    }
    return { supported: true, sessions };
  } catch (error) {
    const stderr = proc.stderr.text().trim().split('\n').slice(-5).join('\n');
    throw new AtriumError('AGENT_START_FAILED', `Could not list the agent's sessions: ${describeAgentError(error)}${stderr ? `\n${stderr}` : ''}`);
  } finally {
    conn.close();
    await proc.stop(1000);
  }
}
