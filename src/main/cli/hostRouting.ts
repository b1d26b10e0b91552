import os from 'node:os';
import type { PermissionItem, SessionDetails, StopReason, TranscriptItem } from '../../shared/contract';
import { AtriumError } from '../../shared/errors';
import type { Engine } from '../core/engine';
import { describeHost, type SessionHost } from '../core/sessions/ownership';
import { CliError } from './context';
import { readServerInfo, RemoteAtrium, type ServerInfo } from './remote';
import { answerParams, SessionPrinter, type PermissionPolicy, type SessionFeed } from './commands/sessionOutput';

/**
 * Where a CLI command on a session must run: here (nobody else hosts it), at the live host's
 * server (`atrium serve`, or the desktop app with its pickup server on: the same contract requests
 * its UI sends), or nowhere (another terminal hosts it, or a host without a server): then the
 * message says where the session lives and what to do.
 */
export type HostRoute = { kind: 'local' } | { kind: 'remote'; host: SessionHost; server: ServerInfo } | { kind: 'refuse'; message: string };

/**
 * Decides where a command on `sessionId` runs, before any agent starts. The server named in
 * `<dataDir>/server.json` is used only when it is the host itself: same machine, same pid, and the
 * origin the host recorded (when it recorded one yet).
 */
export function routeFor(engine: Engine, dataDir: string, sessionId: string): HostRoute {
  const host = engine.sessions.hostOf(sessionId);
  if (!host) return { kind: 'local' };
  if ((host.kind === 'serve' || host.kind === 'app') && host.hostname === os.hostname()) {
    const server = readServerInfo(dataDir);
    if (server && server.pid === host.pid && (host.origin === null || sameOrigin(host.origin, server.origin))) return { kind: 'remote', host, server };
  }
  return { kind: 'refuse', message: whereItLives(sessionId, host) };
}

/**
 * The refusal for a session another live process hosts: where it lives (the service's
 * {@link describeHost} words) and what to do. E.g. "Session X is running in a terminal (an atrium
 * session command, pid 123); wait for it to finish or stop it there (Ctrl+C)."
 */
export function whereItLives(sessionId: string, host: SessionHost): string {
  const where = `Session ${sessionId} is running in ${describeHost(host)}`;
  switch (host.kind) {
    case 'cli':
      return `${where}; wait for it to finish or stop it there (Ctrl+C).`;
    case 'serve':
      return `${where}; open it there.`;
    case 'acp':
      return `${where}; continue it in that editor, or close it there (the session stays resumable here).`;
    default:
      return `${where}; continue it there, or turn on pickup from a browser in the app so this terminal can send it commands.`;
  }
}

/**
 * The host's answer as this terminal sees it: the session (a `{session}` result) runs in `host`,
 * not here, so its `hostedElsewhere` names the host (the host itself reports null) and
 * `describeSession` says "running in atrium serve (pid …)" instead of "agent running".
 */
function markHosted<T>(result: T, sessionId: string, host: SessionHost): T {
  const session = (result as { session?: { id?: unknown; hostedElsewhere?: unknown } } | null)?.session;
  if (session && session.id === sessionId) session.hostedElsewhere = { kind: host.kind, pid: host.pid, origin: host.origin, description: describeHost(host) };
  return result;
}

/** True for the service's refusal to write a session another live process hosts. */
export function isHostedElsewhere(error: unknown): error is AtriumError {
  return error instanceof AtriumError && error.code === 'SESSION_HOSTED_ELSEWHERE';
}

/**
 * Runs a session command where the session lives: `local()` in this process when nobody else
 * hosts it, else `remote(client)` over the host's WebSocket; refuses (AtriumError
 * SESSION_HOSTED_ELSEWHERE, exit 1) with the {@link whereItLives} message when the host cannot
 * take commands (another terminal, the app without its server, a server that does not answer). A
 * host that claimed the session between the check and the local start (the service throws
 * SESSION_HOSTED_ELSEWHERE) is routed the same way.
 * @throws AtriumError SESSION_HOSTED_ELSEWHERE; what `local`/`remote` throw
 */
