/**
 * Which process hosts a session's agent. The CLI, `atrium serve` and the desktop app are separate
 * processes on one database; only the process whose agent is running for a session may write that
 * session's journal, and only sessions whose host is gone may be recovered (marked interrupted).
 *
 * The host is recorded in `sessions.owner_json` (a {@link SessionHost}): claimed in the same
 * transaction that moves the session to `starting`, renewed every {@link LEASE_RENEW_MS} while the
 * agent runs, cleared when it stops. A NULL column (rows written before this schema, or a session
 * nobody hosts) means the session is free.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import type { Database } from 'better-sqlite3';
import type { Migration } from '../store/migrations';

/** The process hosting a session's agent (the only one that may write its journal). */
export interface SessionHost {
  /** Process id of the host. */
  pid: number;
  /** `os.hostname()` of the host's machine (a pid is only checkable on the same machine). */
  hostname: string;
  /** Which Atrium surface the host is. */
  kind: 'cli' | 'serve' | 'app' | 'acp';
  /** Where the host answers requests (`http://127.0.0.1:4321` for serve / the app's pickup server), or null. */
  origin: string | null;
  /** ISO 8601: when the hosting process started. */
  startedAt: string;
  /** ISO 8601: the host counts as gone after this instant unless it renews. */
  leaseUntil: string;
  /**
   * Random id of the hosting engine (one per SessionService), so two engines in one process (tests,
   * an engine re-opened after close) are told apart. Absent in hosts written without it.
   */
  instance?: string;
}

/** Host kinds, as {@link SessionHost.kind}. */
export type HostKind = SessionHost['kind'];

/** How long a claimed or renewed lease lasts (milliseconds). */
export const LEASE_MS = 20_000;
/** How often a host renews its leases (milliseconds); well under {@link LEASE_MS}. */
export const LEASE_RENEW_MS = 5_000;

/** Schema: `sessions.owner_json` (nullable JSON {@link SessionHost}). */
export const sessionOwnerMigration: Migration = {
  version: 8,
  name: 'session owner',
  up(db) {
    db.exec('ALTER TABLE sessions ADD COLUMN owner_json TEXT');
  },
};

/** When this process started (ISO 8601), fixed at module load (close enough: before any engine). */
const PROCESS_STARTED_AT = new Date(Date.now() - Math.round(process.uptime() * 1000)).toISOString();

/** Engines of this process that are open (their {@link SessionHost.instance}): a closed engine's leases are dead at once. */
const openInstances = new Set<string>();

/**
 * This process's identity as a host, for one SessionService. `register()` marks it open (its
 * claims count as alive), `unregister()` as closed.
 */
export class HostIdentity {
  readonly instance = crypto.randomUUID();
  readonly pid = process.pid;
  readonly hostname = os.hostname();
  origin: string | null = null;

  constructor(readonly kind: HostKind) {}

  /** Marks this engine open (its leases are alive while unexpired). */
  register(): void {
    openInstances.add(this.instance);
  }

  /** Marks this engine closed (its leases are dead at once in this process). */
  unregister(): void {
    openInstances.delete(this.instance);
  }

  /** A fresh host record with a lease of {@link LEASE_MS} from `now`. */
  host(now = Date.now()): SessionHost {
    return { pid: this.pid, hostname: this.hostname, kind: this.kind, origin: this.origin, startedAt: PROCESS_STARTED_AT, leaseUntil: new Date(now + LEASE_MS).toISOString(), instance: this.instance };
  }

  /** True when `host` is this engine. */
  isMe(host: SessionHost | null): boolean {
    return host !== null && host.instance === this.instance && host.pid === this.pid && host.hostname === this.hostname;
  }
}

/** Parses an `owner_json` value; anything malformed reads as no host (free). */
export function parseHost(json: string | null | undefined): SessionHost | null {
  if (!json) return null;
  try {
    const v = JSON.parse(json) as Partial<SessionHost>;
    if (typeof v !== 'object' || v === null || typeof v.pid !== 'number' || typeof v.hostname !== 'string' || typeof v.leaseUntil !== 'string') return null;
    const kind = v.kind === 'serve' || v.kind === 'app' || v.kind === 'acp' ? v.kind : 'cli';
    return {
      pid: v.pid,
      hostname: v.hostname,
      kind,
      origin: typeof v.origin === 'string' ? v.origin : null,
      startedAt: typeof v.startedAt === 'string' ? v.startedAt : '',
      leaseUntil: v.leaseUntil,
      ...(typeof v.instance === 'string' ? { instance: v.instance } : {}),
    };
  } catch {
    return null;
  }
}

