import crypto from 'node:crypto';
import type { AttachedSurface, HandoverCode } from '../../../../shared/contract';
import { AtriumError } from '../../../../shared/errors';

/** 32 characters: A–Z and 2–9 without I, O, 0 and 1 (VibeAround seed 003 handover codes). */
export const HANDOVER_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** Characters per code. */
export const HANDOVER_CODE_LENGTH = 4;
/** How long a code is valid (milliseconds). */
export const HANDOVER_TTL_MS = 120_000;
/** Failed redemptions allowed per client per window. */
export const HANDOVER_MAX_FAILURES = 5;
/** Failed redemptions allowed across all clients per window (a client that changes its id is still limited). */
export const HANDOVER_MAX_FAILURES_TOTAL = 30;
/** The rate-limit window (milliseconds). */
export const HANDOVER_WINDOW_MS = 60_000;

/** Options for {@link HandoverRegistry}: an injectable clock (ms since epoch) and RNG for tests. */
export interface HandoverOptions {
  now?: () => number;
  /** Uniform integer in [0, max); default `crypto.randomInt`. */
  randomInt?: (max: number) => number;
}

interface Issued {
  sessionId: string;
  expiresAt: number;
}

/**
 * Handover codes (issue 8, seed 003 `handover.rs`): a 4-character code from a cryptographic RNG,
 * valid 120 seconds, redeemable once, kept in memory only (a restart forgets every code). A
 * session has at most one live code; issuing again replaces it. Failed redemptions are counted
 * per client id over a sliding minute: after 5, that client's redemptions are refused (even a
 * correct code) with HANDOVER_RATE_LIMITED until the window has passed; a global cap of 30 per
 * minute covers clients that rotate their id. Codes are compared case-insensitively.
 */
export class HandoverRegistry {
  private readonly codes = new Map<string, Issued>();
  private readonly failures = new Map<string, number[]>();
  private allFailures: number[] = [];
  private readonly now: () => number;
  private readonly randomInt: (max: number) => number;

  constructor(options: HandoverOptions = {}) {
    this.now = options.now ?? Date.now;
    this.randomInt = options.randomInt ?? ((max) => crypto.randomInt(max));
  }

  /** Issues a new code for a session (replacing its previous one). */
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

  /** The live code of a session, or null. */
  current(sessionId: string): HandoverCode | null {
    this.prune();
    for (const [code, issued] of this.codes) if (issued.sessionId === sessionId) return { code, sessionId, expiresAt: new Date(issued.expiresAt).toISOString() };
    return null;
  }

  /**
   * Redeems a code once: returns its session id and forgets the code.
   * @throws AtriumError HANDOVER_RATE_LIMITED (too many failures from this client, or overall) |
   *   HANDOVER_INVALID (unknown, used or expired; counts as a failure)
   */
  redeem(rawCode: string, clientId: string): string {
    const now = this.now();
    const mine = (this.failures.get(clientId) ?? []).filter((t) => now - t < HANDOVER_WINDOW_MS);
    this.allFailures = this.allFailures.filter((t) => now - t < HANDOVER_WINDOW_MS);
    if (mine.length >= HANDOVER_MAX_FAILURES || this.allFailures.length >= HANDOVER_MAX_FAILURES_TOTAL) {
      const oldest = Math.min(...(mine.length >= HANDOVER_MAX_FAILURES ? mine : this.allFailures));
      const wait = Math.max(1, Math.ceil((oldest + HANDOVER_WINDOW_MS - now) / 1000));
      throw new AtriumError('HANDOVER_RATE_LIMITED', `Too many wrong handover codes; try again in ${wait} s.`);
    }
    const code = String(rawCode).trim().toUpperCase();
    const issued = this.codes.get(code);
    if (!issued || issued.expiresAt <= now) {
      if (issued) this.codes.delete(code);
      mine.push(now);
      this.failures.set(clientId, mine);
      this.allFailures.push(now);
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
 * Surfaces attached to each session (issue 8): the desktop window, browser tabs and terminals that
 * show it. Output fans out to all of them (every surface receives the engine's events); a
 * permission request goes to the surface that sent the running prompt, else to the earliest
 * attached one. In memory only.
 */
export class SurfaceRegistry {
  private readonly bySession = new Map<string, AttachedSurface[]>();

  /** Attaches (or re-attaches, keeping its id) a surface; returns it. */
  attach(sessionId: string, surface: { surfaceId?: string; kind: AttachedSurface['kind']; label?: string; via: AttachedSurface['via'] }): AttachedSurface {
    const list = this.bySession.get(sessionId) ?? [];
    const surfaceId = surface.surfaceId ?? `${surface.kind}-${crypto.randomUUID()}`;
    const existing = list.find((s) => s.surfaceId === surfaceId);
    if (existing) return existing;
    const attached: AttachedSurface = { surfaceId, kind: surface.kind, label: surface.label?.trim() || defaultLabel(surface.kind), via: surface.via, attachedAt: new Date().toISOString() };
    list.push(attached);
    this.bySession.set(sessionId, list.slice(-50));
    return attached;
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
