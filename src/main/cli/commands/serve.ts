import path from 'node:path';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { AtriumError } from '../../../shared/errors';
import { resolveDataDir } from '../../core/dataDir';
import { APP_VERSION } from '../../core/version';
import { CliError, reportError, withGlobalOptions, type GlobalOptions } from '../context';
import type { ServerInfo } from '../remote';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** Where the built renderer lives relative to the built CLI (`out/main/cli.js` → `out/renderer`). */
export function defaultRendererDir(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../renderer');
}

/**
 * `atrium serve`: the same app in a browser, over the same engine. One server per data directory:
 * it owns `<dataDir>/server.json` while it runs; while another live server owns it, `atrium serve`
 * exits 1 naming that server's origin and pid (a stale file is replaced).
 */
export function registerServeCommand(program: Command): void {
  withGlobalOptions(program.command('serve').description('serve the Atrium UI to a browser on this machine'))
    .option('--host <host>', 'interface to bind (default 127.0.0.1; anything else exposes Atrium to the network)', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 = pick a free one)', '0')
    .option('--renderer-dir <dir>', 'built renderer to serve (default: the one next to this CLI)')
    .option('--new-token', 'with --port: replace the token kept for this address (open tabs then need the new address)')
    .action(async (opts: GlobalOptions & { host: string; port: string; rendererDir?: string; newToken?: boolean }) => {
      const json = Boolean(opts.json);
      try {
        const port = Number(opts.port);
        if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port must be a whole number from 0 to 65535, not "${opts.port}".`, 2);
        if (['0.0.0.0', '::', '[::]'].includes(opts.host)) {
          // The server only answers requests addressed to the origin it prints (DNS-rebinding
          // protection), and a wildcard address is no origin a browser can use.
          throw new CliError(`--host ${opts.host} binds every interface but is no address a browser can open; pass the one interface address to serve on (e.g. --host 192.168.1.20).`, 2);
        }
        const dataDir = resolveDataDir({ flag: opts.dataDir });
        // one server per data directory: it owns the discovery file `atrium session pickup` reads
        // the engine, the server and the WebSocket code load only when `serve` runs
        const [{ createEngine }, { createDispatcher }, { startServer }, { claimServerInfo, liveServerInfo, removeServerInfo }, { pinnedToken }] = await Promise.all([
          import('../../core/engine'),
          import('../../core/dispatcher'),
          import('../../server/server'),
          import('../remote'),
          import('../../server/serveToken'),
        ]);
        const running = await liveServerInfo(dataDir);
        if (running) throw alreadyServing(running);
        const engine = createEngine({ dataDir, host: { kind: 'serve' } });
        // sessions a crashed Atrium left active (their host is gone) become interrupted; live ones elsewhere are left alone
        engine.sessions.recover();
        const dispatcher = createDispatcher(engine, {
          'app.info': () => ({ version: APP_VERSION, host: 'browser', dataDir, homeDir: os.homedir(), capabilities: { nativeFolderPicker: false } }),
          'app.pickFolder': () => {
            throw new AtriumError('UNSUPPORTED', 'The folder picker exists only in the desktop app; type the folder path instead.');
          },
        });
        // A fixed --port keeps its token across restarts (same data directory), so open tabs reconnect
        // by themselves; port 0 is a new address each time and gets a fresh token (serveToken.ts).
        const hostInUrl = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
        const token = port !== 0 ? pinnedToken(dataDir, `http://${hostInUrl}:${port}`, Boolean(opts.newToken)) : undefined;
        const server = await startServer({ engine, dispatcher, host: opts.host, port, token, rendererDir: path.resolve(opts.rendererDir ?? defaultRendererDir()) });
        // discovery for `atrium session pickup CODE` in a terminal (0600: it holds the token)
        const claim = await claimServerInfo(dataDir, { origin: server.origin, token: server.token, pid: process.pid, startedAt: new Date().toISOString() });
        if (!claim.claimed) {
          // another server started on this data directory meanwhile
          await server.close();
          await engine.close();
          throw alreadyServing(claim.holder);
        }
        engine.sessions.setHostOrigin(server.origin);
        process.on('exit', () => removeServerInfo(dataDir, process.pid, server.token));
        // Handlers go in before the URL is printed: a supervisor that stops the server as soon as it
        // reads the URL must find them installed, not the default handler that exits with no code.
        let stopping = false;
        const stop = async () => {
          if (stopping) return;
          stopping = true;
          removeServerInfo(dataDir, process.pid, server.token);
          await server.close();
          await engine.close();
          process.exit(0);
        };
        process.on('SIGINT', () => void stop());
        process.on('SIGTERM', () => void stop());
        process.stdout.write(json ? `${JSON.stringify({ url: server.url, port: server.port, token: server.token })}\n` : `Atrium is serving at ${server.url}\n`);
        if (!LOOPBACK.has(opts.host)) {
          process.stderr.write(`atrium: warning: bound to ${opts.host}, not loopback: anyone who can reach this address and learns the token can control Atrium.\n`);
        }
        if (!json) process.stdout.write(`Data directory: ${dataDir}. Press Ctrl+C to stop.\n`);
      } catch (error) {
        reportError(error, json);
      }
    });
}

/**
 * The refusal of a second server on one data directory (exit 1): where the running one serves
 * (its origin, never its token) and its pid.
 */
function alreadyServing(holder: ServerInfo): CliError {
  return new CliError(`Atrium is already serving this data directory at ${holder.origin} (pid ${holder.pid}); stop it first or use another --data-dir.`);
}