export async function onHost<T>(engine: Engine, dataDir: string, sessionId: string, local: () => Promise<T>, remote: (client: RemoteAtrium, server: ServerInfo) => Promise<T>): Promise<T> {
  let route = routeFor(engine, dataDir, sessionId);
  if (route.kind === 'local') {
    try {
      return await local();
    } catch (error) {
      if (!isHostedElsewhere(error)) throw error;
      route = routeFor(engine, dataDir, sessionId);
      if (route.kind === 'local') throw error;
    }
  }
  if (route.kind === 'refuse') throw new AtriumError('SESSION_HOSTED_ELSEWHERE', route.message);
  let client: RemoteAtrium;
  try {
    client = await RemoteAtrium.connect(route.server.origin, route.server.token);
  } catch (error) {
    throw new AtriumError('SESSION_HOSTED_ELSEWHERE', `${whereItLives(sessionId, route.host)} (Its server at ${route.server.origin} does not answer: ${(error as Error).message})`);
  }
  try {
    return markHosted(await remote(client, route.server), sessionId, route.host);
  } finally {
    client.close();
  }
}

/**
 * Sends one prompt to the session at its host and follows it like a local run: the host's pushed
 * events print through {@link SessionPrinter}, permission requests of this prompt's turn are
 * answered by `policy` (requests of other surfaces' turns are left to them), and Ctrl+C cancels
 * the turn at the host (removes the prompt if it is still queued; the host's other queued prompts
 * stay) and makes the exit code 130; a second Ctrl+C stops waiting. The host resumes the agent first when needed.
 * @returns the session as the host shows it after the turn, and the turn's stop reason (`dropped`: it never ran)
 * @throws CliError when the agent cannot resume or the connection to the host closes before the turn ends
 */
export async function promptAtHost(client: RemoteAtrium, server: ServerInfo, sessionId: string, text: string, json: boolean, policy: PermissionPolicy): Promise<{ session: SessionDetails; stop: StopReason | 'dropped' }> {
  const turn = new ForwardedTurn(client, sessionId);
  const printer = new SessionPrinter(turn.feed(), () => sessionId, json, policy);
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    process.exitCode = 130; // as a local run: an interrupted command exits 130
    if (interrupts > 1) process.exit(130);
    process.stderr.write('\nCancelling the turn (Ctrl+C again to stop waiting)…\n');
    turn.cancel();
  };
  try {
    const { session: resumed } = await client.call('sessions.resume', { sessionId });
    if (resumed.state === 'failed') throw new CliError(`The agent could not resume: ${resumed.lastError ?? 'unknown error'}`);
    if (!json) process.stderr.write(`Session ${sessionId} runs in the Atrium at ${server.origin} (pid ${server.pid}); this terminal follows the turn there.\n`);
    process.on('SIGINT', onSigint);
    const { promptId } = await client.call('sessions.prompt', { sessionId, text });
    const stop = await turn.wait(promptId);
    const { session } = await client.call('sessions.show', { sessionId });
    return { session, stop };
  } finally {
    process.off('SIGINT', onSigint);
    printer.close();
    turn.close();
  }
}

/**
 * One prompt followed at a remote host: learns from the pushed transcript when the prompt's turn
 * starts (its user message is `sent` with a turn number) and ends (the stop item of that turn; a
 * `dropped` message never ran), and filters the permission requests a printer may answer to that
 * turn's. Events that arrive before the prompt's id is known are kept and looked at once it is.
 */
class ForwardedTurn {
  private promptId: string | null = null;
  private turn: number | null = null;
  private status: 'queued' | 'sent' | 'done' = 'queued';
  private readonly seen: TranscriptItem[] = [];
  private readonly heldPermissions: Array<{ event: string; payload: unknown }> = [];
  private readonly printerListeners = new Set<(event: string, payload: unknown) => void>();
  private settle: ((stop: StopReason | 'dropped') => void) | null = null;
  private fail: ((error: Error) => void) | null = null;
  private outcome: StopReason | 'dropped' | null = null;
  private readonly unsubscribe: () => void;
  private readonly onClosed: () => void;

  constructor(
    private readonly client: RemoteAtrium,
    private readonly sessionId: string,
  ) {
    this.unsubscribe = client.subscribe((event, payload) => this.onEvent(event, payload));
    this.onClosed = () => this.fail?.(new CliError(`The connection to the Atrium hosting session ${sessionId} closed before the turn ended; the session goes on there (see: atrium session show ${sessionId}).`));
    client.onClose(this.onClosed);
  }

