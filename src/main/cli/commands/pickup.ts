import os from 'node:os';
import readline from 'node:readline';
import type { Command } from 'commander';
import type { TranscriptItem } from '../../../shared/contract';
import { resolveDataDir } from '../../core/dataDir';
import { CliError, reportError, withGlobalOptions, type GlobalOptions } from '../context';
import type { RemoteAtrium } from '../remote';
import { describeSession } from './session';
import { answerParams, SessionPrinter, type PermissionPolicy } from './sessionOutput';

interface PickupOptions extends GlobalOptions {
  url?: string;
  token?: string;
  tokenStdin?: boolean;
  onPermission?: string;
  follow?: boolean;
}

/** Environment variable `atrium session pickup` reads the server token from (with `--url`). */
export const TOKEN_ENV = 'ATRIUM_TOKEN';

/**
 * `atrium session pickup CODE`: redeems a handover code at the running Atrium, attaches this
 * terminal to the session, prints its recent transcript and then follows it: output as it comes,
 * prompts typed on stdin (one line each), permission requests routed to this terminal (or to any
 * surface; including ones pending when it attached, and ones re-targeted here because their surface
 * detached) answered by `--on-permission`. Ctrl+C or the end of stdin detaches. `--no-follow`
 * attaches and exits (with `--json`: `{"session","surface"}`).
 *
 * The server is the one `<dataDir>/server.json` (0600, written by `atrium serve` or the desktop
 * app's pickup server) names, with its token; or `--url` with the token in `$ATRIUM_TOKEN` or on
 * the first line of stdin (`--token-stdin`; prompts follow on the next lines). `$ATRIUM_TOKEN` is
 * read only with `--url`, and the data directory's token is sent only to the origin that file
 * names, never to another `--url`. A token in argv (`--token`) is refused with a usage error
 * (exit 2): every local user can read another's command line (`ps`, `/proc/<pid>/cmdline`).
 */
export function registerPickupCommand(session: Command): void {
  withGlobalOptions(session.command('pickup <code>').description('pick up a session handed over from another surface (4-character code, valid 120 s)'))
    .option('--url <origin>', 'the running Atrium (default: the one serving this data directory)')
    .option('--token <token>', 'refused: a token on the command line is visible to every local user; use $ATRIUM_TOKEN or --token-stdin')
    .option('--token-stdin', 'read the server token from the first line of stdin (prompts follow on the next lines)')
    .option('--on-permission <policy>', 'ask | allow-once | reject', 'ask')
    .option('--no-follow', 'attach and exit instead of following the session')
    .action((code: string, opts: PickupOptions) => pickup(code, opts));
}

