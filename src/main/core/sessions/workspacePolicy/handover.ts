import crypto from 'node:crypto';
import type { AttachedSurface, HandoverCode } from '../../../../shared/contract';
import { AtriumError } from '../../../../shared/errors';

/** 32 characters: A–Z and 2–9 without I, O, 0 and 1 (VibeAround seed 003 handover codes). */
export const HANDOVER_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** Characters per code. */
export const HANDOVER_CODE_LENGTH = 4;
/** How long a code is valid (milliseconds). */
export const HANDOVER_TTL_MS = 120_000;
/** Failed redemptions allowed per client per window; more locks that client (only) until the window has passed. */
export const HANDOVER_MAX_FAILURES = 5;
/**
 * Failed redemptions across all clients per window after which redemptions are throttled: a
 * client that keeps opening new connections (each a fresh client) gets no more than one guess
 * evaluated per {@link HANDOVER_SURGE_INTERVAL_MS}, while nobody is locked out.
 */
export const HANDOVER_SURGE_FAILURES = 30;
/** While throttled, at most one redemption is evaluated per this interval (milliseconds), across all clients. */
export const HANDOVER_SURGE_INTERVAL_MS = 1000;
/** The rate-limit window (milliseconds). */
export const HANDOVER_WINDOW_MS = 60_000;

/** Options for {@link HandoverRegistry}: an injectable clock (ms since epoch) and RNG for tests. */
export interface HandoverOptions {
  now?: () => number;
  /** Uniform integer in [0, max); default `crypto.randomInt`. */
  randomInt?: (max: number) => number;
}

/** What every reader of a session may know about its live code: that one exists and when it expires, never the code. */
export interface HandoverStatus {
  sessionId: string;
  /** ISO 8601. */
  expiresAt: string;
}

interface Issued {
  sessionId: string;
  expiresAt: number;
}

/**
 * Handover codes (seed 003 `handover.rs`): a 4-character code from a cryptographic RNG, valid 120
 * seconds, redeemable once, kept in memory only (a restart forgets every code). A session has at
 * most one live code; issuing again replaces it. The code itself is only in the answer to
 * {@link issue}; {@link current} tells others that a code exists, not which.
 *
 * Rate limits key on the client id the transport vouches for (a WebSocket connection, a desktop
 * window), never on an id the client chose. Failed redemptions are counted per client over a
 * sliding minute: after 5, that client's redemptions are refused (even a correct code) with
 * HANDOVER_RATE_LIMITED until the window has passed; other clients are unaffected. A client that
 * rotates identities (opens new connections) is held back by a throttle instead of a lockout:
 * once 30 redemptions failed in the window, at most one redemption per second is evaluated
 * across all clients, so guessing one of 32^4 codes within its 120 s stays hopeless while a
 * legitimate pickup at worst retries a second later. Codes are compared case-insensitively.
 */
export class HandoverRegistry {
  private readonly codes = new Map<string, Issued>();
  private readonly failures = new Map<string, number[]>();
  private allFailures: number[] = [];
  private lastThrottled = -Infinity;
  private readonly now: () => number;
  private readonly randomInt: (max: number) => number;

  constructor(options: HandoverOptions = {}) {
    this.now = options.now ?? Date.now;
    this.randomInt = options.randomInt ?? ((max) => crypto.randomInt(max));
  }

  /** Issues a new code for a session (replacing its previous one). The answer is the only place the code appears. */
  issue(sessionId: string): HandoverCode {
    this.prune();
    for (const [code, issued] of this.codes) if (issued.sessionId === sessionId) this.codes.delete(code);
    let code = '';
    for (let attempt = 0; attempt < 100; attempt++) {
      code = Array.from({ length: HANDOVER_CODE_LENGTH }, () => HANDOVER_ALPHABET[this.randomInt(HANDOVER_ALPHABET.length)]).join('');
      if (!this.codes.has(code)) break;
    }
    const expiresAt = this.now() + HANDOVER_TTL_MS;
    this.codes.set(code, { sessionId, expiresAt });
    return { code, sessionId, expiresAt: new Date(expiresAt).toISOString() };
  }

  /** Whether a session has a live code and when it expires (without the code), or null. */
  current(sessionId: string): HandoverStatus | null {
    this.prune();
    for (const issued of this.codes.values()) if (issued.sessionId === sessionId) return { sessionId, expiresAt: new Date(issued.expiresAt).toISOString() };
    return null;
  }

