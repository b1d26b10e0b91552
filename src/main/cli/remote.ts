import fs from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import type { RequestName, ResultOf, ServerFrame } from '../../shared/contract';
import { TOKEN_PATTERN, tokenProtocols } from '../../shared/browserAuth';
import { AtriumError, isWireError } from '../../shared/errors';

/** Where a running Atrium serves the contract (`atrium serve`, or the desktop app's on-demand server). */
export interface ServerInfo {
  /** `http://host:port` (no token). */
  origin: string;
  token: string;
  pid: number;
  startedAt: string;
}

/** The discovery file of the running server in a data directory. */
export function serverInfoPath(dataDir: string): string {
  return path.join(dataDir, 'server.json');
}

/** Writes the discovery file (mode 0600: it holds the server token). */
export function writeServerInfo(dataDir: string, info: ServerInfo): void {
  const file = serverInfoPath(dataDir);
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, JSON.stringify(info), { mode: 0o600 });
  fs.renameSync(temp, file);
}

/** Removes the discovery file if this process wrote it. Never throws. */
export function removeServerInfo(dataDir: string, pid = process.pid): void {
  try {
    if (readServerInfo(dataDir)?.pid === pid) fs.rmSync(serverInfoPath(dataDir), { force: true });
  } catch {
    // nothing to remove
  }
}

/** The discovery file's content, or null when missing or unreadable. */
export function readServerInfo(dataDir: string): ServerInfo | null {
  try {
    const v = JSON.parse(fs.readFileSync(serverInfoPath(dataDir), 'utf8')) as Partial<ServerInfo>;
    if (typeof v.origin !== 'string' || typeof v.token !== 'string') return null;
    return { origin: v.origin, token: v.token, pid: Number(v.pid) || 0, startedAt: String(v.startedAt ?? '') };
  } catch {
    return null;
  }
}

/**
 * A contract client over a running Atrium's WebSocket (`/ws`, the token offered as the
 * `atrium.token.<token>` subprotocol, the same frames the browser uses): typed requests and the
 * pushed events. The token never goes into the URL. For commands that must act on the live instance
 * (e.g. redeeming a handover code, which lives in that process's memory).
 */
export class RemoteAtrium {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  private readonly listeners = new Set<(event: string, payload: unknown) => void>();
  private readonly closeListeners = new Set<() => void>();

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      let frame: ServerFrame;
      try {
        frame = JSON.parse(data.toString()) as ServerFrame;
      } catch {
        return;
      }
      if ('event' in frame) {
        for (const l of this.listeners) l(frame.event, frame.payload);
        return;
      }
      const p = this.pending.get(frame.id);
      if (!p) return;
      this.pending.delete(frame.id);
      if (frame.ok) p.resolve(frame.result);
      else p.reject(isWireError(frame.error) ? new AtriumError(frame.error.code, frame.error.message) : new Error(String(frame.error?.message)));
    });
    ws.on('close', () => {
      for (const p of this.pending.values()) p.reject(new AtriumError('INTERNAL', 'The connection to Atrium closed.'));
      this.pending.clear();
      for (const l of [...this.closeListeners]) l();
    });
  }

  /**
   * Connects to `origin` with `token`.
   * @throws AtriumError NOT_FOUND when nothing answers there (the server is not running),
   *   FORBIDDEN_SENDER when it refuses the token or origin, INVALID_PARAMS for a malformed token
   */
  static connect(origin: string, token: string): Promise<RemoteAtrium> {
    if (!TOKEN_PATTERN.test(token)) return Promise.reject(new AtriumError('INVALID_PARAMS', 'That is not an Atrium server token (16 to 256 letters, digits, - or _).'));
    const url = `${origin.replace(/^http/, 'ws').replace(/\/+$/, '')}/ws`;
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, tokenProtocols(token));
      ws.once('open', () => resolve(new RemoteAtrium(ws)));
      ws.once('unexpected-response', (_req, res) => reject(new AtriumError('FORBIDDEN_SENDER', `Atrium at ${origin} refused the connection (HTTP ${res.statusCode}); check the token.`)));
      ws.once('error', (error) => reject(new AtriumError('NOT_FOUND', `No Atrium answers at ${origin}: ${error.message}. Is \`atrium serve\` (or pickup in the desktop app) running?`)));
    });
  }

  /** Sends a request and waits for its result. @throws AtriumError with the server's code */
  call<M extends RequestName>(method: M, params: unknown): Promise<ResultOf<M>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.ws.send(JSON.stringify({ id, method, params }));
    });
  }

  /** Listens to pushed events; returns an unsubscribe function. */
  subscribe(listener: (event: string, payload: unknown) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls `listener` once the connection closes (either side, or the server went away). */
  onClose(listener: () => void): void {
    this.closeListeners.add(listener);
  }

  /** Removes a listener given to {@link onClose}. */
  offClose(listener: () => void): void {
    this.closeListeners.delete(listener);
  }

  /** Closes the connection. */
  close(): void {
    this.ws.close();
  }
}
