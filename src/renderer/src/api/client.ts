import type { EventName, ParamsOf, PayloadOf, RequestName, ResultOf } from '../../../shared/contract';
import type { AtriumBridge } from '../../../shared/bridge';
import { BrowserToken, checkTokenAtOrigin, TOKEN_STORAGE_KEY } from './browserToken';
import { createWebSocketBridge } from './websocketBridge';

/** A request that failed in the engine; `code` is one of the contract's error codes. */
export class RequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The renderer's typed client. Transport-agnostic: Electron's preload bridge or the browser
 * server's WebSocket, same calls, same types (inferred from the contract).
 */
export interface AtriumClient {
  request<M extends RequestName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>>;
  on<E extends EventName>(event: E, listener: (payload: PayloadOf<E>) => void): () => void;
  /** Connection state for the browser transport (Electron is always `open`). */
  onConnection(listener: (state: ConnectionState) => void): () => void;
  /**
   * True when this page is the desktop app's own window (the preload's bridge), false in a browser
   * tab, whether served by `atrium serve` or by the desktop app's pickup server (whose `app.info`
   * still says `electron`). Decides who opens links and whether updates show.
   */
  readonly desktop: boolean;
}

/** `unauthorized`: browser mode only, the tab has no token the server accepts (it stops reconnecting). */
export type ConnectionState = 'connecting' | 'open' | 'closed' | 'unauthorized';

/** Builds a client over any bridge; `desktop`: the bridge is the Electron preload's. */
export function createClient(bridge: AtriumBridge & { onConnection?: AtriumClient['onConnection'] }, desktop = false): AtriumClient {
  return {
    desktop,
    async request(method, params) {
      const outcome = await bridge.invoke(method, params);
      if (!outcome.ok) throw new RequestError(outcome.error.code, outcome.error.message);
      return outcome.result as never;
    },
    on(event, listener) {
      return bridge.onEvent((name, payload) => {
        if (name === event) listener(payload as never);
      });
    },
    onConnection(listener) {
      if (bridge.onConnection) return bridge.onConnection(listener);
      listener('open');
      return () => {};
    },
  };
}

/**
 * The client for this page: the Electron preload's `window.atrium` when present, else the
 * WebSocket to the server that served the page, with the token from the address fragment
 * (`#token=…`, taken out of the address at once) or this origin's `localStorage`
 * ({@link BrowserToken}). A `#token=` pasted into the address later (same-document navigation)
 * reconnects with it, and so does a token another tab of this origin stores (the user opened the
 * address a restarted server printed in a new tab: every orphaned tab comes back by itself).
 * The token only ever comes from this origin's own storage, which no other origin can write.
 */
export function connect(): AtriumClient {
  const injected = (window as unknown as { atrium?: AtriumBridge }).atrium;
  if (injected) return createClient(injected, true);
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
  const token = new BrowserToken(storageOrNull(), checkTokenAtOrigin);
  token.takeFromAddress(location, history);
  const bridge = createWebSocketBridge(url, token);
  window.addEventListener('hashchange', () => {
    if (token.takeFromAddress(location, history)) bridge.reauthenticate();
  });
  window.addEventListener('storage', (e) => {
    if (e.key === TOKEN_STORAGE_KEY && e.newValue) bridge.reauthenticate();
  });
  return createClient(bridge);
}

function storageOrNull(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // storage blocked by the browser's settings: the token lives in this page only
  }
}