  /**
   * Redeems a code once: returns its session id and forgets the code. `clientId` must be an
   * identity the caller cannot choose (see the class comment).
   * @throws AtriumError HANDOVER_RATE_LIMITED (this client failed too often, or the throttle is on
   *   and another redemption was just evaluated) | HANDOVER_INVALID (unknown, used or expired;
   *   counts as a failure)
   */
  redeem(rawCode: string, clientId: string): string {
    const now = this.now();
    const mine = (this.failures.get(clientId) ?? []).filter((t) => now - t < HANDOVER_WINDOW_MS);
    this.allFailures = this.allFailures.filter((t) => now - t < HANDOVER_WINDOW_MS);
    if (mine.length >= HANDOVER_MAX_FAILURES) {
      const wait = Math.max(1, Math.ceil((Math.min(...mine) + HANDOVER_WINDOW_MS - now) / 1000));
      throw new AtriumError('HANDOVER_RATE_LIMITED', `Too many wrong handover codes from this window, tab or terminal; try again in ${wait} s.`);
    }
    if (this.allFailures.length >= HANDOVER_SURGE_FAILURES) {
      if (now - this.lastThrottled < HANDOVER_SURGE_INTERVAL_MS) {
        throw new AtriumError('HANDOVER_RATE_LIMITED', 'Many wrong handover codes were tried in the last minute, so codes are checked one per second; try again in 1 s.');
      }
      this.lastThrottled = now;
    }
    const code = String(rawCode).trim().toUpperCase();
    const issued = this.codes.get(code);
    if (!issued || issued.expiresAt <= now) {
      if (issued) this.codes.delete(code);
      mine.push(now);
      this.failures.set(clientId, mine);
      this.allFailures.push(now);
      if (this.allFailures.length > 10_000) this.allFailures.splice(0, this.allFailures.length - 10_000);
      if (this.failures.size > 10_000) this.failures.delete(this.failures.keys().next().value as string);
      throw new AtriumError('HANDOVER_INVALID', `"${code.slice(0, 8)}" is not a valid handover code (codes are single use and expire after ${HANDOVER_TTL_MS / 1000} s). Ask for a new one with "Hand over".`);
    }
    this.codes.delete(code);
    return issued.sessionId;
  }

  private prune(): void {
    const now = this.now();
    for (const [code, issued] of this.codes) if (issued.expiresAt <= now) this.codes.delete(code);
  }
}

/**
 * Who attaches, detaches or hands over a surface, as far as the engine can trust it:
 * `connection` is the transport identity (a WebSocket connection, a desktop window; null: this
 * process, which may do anything), `key` a secret the page generated and never shows anyone (it
 * proves "the same tab" across a reconnect, when the connection changes; null when not sent).
 */
export interface SurfaceCaller {
  connection: string | null;
  key: string | null;
}

/** This process itself (the CLI's in-process engine, tests, the server's own clean-up). */
export const THIS_PROCESS: SurfaceCaller = { connection: null, key: null };

/**
 * Surfaces attached to each session: the desktop window, browser tabs and terminals that
 * show it. Output fans out to all of them (every surface receives the engine's events); a
 * permission request goes to the surface that sent the running prompt, else to the earliest
 * attached one. In memory only.
 *
 * Each surface remembers its holder ({@link SurfaceCaller}: connection and page key). Surface ids
 * are public (every reader sees them), so they prove nothing; {@link admits} is the handover rule:
 * a caller may attach without a code a surface it holds (same connection or same page key), or a
 * new one when it was admitted to the session before (it attached a surface of it: a reloaded
 * page with the same key, the desktop window after a reload) or when no other holder shows the
 * session; otherwise it needs a handover code from a surface that does.
 */
export class SurfaceRegistry {
  private readonly bySession = new Map<string, AttachedSurface[]>();
  private readonly holders = new WeakMap<AttachedSurface, SurfaceCaller>();
  /** Per session: the connections (`c:`) and page keys (`k:`) that attached a surface of it. */
  private readonly admitted = new Map<string, Set<string>>();

