import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ClientFrame, ServerFrame } from '../../shared/contract';
import type { Dispatcher } from '../core/dispatcher';
import type { Engine } from '../core/engine';
import { ConnectionSurfaces } from './connectionSurfaces';
import { AUTH_PATH, offersProtocol, TOKEN_PATTERN, tokenUrl, WS_PROTOCOL } from '../../shared/browserAuth';
import { checkTokens, createToken, isSameOrigin, presentedTokens, securityHeaders } from './security';
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
  /** Fixed token (tests; base64url, 16–256 characters); default: a fresh random 256-bit token. */
  token?: string;
}

/** A running browser-mode server. */
export interface RunningServer {
  /** The address to open in a browser: `<origin>/#token=<token>` (the token in the fragment). */
  url: string;
  origin: string;
  port: number;
  token: string;
  /** Closes client sockets and the listener (does not close the engine). */
  close(): Promise<void>;
}

/** Body of every 401: what to do next. */
const UNAUTHORIZED = 'Unauthorized: open the full address `atrium serve` printed (it ends in #token=…); the token changes when the server starts without a fixed --port.\n';

/**
 * The 401 a browser navigation gets (an address with an old `?token=`): a styled page, light or
 * dark with the system, that says what happened and what to do. No script, no external resource;
 * the inline style is allowed by the CSP's `style-src 'unsafe-inline'`. Its one link is this
 * origin's `/` (the app, which waits for a valid token and connects as soon as one arrives).
 */
