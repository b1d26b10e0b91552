import os from 'node:os';
import readline from 'node:readline';
import type { Command } from 'commander';
import type { TranscriptItem } from '../../../shared/contract';
import { resolveDataDir } from '../../core/dataDir';
import { CliError, reportError, withGlobalOptions, type GlobalOptions } from '../context';
import { readServerInfo, RemoteAtrium } from '../remote';
import { describeSession } from './session';
import { SessionPrinter, type PermissionPolicy } from './sessionOutput';

interface PickupOptions extends GlobalOptions {
  url?: string;
  token?: string;
  onPermission?: string;
  follow?: boolean;
}

/**
 * `atrium session pickup CODE` (issue 8 handover): redeems a handover code at the running Atrium
 * (found through `<dataDir>/server.json`, written by `atrium serve`; or `--url` and `--token`),
 * attaches this terminal to the session, prints its recent transcript and then follows it: output
 * as it comes, prompts typed on stdin (one line each), permission requests routed to this terminal
 * (or to any surface; including ones pending when it attached, and ones re-targeted here because
 * their surface detached) answered by `--on-permission`. Ctrl+C or the end of stdin detaches. `--no-follow` attaches and
 * exits (with `--json`: `{"session","surface"}`).
 */
export function registerPickupCommand(session: Command): void {
  withGlobalOptions(session.command('pickup <code>').description('pick up a session handed over from another surface (4-character code, valid 120 s)'))
    .option('--url <origin>', 'the running Atrium (default: the one serving this data directory)')
    .option('--token <token>', 'its server token (default: from the data directory)')
    .option('--on-permission <policy>', 'ask | allow-once | reject', 'ask')
    .option('--no-follow', 'attach and exit instead of following the session')
    .action((code: string, opts: PickupOptions) => pickup(code, opts));
}

async function pickup(code: string, opts: PickupOptions): Promise<void> {
  const json = Boolean(opts.json);
  let remote: RemoteAtrium | null = null;
  try {
    const policy = (opts.onPermission ?? 'ask') as PermissionPolicy;
    if (!['ask', 'allow-once', 'reject'].includes(policy)) throw new CliError(`--on-permission must be one of ask, allow-once, reject, not "${policy}".`, 2);
    if (!/^[A-Za-z0-9]{4}$/.test(code.trim())) throw new CliError(`"${code}" is not a handover code (4 letters or digits).`, 2);
    let origin = opts.url;
    let token = opts.token;
    if (!origin || !token) {
      const info = readServerInfo(resolveDataDir({ flag: opts.dataDir }));
      origin ??= info?.origin;
      token ??= info?.token;
    }
    if (!origin || !token) throw new CliError('No running Atrium found for this data directory. Start `atrium serve` (or allow pickup in the desktop app), or pass --url and --token.');
    remote = await RemoteAtrium.connect(origin, token);
    const clientId = `cli:${safeUser()}@${os.hostname()}`;
    const { session, surface } = await remote.call('sessions.pickup', { code: code.trim(), clientId, kind: 'cli', label: `Terminal ${safeUser()}@${os.hostname()} (pid ${process.pid})` });
    if (opts.follow === false) {
      process.stdout.write(json ? `${JSON.stringify({ session, surface })}\n` : `Picked up: ${describeSession(session)}\n`);
      return;
    }
    const r = remote;
    if (!json) process.stderr.write(`Picked up ${session.id} (${session.agentId}) in ${session.cwd}. Type a prompt and press Enter; Ctrl+C detaches.\n`);
    const printer = new SessionPrinter(
      { subscribe: (l) => r.subscribe(l), answerPermission: (sessionId, requestId, optionId, byPolicy) => r.call('sessions.answerPermission', optionId === null ? { sessionId, requestId, cancelled: true, byPolicy } : { sessionId, requestId, optionId, byPolicy }), surfaceId: surface.surfaceId },
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
      const rl = readline.createInterface({ input: process.stdin, terminal: false });
      rl.on('line', (line) => {
        const text = line.trim();
        if (text) void r.call('sessions.prompt', { sessionId: session.id, text, surfaceId: surface.surfaceId }).catch((error: Error) => process.stderr.write(`atrium: ${error.message}\n`));
      });
      const done = () => {
        rl.close();
        resolve();
      };
      rl.once('close', resolve);
      process.once('SIGINT', done);
    });
    printer.close();
    await r.call('sessions.detach', { sessionId: session.id, surfaceId: surface.surfaceId }).catch(() => undefined);
  } catch (error) {
    reportError(error, json);
  } finally {
    remote?.close();
  }
}

function safeUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    return 'user';
  }
}