/**
 * Whether `host` is alive: its lease has not expired, and either it runs on another machine (its
 * pid cannot be checked from here) or its process exists (`kill(pid, 0)` succeeds or throws EPERM).
 * A host in this very process is alive only while its engine is open.
 */
export function isHostAlive(host: SessionHost | null, now = Date.now()): boolean {
  if (!host) return false;
  const until = Date.parse(host.leaseUntil);
  if (!Number.isFinite(until) || until <= now) return false;
  if (host.hostname !== os.hostname()) return true;
  if (host.pid === process.pid) return host.instance === undefined || openInstances.has(host.instance);
  try {
    process.kill(host.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The stored host of a session (alive or not), or null (free, or no such session). */
export function readHost(db: Database, sessionId: string): SessionHost | null {
  const row = db.prepare('SELECT owner_json FROM sessions WHERE id = ?').get(sessionId) as { owner_json: string | null } | undefined;
  return parseHost(row?.owner_json);
}

/**
 * Records `me` as the session's host unless another live host holds it. Run it inside the write
 * transaction that moves the session to `starting` (the store's transactions are immediate, so no
 * other process can claim in between).
 * @returns null when claimed, else the live host that holds the session
 */
export function claimHost(db: Database, sessionId: string, me: HostIdentity): SessionHost | null {
  const current = readHost(db, sessionId);
  if (current && !me.isMe(current) && isHostAlive(current)) return current;
  db.prepare('UPDATE sessions SET owner_json = ? WHERE id = ?').run(JSON.stringify(me.host()), sessionId);
  return null;
}

/** Clears the session's host if it is `me` (the agent stopped). A session another host took over is left alone. */
export function releaseHost(db: Database, sessionId: string, me: HostIdentity): void {
  if (me.isMe(readHost(db, sessionId))) db.prepare('UPDATE sessions SET owner_json = NULL WHERE id = ?').run(sessionId);
}

/**
 * Extends the lease of every session in `sessionIds` that `me` still hosts (and writes the current
 * origin). Sessions another process took over are not touched.
 * @returns the ids `me` no longer hosts
 */
export function renewHosts(db: Database, sessionIds: readonly string[], me: HostIdentity): string[] {
  const lost: string[] = [];
  const update = db.prepare('UPDATE sessions SET owner_json = ? WHERE id = ?');
  const json = JSON.stringify(me.host());
  for (const id of sessionIds) {
    if (me.isMe(readHost(db, id))) update.run(json, id);
    else lost.push(id);
  }
  return lost;
}

/**
 * The message of `SESSION_HOSTED_ELSEWHERE`: where the session lives and what to do.
 * E.g. `atrium serve (pid 123) at http://127.0.0.1:4321`, `the desktop app (pid 123)`, `an editor (atrium acp, pid 123)`.
 */
export function describeHost(host: SessionHost): string {
  const where = host.hostname !== os.hostname() ? ` on ${host.hostname}` : '';
  if (host.kind === 'serve') return `atrium serve (pid ${host.pid}${where})${host.origin ? ` at ${host.origin}` : ''}`;
  if (host.kind === 'app') return `the desktop app (pid ${host.pid}${where})${host.origin ? ` at ${host.origin}` : ''}`;
  if (host.kind === 'acp') return `an editor (atrium acp, pid ${host.pid}${where})`;
  return `a terminal (an atrium session command, pid ${host.pid}${where})`;
}

/** The full refusal text for a session hosted by `host`. */
export function hostedElsewhereMessage(sessionId: string, host: SessionHost): string {
  return `Session ${sessionId} is running in ${describeHost(host)}; its agent can be driven only there. Use that ${host.kind === 'acp' ? 'editor' : 'window or terminal'}, or wait until its agent stops (atrium session show ${sessionId}).`;
}

/**
 * The contract's `Session.hostedElsewhere` for a stored `owner_json`: the host when it is alive and
 * not `me` (this engine), else null. Pure apart from the liveness check (one `kill(pid, 0)`).
 */
export function hostedElsewhereOf(ownerJson: string | null | undefined, me: HostIdentity | null): { kind: HostKind; pid: number; origin: string | null; description: string } | null {
  const host = parseHost(ownerJson);
  if (!host || (me && me.isMe(host)) || !isHostAlive(host)) return null;
  return { kind: host.kind, pid: host.pid, origin: host.origin, description: describeHost(host) };
}
