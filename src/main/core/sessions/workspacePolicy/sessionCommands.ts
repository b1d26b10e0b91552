import type { SessionCommand, SessionCommandList, SessionCommandPreview, SessionCommandRun, Session } from '../../../../shared/contract';
import type { CommandRunResult } from '../../../../shared/contract/extensions';
import { AtriumError } from '../../../../shared/errors';
import { SingleUseTokens } from '../../extensions/commands/tokens';
import { findInvocable, invocables, invokeName, type Invocable } from '../../extensions/invocable';
import type { CommandInvocations, ExpansionPlace } from '../../extensions/invocations';
import type { SessionService } from '../service';
import type { SessionCommandSource } from './commandSource';
import type { WorkspacePolicy } from './policy';

/** An expansion whose confirmed shell embeds ran, waiting to be sent once. */
interface RanExpansion {
  sessionId: string;
  id: string;
  kind: Invocable['kind'];
  argumentText: string;
  text: string;
  runs: CommandRunResult['runs'];
}

/** The typed input of a command for a session. */
export interface SessionCommandInput {
  /** Id or unique short name (a leading "/" is ignored). */
  name: string;
  /** Arguments as typed. */
  argumentText: string;
}

/**
 * A session's workspace custom commands and user-invocable skills: listed from
 * the session's snapshot, expanded from the snapshot's frozen templates (a skill body is read and
 * must still match the snapshot's digest, else EXTENSION_CHANGED), with `@path` confined to the
 * session's execution folder, and sent as a prompt whose origin (`/name`) the transcript records.
 * The safety rules are the Extensions tab's (`CommandInvocations.previewIn`): arguments never reach
 * a shell, replacements are literal, and shell embeds run only in a trusted workspace through the
 * single-use token of a preview made for this session. An ACP agent does not know Atrium's skills,
 * so invoking one sends its body with the arguments substituted, not "/skill" text.
 */
export class SessionCommands {
  private readonly ran = new SingleUseTokens<RanExpansion>();

  constructor(
    private readonly policy: WorkspacePolicy,
    private readonly extensions: CommandInvocations,
    private readonly sessions: SessionService,
  ) {}

  /** `sessions.commands`. @throws AtriumError SESSION_NOT_FOUND */
  async list(sessionId: string): Promise<SessionCommandList> {
    const src = await this.policy.commandSource(sessionId);
    const all = invocables(src.catalog);
    const c = src.catalog;
    return {
      from: src.from,
      takenAt: src.takenAt,
      trust: c.trusted ? 'trusted' : 'restricted',
      inactive: c.trusted ? 0 : c.restrictedCounts.commands + c.restrictedCounts.skills,
      commands: all.map((item) => present(all, item)),
    };
  }

  /**
   * `sessions.commandPreview`: the expansion from the session's snapshot; nothing runs.
   * @throws AtriumError SESSION_NOT_FOUND | NOT_FOUND | INVALID_PARAMS | EXTENSION_CHANGED (a skill body changed since the snapshot)
   */
  async preview(sessionId: string, input: SessionCommandInput): Promise<SessionCommandPreview> {
    const src = await this.policy.commandSource(sessionId);
    const preview = await this.extensions.previewIn(src.catalog, input.name, { argumentText: input.argumentText }, placeOf(sessionId, src));
    return { ...preview, from: src.from, takenAt: src.takenAt };
  }

  /**
   * `sessions.runCommandEmbeds`: runs the shell embeds the user confirmed in a preview of this
   * session, and holds the result for one `sendCommand` (the returned `sendToken`).
   * @throws AtriumError SESSION_NOT_FOUND | COMMAND_NOT_CONFIRMED | TRUST_REFUSED | EXTENSION_CHANGED
   */
  async runEmbeds(sessionId: string, confirmToken: string): Promise<SessionCommandRun> {
    const src = await this.policy.commandSource(sessionId);
    const done = await this.extensions.runEmbedsIn(src.catalog, confirmToken, placeOf(sessionId, src));
    const sendToken = this.ran.issue({ sessionId, id: done.id, kind: done.kind, argumentText: done.argumentText, text: done.text, runs: done.runs });
    return { id: done.id, text: done.text, runs: done.runs, sendToken };
  }