  /**
   * Attaches (or re-attaches, keeping its id) a surface; returns it. `holder` becomes its holder
   * (a re-attach by the same page over a new connection moves it to that connection). Does not
   * check {@link admits}.
   */
  attach(sessionId: string, surface: { surfaceId?: string; kind: AttachedSurface['kind']; label?: string; via: AttachedSurface['via'] }, holder: SurfaceCaller = THIS_PROCESS): AttachedSurface {
    const list = this.bySession.get(sessionId) ?? [];
    const surfaceId = surface.surfaceId ?? `${surface.kind}-${crypto.randomUUID()}`;
    const existing = list.find((s) => s.surfaceId === surfaceId);
    if (holder.connection !== null) {
      const ids = this.admitted.get(sessionId) ?? new Set<string>();
      ids.add(`c:${holder.connection}`);
      if (holder.key !== null) ids.add(`k:${holder.key}`);
      if (ids.size > 200) ids.delete(ids.values().next().value as string);
      this.admitted.set(sessionId, ids);
    }
    if (existing) {
      // its holder again (same connection or same page key): follow it to this connection, learn its key
      if (holder.connection !== null && this.heldBy(existing, holder) === true) {
        this.holders.set(existing, { connection: holder.connection, key: holder.key ?? this.holders.get(existing)?.key ?? null });
      }
      return existing;
    }
    const attached: AttachedSurface = { surfaceId, kind: surface.kind, label: surface.label?.trim() || defaultLabel(surface.kind), via: surface.via, attachedAt: new Date().toISOString() };
    this.holders.set(attached, { connection: holder.connection, key: holder.key });
    list.push(attached);
    this.bySession.set(sessionId, list.slice(-50));
    return attached;
  }

  /**
   * Whether `who` may attach `surfaceId` (undefined: a new surface) to a session without a
   * handover code. This process always may; a surface this process attached blocks nobody.
   */
  admits(sessionId: string, surfaceId: string | undefined, who: SurfaceCaller): boolean {
    if (who.connection === null) return true;
    const list = this.bySession.get(sessionId) ?? [];
    const existing = surfaceId === undefined ? undefined : list.find((s) => s.surfaceId === surfaceId);
    if (existing) return this.heldBy(existing, who) !== false;
    return this.wasAdmitted(sessionId, who) || list.every((s) => this.heldBy(s, who) === null);
  }

  /** Whether `who` attached a surface of the session before (its connection or its page key). */
  private wasAdmitted(sessionId: string, who: SurfaceCaller): boolean {
    const ids = this.admitted.get(sessionId);
    return Boolean(ids && ((who.connection !== null && ids.has(`c:${who.connection}`)) || (who.key !== null && ids.has(`k:${who.key}`))));
  }

  /** Whether `who` holds one of the session's surfaces (never true for this process's own surfaces). */
  holds(sessionId: string, who: SurfaceCaller): boolean {
    return (this.bySession.get(sessionId) ?? []).some((s) => this.heldBy(s, who) === true);
  }

  /** Whether `who` may detach a surface: this process always, else its holder; a surface not attached is nobody's. */
  mayDetach(sessionId: string, surfaceId: string, who: SurfaceCaller): boolean {
    if (who.connection === null) return true;
    const existing = (this.bySession.get(sessionId) ?? []).find((s) => s.surfaceId === surfaceId);
    return !existing || this.heldBy(existing, who) !== false;
  }

  /** true: `who` holds it; false: someone else does; null: this process attached it (nobody's). */
  private heldBy(surface: AttachedSurface, who: SurfaceCaller): boolean | null {
    const h = this.holders.get(surface);
    if (!h || (h.connection === null && h.key === null)) return null;
    return h.connection === who.connection || (who.key !== null && h.key === who.key);
  }

  /** Detaches a surface; true when it was attached. */
  detach(sessionId: string, surfaceId: string): boolean {
    const list = this.bySession.get(sessionId) ?? [];
    const next = list.filter((s) => s.surfaceId !== surfaceId);
    this.bySession.set(sessionId, next);
    return next.length !== list.length;
  }

  /** Surfaces attached to a session, earliest first. */
  list(sessionId: string): AttachedSurface[] {
    return [...(this.bySession.get(sessionId) ?? [])];
  }

  /**
   * The surface that answers a permission request: the prompt's sender when attached, else the
   * earliest attached, else null (any surface). Also picks the new target when the addressed
   * surface detaches while its request is pending (`promptSurfaceId` null: the earliest left).
   */
  permissionTarget(sessionId: string, promptSurfaceId: string | null): AttachedSurface | null {
    const list = this.bySession.get(sessionId) ?? [];
    return (promptSurfaceId ? list.find((s) => s.surfaceId === promptSurfaceId) : undefined) ?? list[0] ?? null;
  }
}

function defaultLabel(kind: AttachedSurface['kind']): string {
  return kind === 'app' ? 'Desktop app' : kind === 'browser' ? 'Browser tab' : 'Terminal';
}
