import type { ClientFrame, ServerFrame } from '../../../shared/contract';
import type { AtriumBridge } from '../../../shared/bridge';
import { tokenProtocols } from '../../../shared/browserAuth';
import type { ConnectionState } from './client';

type Pending = { resolve: (v: Awaited<ReturnType<AtriumBridge['invoke']>>) => void };

/** Where the bridge gets its token: {@link BrowserToken.resolve} in a page. */
export interface BridgeAuth {
  /** The token to connect with, null when the tab has none the server accepts, or `unreachable`. */
  resolve(): Promise<string | null | 'unreachable'>;
}

/** The browser transport, plus {@link reauthenticate} for a token pasted into the address later. */
export type WebSocketBridge = AtriumBridge & {
  onConnection(l: (s: ConnectionState) => void): () => void;
  /** Asks `auth` again and reconnects unless already connected (e.g. the address got a new `#token=`). */
  reauthenticate(): void;
};

const UNAUTHORIZED = {
  code: 'UNAUTHORIZED',
  message: 'This tab has no valid token for this Atrium server. Open the full address `atrium serve` printed (it ends in #token=…); the token changes when the server starts without a fixed `--port`.',
};

/**
 * The browser transport: one WebSocket to `atrium serve`, the token offered as the
 * `atrium.token.<token>` subprotocol (browsers cannot set headers on a WebSocket; no cookie is
 * involved), request/response frames matched by id, pushed events fanned out. Reconnects with
 * backoff; requests made while disconnected wait for the connection; requests in flight when it
 * drops fail with `DISCONNECTED`. A socket that fails before opening makes it ask `auth` again
 * (which asks the server): a refused token puts the bridge in `unauthorized`, where it stops
 * reconnecting and requests fail with `UNAUTHORIZED`, until {@link WebSocketBridge.reauthenticate}.
 */
export function createWebSocketBridge(url: string, auth: BridgeAuth): WebSocketBridge {
  let socket: WebSocket | null = null;
  let token: string | null = null;
  let nextId = 1;
  let state: ConnectionState = 'connecting';
  let retry = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let opening = false;
  const pending = new Map<number, Pending>();
  const queue: ClientFrame[] = [];
  const eventListeners = new Set<(event: string, payload: unknown) => void>();
  const connectionListeners = new Set<(s: ConnectionState) => void>();

  const setState = (s: ConnectionState) => {
    state = s;
    for (const l of connectionListeners) l(s);
  };

  const later = () => {
    // at most 4 s apart, so a server restarted on the same port is found again quickly
    retry = Math.min(retry + 1, 4);
    timer = setTimeout(() => void open(), 250 * 2 ** retry);
  };

  const unauthorized = () => {
    for (const frame of queue.splice(0)) {
      pending.get(frame.id)?.resolve({ ok: false, error: UNAUTHORIZED });
      pending.delete(frame.id);
    }
    setState('unauthorized');
  };

  const open = async () => {
    timer = null;
    if (opening) return;
    opening = true;
    try {
      setState('connecting');
      if (token === null) {
        const found = await auth.resolve();
        if (found === null) return unauthorized();
        if (found === 'unreachable') {
          setState('closed');
          return later();
        }
        token = found;
      }
    } finally {
      opening = false;
    }
    const ws = new WebSocket(url, tokenProtocols(token));
    socket = ws;
    let opened = false;
    ws.onopen = () => {
      opened = true;
      retry = 0;
      setState('open');
      for (const frame of queue.splice(0)) ws.send(JSON.stringify(frame));
    };
    ws.onmessage = (msg) => {
      const frame = JSON.parse(String(msg.data)) as ServerFrame;
      if ('event' in frame) {
        for (const l of eventListeners) l(frame.event, frame.payload);
        return;
      }
      const p = pending.get(frame.id);
      if (!p) return;
      pending.delete(frame.id);
      p.resolve(frame.ok ? { ok: true, result: frame.result } : { ok: false, error: frame.error });
    };
    ws.onclose = () => {
      const queued = new Set(queue.map((f) => f.id));
      for (const [id, p] of pending) {
        if (queued.has(id)) continue; // never sent: it waits for the next connection
        pending.delete(id);
        p.resolve({ ok: false, error: { code: 'DISCONNECTED', message: 'Lost the connection to Atrium. Is `atrium serve` still running?' } });
      }
      // refused before opening: the token may be stale (server restarted), so ask again
      if (!opened) token = null;
      setState('closed');
      later();
    };
  };
  void open();

  return {
    invoke(method, params) {
      return new Promise((resolve) => {
        if (state === 'unauthorized') return resolve({ ok: false, error: UNAUTHORIZED });
        const frame: ClientFrame = { id: nextId++, method, params };
        pending.set(frame.id, { resolve });
        if (state === 'open' && socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
        else queue.push(frame);
      });
    },
    onEvent(listener) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    onConnection(listener) {
      connectionListeners.add(listener);
      listener(state);
      return () => connectionListeners.delete(listener);
    },
    reauthenticate() {
      if (state === 'open') return;
      if (timer) clearTimeout(timer);
      token = null;
      retry = 0;
      void open();
    },
  };
}
