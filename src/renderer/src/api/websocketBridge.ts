import type { ClientFrame, ServerFrame } from '../../../shared/contract';
import type { AtriumBridge } from '../../../shared/bridge';
import type { ConnectionState } from './client';

type Pending = { resolve: (v: Awaited<ReturnType<AtriumBridge['invoke']>>) => void };

/**
 * The browser transport: one WebSocket to `atrium serve`, request/response frames matched by id,
 * pushed events fanned out. Reconnects with backoff; requests made while disconnected wait for
 * the connection; requests in flight when it drops fail with `DISCONNECTED`.
 */
export function createWebSocketBridge(url: string): AtriumBridge & { onConnection(l: (s: ConnectionState) => void): () => void } {
  let socket: WebSocket | null = null;
  let nextId = 1;
  let state: ConnectionState = 'connecting';
  let retry = 0;
  const pending = new Map<number, Pending>();
  const queue: ClientFrame[] = [];
  const eventListeners = new Set<(event: string, payload: unknown) => void>();
  const connectionListeners = new Set<(s: ConnectionState) => void>();

  const setState = (s: ConnectionState) => {
    state = s;
    for (const l of connectionListeners) l(s);
  };

  const open = () => {
    setState('connecting');
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => {
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
      for (const [id, p] of pending) {
        pending.delete(id);
        p.resolve({ ok: false, error: { code: 'DISCONNECTED', message: 'Lost the connection to Atrium. Is `atrium serve` still running?' } });
      }
      setState('closed');
      retry = Math.min(retry + 1, 6);
      setTimeout(open, 250 * 2 ** retry);
    };
  };
  open();

  return {
    invoke(method, params) {
      return new Promise((resolve) => {
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
  };
}
