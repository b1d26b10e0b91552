import { afterEach } from 'vitest';
import WebSocket from 'ws';
import { tokenProtocols } from '../../src/shared/browserAuth';
import type { Dispatcher } from '../../src/main/core/dispatcher';
import type { Engine } from '../../src/main/core/engine';
import { startServer, type RunningServer } from '../../src/main/server/server';
import { testDispatcher } from './sessions';
import { tempDir } from './tempDir';

/** A reply frame of the browser server's WebSocket protocol (`result` typed by the caller). */
export interface Reply<R = unknown> {
  id?: number;
  ok: boolean;
  result?: R;
  error?: { code: string; message?: string };
}

/** A connected browser tab: one WebSocket with the server's origin, offering its token as the subprotocol as the renderer does. */
export interface Tab {
  /** Sends one request frame and resolves with the reply of the same id. */
  call<R = unknown>(method: string, params: unknown): Promise<Reply<R>>;
  /** Closes the socket as a closing tab does; resolves once it is closed. */
  close(): Promise<void>;
}

/** The browser server running on a test engine. */
export interface TestServer {
  engine: Engine;
  /** The dispatcher the server uses ({@link testDispatcher}): tests may call it directly, as the desktop window would. */
  dispatcher: Dispatcher;
  server: RunningServer;
  /** Opens a new tab's WebSocket connection. */
  connect(): Promise<Tab>;
}

/**
 * The browser servers of one test file. Registers a vitest `afterEach` that terminates every
 * socket, closes every server, then closes the engines given to `start` (call it once, at the top
 * level of the file). `start(engine)` serves an empty renderer folder on 127.0.0.1 (random port,
 * random token), as `atrium serve` does.
 */
export function browserServers(): { start(engine: Engine): Promise<TestServer> } {
  const sockets: WebSocket[] = [];
  const servers: RunningServer[] = [];
  const engines: Engine[] = [];
  afterEach(async () => {
    for (const ws of sockets.splice(0)) ws.terminate();
    for (const server of servers.splice(0)) await server.close();
    for (const engine of engines.splice(0)) await engine.close();
  });

  async function connect(s: RunningServer): Promise<Tab> {
    const ws = new WebSocket(`ws://127.0.0.1:${s.port}/ws`, tokenProtocols(s.token), { headers: { Origin: s.origin } });
    sockets.push(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    let next = 1;
    const call = <R>(method: string, params: unknown) =>
      new Promise<Reply<R>>((resolve) => {
        const id = next++;
        const onMessage = (data: WebSocket.RawData) => {
          const frame = JSON.parse(data.toString()) as Reply<R>;
          if (frame.id !== id) return;
          ws.off('message', onMessage);
          resolve(frame);
        };
        ws.on('message', onMessage);
        ws.send(JSON.stringify({ id, method, params }));
      });
    const close = () => new Promise<void>((resolve) => (ws.once('close', () => resolve()), ws.close()));
    return { call, close };
  }

  return {
    async start(engine) {
      engines.push(engine);
      const dispatcher = testDispatcher(engine);
      const server = await startServer({ engine, dispatcher, rendererDir: tempDir('atrium-renderer-') });
      servers.push(server);
      return { engine, dispatcher, server, connect: () => connect(server) };
    },
  };
}