  /** The feed a printer reads: the host's events, permission requests only of this prompt's turn. */
  feed(): SessionFeed {
    return {
      subscribe: (listener) => {
        this.printerListeners.add(listener);
        return () => this.printerListeners.delete(listener);
      },
      answerPermission: (sessionId, requestId, optionId, by) => this.client.call('sessions.answerPermission', answerParams(sessionId, requestId, optionId, by)),
    };
  }

  /** Resolves with the turn's stop reason once it ended (or `dropped`). @throws CliError when the connection closes first */
  wait(promptId: string): Promise<StopReason | 'dropped'> {
    this.promptId = promptId;
    return new Promise<StopReason | 'dropped'>((resolve, reject) => {
      this.settle = resolve;
      this.fail = reject;
      for (const item of this.seen.splice(0)) this.look(item);
      this.releasePermissions();
      if (this.outcome) resolve(this.outcome);
    });
  }

  /** Cancels this prompt at the host: removed from the queue if waiting, else its running turn is stopped. */
  cancel(): void {
    if (this.status === 'done') return;
    const sessionId = this.sessionId;
    const done = (error: Error) => process.stderr.write(`atrium: ${error.message}\n`);
    if (this.status === 'queued' && this.promptId) {
      void this.client
        .call('sessions.dequeue', { sessionId, promptId: this.promptId })
        .then((r) => (r.removed ? undefined : this.client.call('sessions.cancel', { sessionId, clearQueue: false })))
        .catch(done);
    } else {
      void this.client.call('sessions.cancel', { sessionId, clearQueue: false }).catch(done);
    }
  }

  /** Stops listening. */
  close(): void {
    this.unsubscribe();
    this.client.offClose(this.onClosed);
    this.printerListeners.clear();
  }

  private onEvent(event: string, payload: unknown): void {
    const p = payload as { sessionId?: string; session?: { id: string }; items?: unknown; permission?: PermissionItem };
    if ((p.sessionId ?? p.session?.id) !== this.sessionId) return;
    if (event === 'sessionUpdated') this.checkGone(payload as { session: { live: boolean; state: string; stopReason: StopReason | null } });
    if (event === 'permissionRequested') {
      this.heldPermissions.push({ event, payload });
      this.releasePermissions();
    } else {
      for (const l of this.printerListeners) l(event, payload);
    }
    if (event === 'sessionEvent' && Array.isArray(p.items)) {
      for (const item of p.items as TranscriptItem[]) {
        if (this.promptId === null) this.seen.push(item);
        else this.look(item);
      }
      this.releasePermissions();
    }
  }

  /** Hands the printer the held requests of this prompt's turn; drops those of other turns once that is known. */
  private releasePermissions(): void {
    if (this.status === 'done') {
      this.heldPermissions.length = 0;
      return;
    }
    if (this.turn === null) return;
    for (const held of this.heldPermissions.splice(0)) {
      if ((held.payload as { permission?: PermissionItem }).permission?.turn !== this.turn) continue;
      for (const l of this.printerListeners) l(held.event, held.payload);
    }
  }

  private look(item: TranscriptItem): void {
    if (this.status === 'done') return;
    if (item.kind === 'user_message' && item.promptId === this.promptId) {
      if (item.status === 'dropped') this.end('dropped');
      else if (item.status === 'sent' && item.turn !== null) {
        this.turn = item.turn;
        this.status = 'sent';
      }
      return;
    }
    if (item.kind === 'stop' && this.turn !== null && item.turn === this.turn) this.end(item.stopReason);
  }

  /**
   * The host's agent is gone (crash, close, shutdown) while this prompt waited: the transcript is
   * read once more for the turn's end, else the prompt counts as crashed (it ran) or dropped.
   */
  private checkGone(payload: { session: { live: boolean; state: string; stopReason: StopReason | null } }): void {
    const { session } = payload;
    if (this.status === 'done' || this.promptId === null || session.live || !['interrupted', 'failed', 'closed'].includes(session.state)) return;
    void this.client
      .call('sessions.transcript', { sessionId: this.sessionId, limit: 200 })
      .then((page) => {
        for (const item of page.items) this.look(item);
        if (this.status !== 'done') this.end(this.status === 'sent' ? (session.stopReason ?? 'crashed') : 'dropped');
      })
      .catch(() => undefined);
  }

  private end(stop: StopReason | 'dropped'): void {
    this.status = 'done';
    this.outcome = stop;
    this.heldPermissions.length = 0;
    this.settle?.(stop);
  }
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}
