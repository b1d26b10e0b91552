import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ClientFrame, ServerFrame } from '../../shared/contract';
import type { Dispatcher } from '../core/dispatcher';
import type { Engine } from '../core/engine';
import { ConnectionSurfaces } from './connectionSurfaces';
import { TOKEN_COOKIE, createToken, isSameOrigin, presentedToken, securityHeaders, tokensEqual } from './security';
import { resolveStatic } from './static';

/** Options for {@link startServer}. */
export interface ServerOptions {
  engine: Engine;
  dispatcher: Dispatcher;
  /** Built renderer directory (`out/renderer`). */
  rendererDir: string;
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
  /** Port; 0 picks a free one. */
  port?: number;
  /** Fixed token (tests); default: a fresh random 256-bit token. */
  token?: string;
}

/** A running browser-mode server. */
export interface RunningServer {
  url: string;
  origin: string;
  port: number;
  token: string;
  /** Closes client sockets and the listener (does not close the engine). */
  close(): Promise<void>;
}

/**
 * Browser mode: serves the built renderer and the contract over one WebSocket (`/ws`), on the
 * same engine the desktop app uses. Every HTTP request and the WebSocket upgrade need the token
 * (query `?token=` once, then an HttpOnly SameSite=Strict cookie) and a Host/Origin equal to the
 * served origin (DNS-rebinding protection): 401 for a missing/wrong token, 403 for a foreign
 * origin. Engine events are pushed to every connected tab. The session surfaces a tab attached
 * over its socket (`sessions.attach`, `sessions.pickup`) are detached when that socket closes
 * (tab closed or reloaded), so a session never lists a tab that is gone (issue 8).
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? createToken();
  const sockets = new Set<WebSocket>();
  const surfaces = new ConnectionSurfaces((sessionId, surfaceId) => options.dispatcher.dispatch('sessions.detach', { sessionId, surfaceId }));
  let origin = '';

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const headers = securityHeaders(origin);
    if (!isSameOrigin(req, origin)) {
      res.writeHead(403, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Forbidden: this server only answers requests addressed to its own origin.\n');
      return;
    }
    const presented = presentedToken(req, url);
    if (!tokensEqual(presented, token)) {
      res.writeHead(401, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Unauthorized: open the full URL that `atrium serve` printed, including ?token=…\n');
      return;
    }
    if (url.searchParams.has('token')) {
      // First load: move the token into an HttpOnly cookie and drop it from the address bar/history.
      url.searchParams.delete('token');
      res.writeHead(303, {
        ...headers,
        'Set-Cookie': `${TOKEN_COOKIE}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`,
        Location: url.pathname + url.search,
      });
      res.end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, headers);
      res.end();
      return;
    }
    const found = resolveStatic(options.rendererDir, url.pathname);
    if (!found) {
      res.writeHead(404, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(`Not found. If this is a fresh checkout, run \`npm run build\` first.\n`);
      return;
    }
    res.writeHead(200, { ...headers, 'Content-Type': found.type });
    if (req.method === 'HEAD') res.end();
    else fs.createReadStream(found.file).pipe(res);
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 * 1024 });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', origin);
    const refuse = (status: string) => {
      socket.write(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
      socket.destroy();
    };
    if (url.pathname !== '/ws') return refuse('404 Not Found');
    if (!isSameOrigin(req, origin)) return refuse('403 Forbidden');
    if (!tokensEqual(presentedToken(req, url), token)) return refuse('401 Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => {
      const connectionId = `ws-${crypto.randomUUID()}`;
      sockets.add(ws);
      ws.on('close', () => {
        sockets.delete(ws);
        void surfaces.release(connectionId);
      });
      ws.on('message', (data) => void handleFrame(ws, connectionId, data.toString(), options.dispatcher, surfaces));
    });
  });

  const unsubscribe = options.engine.bus.subscribe((event, payload) => {
    const frame = JSON.stringify({ event, payload } satisfies ServerFrame);
    for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(frame);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const hostInUrl = host.includes(':') ? `[${host}]` : host;
  origin = `http://${hostInUrl}:${port}`;

  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    async close() {
      unsubscribe();
      for (const ws of sockets) ws.terminate();
      wss.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/**
 * Params as dispatched for one connection: `sessions.pickup` is rate-limited per client, so its
 * `clientId` is this connection's own id, never a value the client chose (it could rotate it).
 */
export function connectionParams(method: string, params: unknown, connectionId: string): unknown {
  if (method !== 'sessions.pickup' || typeof params !== 'object' || params === null || Array.isArray(params)) return params;
  return { ...params, clientId: connectionId };
}

async function handleFrame(ws: WebSocket, connectionId: string, text: string, dispatcher: Dispatcher, surfaces: ConnectionSurfaces): Promise<void> {
  let frame: ClientFrame;
  try {
    frame = JSON.parse(text) as ClientFrame;
  } catch {
    return; // not JSON: nothing we can answer to
  }
  if (typeof frame?.id !== 'number' || typeof frame.method !== 'string') return;
  const params = connectionParams(frame.method, frame.params, connectionId);
  const outcome = await dispatcher.dispatch(frame.method, params);
  surfaces.observe(connectionId, frame.method, params, outcome);
  // the socket closed while the request ran: what it just attached has nobody to show it
  if (ws.readyState !== ws.OPEN && ws.readyState !== ws.CONNECTING) void surfaces.release(connectionId);
  const reply: ServerFrame = outcome.ok ? { id: frame.id, ok: true, result: outcome.result } : { id: frame.id, ok: false, error: outcome.error };
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(reply));
}
