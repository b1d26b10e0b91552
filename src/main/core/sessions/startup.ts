/**
 * Pieces of a live session's agent start-up that need none of its state: the environment an agent
 * gets, requests that fail as soon as the process exits, and the message a failed start records.
 */
import { AtriumError } from '../../../shared/errors';
import { describeAgentError } from './acpConnection';
import type { SessionRecord } from './records';
import type { AgentProcess, ExitInfo } from './supervisor';

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
