import fs from 'node:fs';
import net from 'node:net';
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

/**
 * Writes the discovery file (mode 0600: it holds the server token), replacing whatever is there.
 * Servers use {@link claimServerInfo} instead, which never replaces a live server's entry.
 */
export function writeServerInfo(dataDir: string, info: ServerInfo): void {
  const file = serverInfoPath(dataDir);
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, JSON.stringify(info), { mode: 0o600 });
  fs.renameSync(temp, file);
}

/**
 * The server a data directory's discovery file names when that server is still running: its pid
 * is alive and something accepts connections at its origin (so a pid reused by an unrelated
 * process after a crash or reboot does not count). Null when there is no file, it is unreadable,
 * or its server is gone (a stale file). Never throws.
 */
export async function liveServerInfo(dataDir: string, timeoutMs = 1500): Promise<ServerInfo | null> {
  const info = readServerInfo(dataDir);
  if (!info || info.pid === process.pid || !pidAlive(info.pid)) return null;
  return (await accepts(info.origin, timeoutMs)) ? info : null;
}

/**
 * Claims the data directory's discovery file for the server `info` describes, atomically: the
 * file is created only where none exists (a hard link of a complete 0600 temp file, so readers
 * never see half a file), and a stale one (see {@link liveServerInfo}) is replaced. One data
 * directory has one discovery file, so a second server there is refused rather than overwriting
 * the first one's entry (which would make `atrium session pickup` lose the first, and the second's
 * exit delete it).
 * @returns `{claimed: true}`, or `{claimed: false, holder}` with the live server that owns the file
 */
export async function claimServerInfo(dataDir: string, info: ServerInfo): Promise<{ claimed: true } | { claimed: false; holder: ServerInfo }> {
  const file = serverInfoPath(dataDir);
  const temp = `${file}.${process.pid}.claim.tmp`;
  fs.writeFileSync(temp, JSON.stringify(info), { mode: 0o600 });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        fs.linkSync(temp, file);
        return { claimed: true };
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'EEXIST') {
          // a file system without hard links: exclusive create is still atomic, only not its content
          if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error;
          try {
            fs.writeFileSync(file, JSON.stringify(info), { mode: 0o600, flag: 'wx' });
            return { claimed: true };
          } catch (inner) {
            if ((inner as NodeJS.ErrnoException).code !== 'EEXIST') throw inner;
          }
        }
      }
      const holder = await liveServerInfo(dataDir);
      if (holder) return { claimed: false, holder };
      if (attempt >= 3) throw new Error(`Could not replace the stale ${file}; remove it and start again.`);
      // stale (its server is gone) or unreadable: replace it, unless another server claimed it meanwhile
      const stale = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
      if (stale !== null && !(await liveServerInfo(dataDir))) {
        try {
          if (fs.readFileSync(file, 'utf8') === stale) fs.rmSync(file, { force: true });
        } catch {
          // gone already
        }
      }
    }
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

/**
 * Removes the discovery file if it is this server's own entry (same pid and, when given, the same
 * token: the desktop app may have served twice under one pid), so a server stopping never deletes
 * another server's entry. Never throws.
 */
export function removeServerInfo(dataDir: string, pid = process.pid, token?: string): void {
  try {
    const info = readServerInfo(dataDir);
    if (info?.pid === pid && (token === undefined || info.token === token)) fs.rmSync(serverInfoPath(dataDir), { force: true });
  } catch {
    // nothing to remove
  }
}

/** True when `pid` names a running process (one this user may not signal counts as running). */
function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True when a TCP connection to `origin` (`http://host:port`) opens within `timeoutMs`. */
function accepts(origin: string, timeoutMs: number): Promise<boolean> {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return Promise.resolve(false);
  }
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
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
