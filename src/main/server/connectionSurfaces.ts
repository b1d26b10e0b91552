import type { DispatchOutcome } from '../core/dispatcher';

/** One surface a connection attached: the session and the surface id the engine answered with. */
interface Held {
  sessionId: string;
  surfaceId: string;
}

const keyOf = (h: Held) => `${h.sessionId}\u0000${h.surfaceId}`;

/**
 * Which session surfaces each transport connection attached, so that a browser
 * tab that goes away (tab closed, reload, network gone: its WebSocket closes) or a desktop window
 * whose webContents is destroyed stops being listed as attached — otherwise permission requests
 * would keep being routed to a surface nobody looks at.
 *
 * {@link observe} reads every dispatched request and its outcome: a successful `sessions.attach`
 * or `sessions.pickup` adds the surface the engine returned, `sessions.detach` removes it.
 * {@link release} (the connection closed) detaches each surface that no other open connection
 * holds: a tab that reconnects attaches the same surface id again on its new connection, and the
 * old socket's late close must not detach it. `detach` is the engine's `sessions.detach`; its
 * failures (session gone) are ignored, since the surface is gone either way.
 */
export class ConnectionSurfaces {
  private readonly byConnection = new Map<string, Map<string, Held>>();

  constructor(private readonly detach: (sessionId: string, surfaceId: string) => Promise<unknown>) {}

  /** Records what one request over `connectionId` attached or detached (failed requests change nothing). */
  observe(connectionId: string, method: string, params: unknown, outcome: DispatchOutcome): void {
    if (!outcome.ok) return;
    const held = heldBy(method, params, outcome.result);
    if (!held) return;
    if (method === 'sessions.detach') {
      this.byConnection.get(connectionId)?.delete(keyOf(held));
      return;
    }
    const mine = this.byConnection.get(connectionId) ?? new Map<string, Held>();
    mine.set(keyOf(held), held);
    this.byConnection.set(connectionId, mine);
  }

  /** Surfaces a connection currently holds (for tests and diagnostics). */
  held(connectionId: string): Array<{ sessionId: string; surfaceId: string }> {
    return [...(this.byConnection.get(connectionId)?.values() ?? [])].map((h) => ({ ...h }));
  }

  /**
   * The connection closed: forgets it and detaches its surfaces that no other connection still
   * holds. Resolves when every detach has been answered; never rejects.
   */
  async release(connectionId: string): Promise<void> {
    const mine = this.byConnection.get(connectionId);
    this.byConnection.delete(connectionId);
    if (!mine) return;
    const stillHeld = new Set<string>();
    for (const other of this.byConnection.values()) for (const key of other.keys()) stillHeld.add(key);
    const orphans = [...mine.entries()].filter(([key]) => !stillHeld.has(key)).map(([, h]) => h);
    await Promise.all(orphans.map((h) => this.detach(h.sessionId, h.surfaceId).catch(() => undefined)));
  }
}

/** The surface a successful attach/pickup/detach is about, read from its params and result. */
function heldBy(method: string, params: unknown, result: unknown): Held | null {
  const p = (params ?? {}) as { sessionId?: unknown; surfaceId?: unknown };
  if (method === 'sessions.attach') {
    const r = result as { surface?: { surfaceId?: unknown } };
    return typeof p.sessionId === 'string' && typeof r?.surface?.surfaceId === 'string' ? { sessionId: p.sessionId, surfaceId: r.surface.surfaceId } : null;
  }
  if (method === 'sessions.pickup') {
    const r = result as { session?: { id?: unknown }; surface?: { surfaceId?: unknown } };
    return typeof r?.session?.id === 'string' && typeof r.surface?.surfaceId === 'string' ? { sessionId: r.session.id, surfaceId: r.surface.surfaceId } : null;
  }
  if (method === 'sessions.detach') {
    return typeof p.sessionId === 'string' && typeof p.surfaceId === 'string' ? { sessionId: p.sessionId, surfaceId: p.surfaceId } : null;
  }
  return null;
}
