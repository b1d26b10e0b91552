/**
 * A live session's agent-side settings: its mode (`session/set_mode`, recorded for the next start
 * when no agent runs), configuration options (`session/set_config_option`), the mode chosen at
 * start-up, and a terminal's output (live, or the stored tail).
 */
import * as acp from '@agentclientprotocol/sdk';
import { AtriumError } from '../../../shared/errors';
import type { Store } from '../store/database';
import { describeAgentError } from './acpConnection';
import type { JournalEvent } from './events';
import type { SessionRecord } from './records';
import { SessionTables } from './tables';
import type { TerminalManager } from './terminals';

/** The session a setting is applied to: its record, the agent connection to use (null = none), its journal. */
export interface SettingsTarget {
  record: SessionRecord;
  conn: acp.ClientConnection | null;
  append(event: JournalEvent): void;
}

/**
 * Selects the user's mode (or the preset's safe default, e.g. Claude's `default`) when the agent
 * offers it. A refusal is journaled as a warning notice, never thrown.
 */
export async function applyDesiredMode(s: SettingsTarget, presetMode: string | null): Promise<void> {
  const r = s.record;
  const desired = r.desiredModeId ?? presetMode;
  if (!desired || !r.modes || r.modes.currentModeId === desired || !r.modes.available.some((m) => m.id === desired)) return;
  try {
    await s.conn!.agent.request(acp.methods.agent.session.setMode, { sessionId: r.agentSessionId!, modeId: desired });
    s.append({ kind: 'mode_set', data: { modeId: desired } });
  } catch (error) {
    s.append({ kind: 'update', data: { update: { sessionUpdate: 'notice', severity: 'warning', title: `Could not switch to mode "${desired}": ${describeAgentError(error)}` } } });
  }
}

/**
 * Switches mode: through `session/set_mode` when `s.conn` is given (a live agent); without one the
 * choice is recorded and applied at the next start.
 * @throws AtriumError AGENT_UNSUPPORTED (mode not offered) | AGENT_ERROR
 */
export async function setMode(s: SettingsTarget, modeId: string): Promise<void> {
  const modes = s.record.modes;
  if (!modes || !modes.available.some((m) => m.id === modeId)) {
    throw new AtriumError('AGENT_UNSUPPORTED', `The agent offers no mode "${modeId}"${modes ? `; modes: ${modes.available.map((m) => m.id).join(', ')}` : ''}.`);
  }
  if (!s.conn) {
    s.append({ kind: 'mode_set', data: { modeId } });
    return;
  }
  try {
    await s.conn.agent.request(acp.methods.agent.session.setMode, { sessionId: s.record.agentSessionId!, modeId });
  } catch (error) {
    throw new AtriumError('AGENT_ERROR', `The agent refused mode "${modeId}": ${describeAgentError(error)}`);
  }
  s.append({ kind: 'mode_set', data: { modeId } });
}

/**
 * Sets a configuration option through `session/set_config_option` on a started agent.
 * @throws AtriumError AGENT_UNSUPPORTED | AGENT_ERROR
 */
export async function setConfigOption(s: SettingsTarget, configId: string, value: string | boolean): Promise<void> {
  if (!s.record.configOptions.some((o) => o.id === configId)) throw new AtriumError('AGENT_UNSUPPORTED', `The agent offers no configuration option "${configId}".`);
  let res: acp.SetSessionConfigOptionResponse;
  try {
    const params = (typeof value === 'boolean' ? { sessionId: s.record.agentSessionId!, configId, type: 'boolean', value } : { sessionId: s.record.agentSessionId!, configId, value }) as acp.SetSessionConfigOptionRequest;
    res = await s.conn!.agent.request(acp.methods.agent.session.setConfigOption, params);
  } catch (error) {
    throw new AtriumError('AGENT_ERROR', `The agent refused ${configId} = ${String(value)}: ${describeAgentError(error)}`);
  }
  s.append({ kind: 'config_set', data: { configId, value, configOptions: res?.configOptions ?? [] } });
}

/** A terminal's output: live from `terminals`, or the stored tail. @throws AtriumError NOT_FOUND */
export function terminalOutput(terminals: TerminalManager, store: Store, sessionId: string, terminalId: string): { output: string; truncated: boolean; exitStatus: { exitCode: number | null; signal: string | null } | null } {
  if (terminals.has(terminalId)) {
    const out = terminals.output(terminalId);
    return { output: out.output, truncated: out.truncated, exitStatus: out.exitStatus ? { exitCode: out.exitStatus.exitCode ?? null, signal: out.exitStatus.signal ?? null } : null };
  }
  const stored = SessionTables.of(store.db).terminal(sessionId, terminalId);
  if (!stored) throw new AtriumError('NOT_FOUND', `No terminal "${terminalId}" in this session.`);
  return { output: stored.output, truncated: stored.truncated, exitStatus: { exitCode: stored.exitCode, signal: stored.signal } };
}
