import path from 'node:path';
import { AtriumError } from '../shared/errors';
import { claimServerInfo, removeServerInfo } from './cli/remote';
import type { Dispatcher } from './core/dispatcher';
import type { Engine } from './core/engine';
import { startServer, type RunningServer } from './server/server';

/**
 * The desktop app's on-demand browser server ("Allow pickup from a browser"): the same
 * server `atrium serve` runs (loopback only, token, origin checks), on the desktop's engine, so a
 * session handed over on the desktop can be picked up in a browser tab or by `atrium session pickup`
 * (it writes `<data dir>/server.json`, 0600). `set(true)` starts it once and returns its URL with the
 * token (refused with UNSUPPORTED while another server, e.g. `atrium serve`, serves the data directory); `set(false)` stops it. While it runs, the sessions this app hosts record its origin, so
 * `atrium session prompt|resume|rename|close` in a terminal sends them here instead of refusing.
 */
export function createPickupServer(engine: Engine, dispatcher: Dispatcher, outDir: string) {
  let running: RunningServer | null = null;
  return {
    async set(enable: boolean): Promise<{ url: string | null }> {
      if (enable && !running) {
        const server = await startServer({ engine, dispatcher, rendererDir: path.join(outDir, '../renderer') });
        const claim = await claimServerInfo(engine.dataDir, { origin: server.origin, token: server.token, pid: process.pid, startedAt: new Date().toISOString() });
        if (!claim.claimed) {
          // `atrium serve` already serves this data directory: it, not this app, is what pickup reaches
          await server.close();
          throw new AtriumError(
            'UNSUPPORTED',
            `Atrium is already serving this data directory at ${claim.holder.origin} (pid ${claim.holder.pid}); pick up sessions there, or stop it first to allow pickup from this app.`,
          );
        }
        running = server;
        // sessions hosted here now say where other processes can reach them
        engine.sessions.setHostOrigin(running.origin);
      } else if (!enable && running) {
        engine.sessions.setHostOrigin(null);
        await running.close();
        removeServerInfo(engine.dataDir, process.pid, running.token);
        running = null;
        engine.sessions.setHostOrigin(null);
      }
      return { url: running?.url ?? null };
    },
    async close(): Promise<void> {
      await this.set(false);
    },
  };
}