  /**
   * `sessions.sendCommand`: expands the command or skill from the session's snapshot and queues the
   * result as a prompt, after recording a `command` notice in the transcript (which item, from
   * where, and what happened to its shell embeds). With `sendToken` the text is exactly the run's
   * (same session, item and argument text); without it embeds stay as written and nothing runs.
   * @throws AtriumError SESSION_NOT_FOUND | NOT_FOUND | INVALID_PARAMS (ambiguous, or the expansion is empty) |
   *   EXTENSION_CHANGED | COMMAND_NOT_CONFIRMED (unknown, used, expired or mismatched send token)
   */
  async send(sessionId: string, input: SessionCommandInput & { sendToken?: string; surfaceId?: string }): Promise<{ promptId: string; position: number; session: Session; text: string; id: string; kind: Invocable['kind'] }> {
    const src = await this.policy.commandSource(sessionId);
    const item = findInvocable(src.catalog, input.name);
    let text: string;
    let embeds: string;
    if (input.sendToken !== undefined) {
      const held = this.ran.take(input.sendToken, (r) => r.sessionId === sessionId && r.id === item.record.id && r.kind === item.kind && r.argumentText === input.argumentText);
      if (!held) throw new AtriumError('COMMAND_NOT_CONFIRMED', 'This run of the shell commands is unknown, already sent, expired or for other arguments. Preview the command again and confirm its shell commands.');
      text = held.text;
      embeds = held.runs.length ? `Ran ${held.runs.length} shell command${held.runs.length === 1 ? '' : 's'} after your confirmation: ${held.runs.map((r) => `${r.command} (exit ${r.exitCode ?? '—'})`).join('; ')}` : '';
    } else {
      const x = await this.extensions.expandIn(src.catalog, item.record.id, { argumentText: input.argumentText }, placeOf(sessionId, src));
      text = x.text;
      embeds = x.embeds.length ? `${x.embeds.length} shell command${x.embeds.length === 1 ? ' was' : 's were'} not run and stay as written: ${x.embeds.join('; ')}` : '';
    }
    if (!text.trim()) throw new AtriumError('INVALID_PARAMS', `/${item.record.id} expands to an empty prompt; nothing was sent. Add text to ${item.record.path}.`);
    const typed = `/${invokeName(invocables(src.catalog), item)}${input.argumentText.trim() ? ` ${input.argumentText.trim()}` : ''}`;
    const origin = src.from === 'snapshot' ? "the session's snapshot" : 'the current workspace files (no snapshot in this process yet)';
    this.sessions.loadForWrite(sessionId).append({
      kind: 'policy_notice',
      data: {
        severity: 'info',
        code: 'command',
        title: `${typed} — ${item.kind === 'skill' ? 'skill' : 'command'} ${item.record.path} (${item.record.source}), expanded by Atrium`,
        detail: [`Expanded from ${origin}${item.record.sha256 ? `, sha256 ${item.record.sha256.slice(0, 12)}…` : ''}; the prompt below is the expansion.`, embeds].filter(Boolean).join('\n'),
      },
    });
    const queued = this.sessions.prompt(sessionId, text, input.surfaceId);
    return { ...queued, text, id: item.record.id, kind: item.kind };
  }
}

const engines = new WeakMap<object, SessionCommands>();

/** The one {@link SessionCommands} of an engine (its send tokens live as long as the engine). */
export function sessionCommandsOf(engine: { policy: WorkspacePolicy; extensions: CommandInvocations; sessions: SessionService }): SessionCommands {
  let found = engines.get(engine);
  if (!found) {
    found = new SessionCommands(engine.policy, engine.extensions, engine.sessions);
    engines.set(engine, found);
  }
  return found;
}

function placeOf(sessionId: string, src: SessionCommandSource): ExpansionPlace {
  return { scope: `session:${sessionId}`, dir: src.execDir, find: findInvocable };
}

function present(all: readonly Invocable[], item: Invocable): SessionCommand {
  const r = item.record;
  const common = { id: r.id, invoke: invokeName(all, item), name: r.name, source: r.source, plugin: r.plugin, path: r.path, sha256: r.sha256, shellEmbeds: [...r.shellEmbeds], argumentHint: r.argumentHint };
  return item.kind === 'skill'
    ? { ...common, kind: 'skill', description: item.record.description || null, arguments: [...item.record.arguments] }
    : { ...common, kind: 'command', description: item.record.description, arguments: [] };
}