export const UNAUTHORIZED_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark"><title>Atrium: this address has an old token</title>
<style>
:root { color-scheme: light dark; --bg: #fff; --text: #1f2328; --muted: #636c76; --code: #f2f2f5; --border: #dcdce2; --accent: #2f5fd0; }
@media (prefers-color-scheme: dark) { :root { --bg: #1e1f22; --text: #dfe1e5; --muted: #9197a1; --code: #2a2c30; --border: #34363b; --accent: #8fb0f5; } }
body { margin: 0; background: var(--bg); color: var(--text); font: 14px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, Ubuntu, sans-serif; }
main { max-width: 560px; margin: 12vh auto; padding: 24px 28px; border: 1px solid var(--border); border-radius: 10px; }
h1 { font-size: 18px; margin: 0 0 8px; } p, li { color: var(--text); } .muted { color: var(--muted); }
code { font: 13px ui-monospace, 'SF Mono', Menlo, Consolas, monospace; background: var(--code); padding: 1px 4px; border-radius: 4px; }
a { color: var(--accent); }
</style></head>
<body><main role="main">
<h1>This Atrium address has an old token</h1>
<p>The Atrium server at this address does not accept the token in it: the server was restarted with a new one.</p>
<ol>
<li>Open the full address <code>atrium serve</code> printed when it started (it ends in <code>#token=…</code>). Tabs of this Atrium that are still open reconnect by themselves once you do.</li>
<li>To keep one address across restarts, start it with a fixed port and the same data directory: <code>atrium serve --port 8123</code>.</li>
</ol>
<p class="muted">Or <a href="/">open Atrium without the old token</a>: it connects as soon as this browser has the new address open in another tab.</p>
</main></body></html>
`;

/**
 * Browser mode: serves the built renderer and the contract over one WebSocket (`/ws`), on the
 * same engine the desktop app uses.
 *
 * Who may drive it: whoever presents the token, and nobody else. The token is never put in a
 * cookie. A cookie set for `127.0.0.1` is sent to every server on that address the same browser
 * visits (cookies ignore ports: a dev server, a container port, an `ssh -L` forward), which could
 * then replay it and trust folders or approve hooks. Serving on a unique name
 * (`atrium-<random>.localhost` with a host-only cookie) was rejected: it cannot work for a LAN
 * `--host` (that name resolves to the viewer's own loopback), not every browser resolves
 * `*.localhost`, 127.0.0.1 would still need a second, cookie-less scheme, and the cookie would stay
 * an ambient credential guarded only by the secrecy of a host name. Instead:
 * - the printed address carries the token in the fragment (`/#token=…`, {@link tokenUrl}); a
 *   fragment is never sent to a server, so it reaches no log or proxy. The page moves it into its
 *   own origin's `localStorage` (scheme + host + port: no other port or host name can read it) and
 *   strips it from the address bar, so a reload and a second tab work without the URL;
 * - the WebSocket upgrade must offer it as the `atrium.token.<token>` subprotocol beside
 *   `atrium.v1` (browsers cannot set headers on a WebSocket), or as `Authorization: Bearer`
 *   (CLI); the server selects `atrium.v1`, never echoing the token. Cookies and the query are not
 *   accepted there;
 * - `GET /auth` with `Authorization: Bearer` answers 204 or 401, so a page can tell a stale token
 *   (server restarted) from a server that is down;
 * - the static files (the public renderer build, the same bytes as `out/renderer`) are served
 *   without the token, since a navigation or a `<script>` load cannot carry a non-ambient
 *   credential; nothing in them is data. A request that does present a token (`?token=`, Bearer)
 *   with a wrong one gets 401; a right `?token=` (an address from before the fragment form) is
 *   answered 303 to the same path with the token moved into the fragment. No response sets a cookie.
 *
 * Kept as before: a `Host`/`Origin` that is not the served origin gets 403 on every request and on
 * the upgrade (DNS-rebinding protection, and another loopback port's pages send their own Origin);
 * a missing or wrong token gets 401 on the upgrade and on `/auth`; tokens are compared in constant
 * time; a strict CSP is sent. Engine events are pushed to every connected tab. The session surfaces
 * a tab attached over its socket (`sessions.attach`, `sessions.pickup`) are detached when that
 * socket closes (tab closed or reloaded), so a session never lists a tab that is gone.
 *
 * @throws Error when `options.token` is not a base64url string of 16–256 characters
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? createToken();
  if (!TOKEN_PATTERN.test(token)) throw new Error('The server token must be 16 to 256 base64url characters (it travels as a WebSocket subprotocol).');
  const sockets = new Set<WebSocket>();
  const surfaces = new ConnectionSurfaces((sessionId, surfaceId) => options.dispatcher.dispatch('sessions.detach', { sessionId, surfaceId }));
  let origin = '';

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const headers = securityHeaders([origin.replace(/^http/, 'ws')]);
    const text = (status: number, body: string, extra: Record<string, string> = {}) => {
      res.writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', ...extra });
      res.end(body);
    };
    if (!isSameOrigin(req, origin)) return text(403, 'Forbidden: this server only answers requests addressed to its own origin.\n');
    if (url.pathname === AUTH_PATH) {
      const result = checkTokens(presentedTokens(req, url, ['bearer']), token);
      if (result !== 'ok') return text(401, UNAUTHORIZED, { 'WWW-Authenticate': 'Bearer realm="atrium"' });
      res.writeHead(204, headers);
      res.end();
      return;
    }
    const presented = presentedTokens(req, url, ['bearer', 'query']);
    if (checkTokens(presented, token) === 'wrong') {
      if (!/text\/html/.test(req.headers.accept ?? '')) return text(401, UNAUTHORIZED);
      res.writeHead(401, { ...headers, 'Content-Type': 'text/html; charset=utf-8' });
      res.end(UNAUTHORIZED_PAGE);
      return;
    }
    if (url.searchParams.has('token')) {
      // An address with ?token= (the form before the fragment): move the token where no server sees it again.
      url.searchParams.delete('token');
      res.writeHead(303, { ...headers, Location: `${url.pathname}${url.search}#token=${token}` });
      res.end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, headers);
      res.end();
      return;
    }
    const found = resolveStatic(options.rendererDir, url.pathname);
    if (!found) return text(404, `Not found. If this is a fresh checkout, run \`npm run build\` first.\n`);
    res.writeHead(200, { ...headers, 'Content-Type': found.type });
    if (req.method === 'HEAD') res.end();
    else fs.createReadStream(found.file).pipe(res);
  });

  // Select atrium.v1, never the token protocol (ws would otherwise echo the first one offered).
  const wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 * 1024, handleProtocols: (offered) => (offered.has(WS_PROTOCOL) ? WS_PROTOCOL : false) });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', origin);
    const refuse = (status: string) => {
      socket.write(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
      socket.destroy();
    };
    if (url.pathname !== '/ws') return refuse('404 Not Found');
    if (!isSameOrigin(req, origin)) return refuse('403 Forbidden');
    if (checkTokens(presentedTokens(req, url, ['subprotocol', 'bearer']), token) !== 'ok') return refuse('401 Unauthorized');
    const protocols = req.headers['sec-websocket-protocol'];
    // a browser that offered its token but not atrium.v1 would fail the handshake we could answer
    if (protocols !== undefined && !offersProtocol(protocols)) return refuse('400 Bad Request');
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
    url: tokenUrl(origin, token),
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
 * (The engine counts failures for the dispatch context's caller, the same id; this keeps the
 * params truthful for anything that logs them.)
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
  // the connection is the caller: handover rules (attach, issue, redeem) key on it
  const outcome = await dispatcher.dispatch(frame.method, params, { caller: connectionId });
  surfaces.observe(connectionId, frame.method, params, outcome);
  // the socket closed while the request ran: what it just attached has nobody to show it
  if (ws.readyState !== ws.OPEN && ws.readyState !== ws.CONNECTING) void surfaces.release(connectionId);
  const reply: ServerFrame = outcome.ok ? { id: frame.id, ok: true, result: outcome.result } : { id: frame.id, ok: false, error: outcome.error };
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(reply));
}