async function pickup(code: string, opts: PickupOptions): Promise<void> {
  const json = Boolean(opts.json);
  let remote: RemoteAtrium | null = null;
  const input = new StdinLines();
  try {
    const policy = (opts.onPermission ?? 'ask') as PermissionPolicy;
    if (!['ask', 'allow-once', 'reject'].includes(policy)) throw new CliError(`--on-permission must be one of ask, allow-once, reject, not "${policy}".`, 2);
    if (!/^[A-Za-z0-9]{4}$/.test(code.trim())) throw new CliError(`"${code}" is not a handover code (4 letters or digits).`, 2);
    if (opts.token !== undefined) {
      throw new CliError(`--token puts the server token on the command line, where every local user can read it (ps). Pass it in $${TOKEN_ENV} or on stdin with --token-stdin.`, 2);
    }
    let origin = opts.url?.replace(/\/+$/, '');
    if (opts.tokenStdin && !origin) throw new CliError('--token-stdin needs --url (the server the token belongs to).', 2);
    // $ATRIUM_TOKEN belongs with --url; without it the data directory names both server and token
    let token = opts.tokenStdin ? ((await input.next())?.trim() ?? '') : origin ? (process.env[TOKEN_ENV] ?? '').trim() : '';
    if (opts.tokenStdin && !token) throw new CliError('--token-stdin: stdin ended before a token line.', 2);
    // the WebSocket client loads only when a pickup runs
    const { readServerInfo, RemoteAtrium } = await import('../remote');
    if (!token) {
      // the data directory's token belongs to the origin written beside it, never to another --url
      const info = readServerInfo(resolveDataDir({ flag: opts.dataDir }));
      if (info && (origin === undefined || sameOrigin(origin, info.origin))) {
        origin = info.origin;
        token = info.token;
      } else if (info && origin !== undefined) {
        throw new CliError(`--url ${origin} is not the Atrium serving this data directory (${info.origin}); pass its token in $${TOKEN_ENV} or with --token-stdin.`, 2);
      }
    }
    if (!origin || !token) throw new CliError(`No running Atrium found for this data directory. Start \`atrium serve\` (or allow pickup in the desktop app), or pass --url with the token in $${TOKEN_ENV} or --token-stdin.`);
    remote = await RemoteAtrium.connect(origin, token);
    const clientId = `cli:${safeUser()}@${os.hostname()}`;
    const { session, surface } = await remote.call('sessions.pickup', { code: code.trim(), clientId, kind: 'cli', label: `Terminal ${safeUser()}@${os.hostname()} (pid ${process.pid})` });
    if (opts.follow === false) {
      input.close();
      if (json) process.stdout.write(`${JSON.stringify({ session, surface })}\n`);
      else {
        const names = new Map((await remote.call('workspaces.list', {})).workspaces.map((w) => [w.id, w.name]));
        process.stdout.write(`Picked up: ${describeSession(session, (id) => names.get(id) ?? null)}\n`);
      }
      return;
    }
    const r = remote;
    if (!json) process.stderr.write(`Picked up ${session.id} (${session.agentId}) in ${session.cwd}. Type a prompt and press Enter; Ctrl+C detaches.\n`);
    const printer = new SessionPrinter(
      { subscribe: (l) => r.subscribe(l), answerPermission: (sessionId, requestId, optionId, by) => r.call('sessions.answerPermission', answerParams(sessionId, requestId, optionId, by)), surfaceId: surface.surfaceId, item: async (sessionId, itemId) => (await r.call('sessions.transcript', { sessionId, after: itemId - 1, limit: 1 })).items.find((i) => i.id === itemId) ?? null },
      () => session.id,
      json,
      policy,
    );
    const recent = await r.call('sessions.transcript', { sessionId: session.id, limit: 20 });
    if (!json) printer.printItems(recent.items as TranscriptItem[]);
    // requests asked before this terminal attached: answered here when addressed to it or to any surface
    const { session: details } = await r.call('sessions.show', { sessionId: session.id });
    printer.offerPending(details.permissions);
    await new Promise<void>((resolve) => {
      input.follow((line) => {
        const text = line.trim();
        if (text) void r.call('sessions.prompt', { sessionId: session.id, text, surfaceId: surface.surfaceId }).catch((error: Error) => process.stderr.write(`atrium: ${error.message}\n`));
      }, resolve);
      process.once('SIGINT', () => {
        input.close();
        resolve();
      });
    });
    printer.close();
    await r.call('sessions.detach', { sessionId: session.id, surfaceId: surface.surfaceId }).catch(() => undefined);
  } catch (error) {
    reportError(error, json);
  } finally {
    input.close();
    remote?.close();
  }
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

/**
 * Stdin as lines, read lazily (nothing is read until asked, so `--no-follow` without
 * `--token-stdin` never waits on stdin): {@link next} takes one line (the token of
 * `--token-stdin`), {@link follow} hands every later line to a listener until stdin ends.
 */
class StdinLines {
  private rl: readline.Interface | null = null;
  private readonly buffered: string[] = [];
  private ended = false;
  private waiter: ((line: string | null) => void) | null = null;
  private listener: ((line: string) => void) | null = null;
  private onEnd: (() => void) | null = null;

  private open(): void {
    if (this.rl) return;
    this.rl = readline.createInterface({ input: process.stdin, terminal: false });
    this.rl.on('line', (line) => {
      if (this.waiter) {
        const w = this.waiter;
        this.waiter = null;
        w(line);
      } else if (this.listener) this.listener(line);
      else this.buffered.push(line);
    });
    this.rl.once('close', () => {
      this.ended = true;
      this.waiter?.(null);
      this.waiter = null;
      this.onEnd?.();
    });
  }

  /** The next line, or null when stdin has ended. */
  next(): Promise<string | null> {
    this.open();
    if (this.buffered.length) return Promise.resolve(this.buffered.shift()!);
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => (this.waiter = resolve));
  }

  /** Every further line goes to `listener` (buffered ones first); `onEnd` runs when stdin ends. */
  follow(listener: (line: string) => void, onEnd: () => void): void {
    this.open();
    for (const line of this.buffered.splice(0)) listener(line);
    this.listener = listener;
    this.onEnd = onEnd;
    if (this.ended) onEnd();
  }

  /** Stops reading stdin. */
  close(): void {
    this.rl?.close();
    if (!this.rl) this.ended = true;
  }
}

function safeUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    return 'user';
  }
}
