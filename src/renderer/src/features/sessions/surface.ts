import { useEffect } from 'react';
import { useApp } from '../../state/appStore';

/**
 * This window or browser tab as a session surface: output fans out to every attached
 * surface and a permission request goes to the surface that sent the prompt. The id lives as long
 * as the page; a session picked up with a handover code uses the surface the engine attached.
 */
export const surfaceKind: 'app' | 'browser' = (window as unknown as { atrium?: unknown }).atrium ? 'app' : 'browser';
// crypto.randomUUID needs a secure context; `atrium serve --host` over plain http is not one
const randomId = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
export const tabSurfaceId = `${surfaceKind}-${randomId()}`;
/**
 * This tab's secret (never shown; kept in sessionStorage, which only this tab of this origin
 * reads, so a reload keeps it): sent with attach, detach, hand over and pick up, it tells the
 * engine a reconnected or reloaded tab is the same one. The surface id cannot: every reader sees it.
 */
export const surfaceKey = tabSecret();

function tabSecret(): string {
  const fresh = `${randomId()}${randomId()}`;
  try {
    const kept = sessionStorage.getItem('atrium.surfaceKey');
    if (kept && kept.length >= 16) return kept;
    sessionStorage.setItem('atrium.surfaceKey', fresh);
  } catch {
    // storage disabled: the key lives as long as the page
  }
  return fresh;
}
/**
 * How other surfaces name this one ("Waiting for an answer on Browser tab 3F2A"): two tabs of the
 * same browser must be told apart, so a browser tab carries the first 4 characters of its id.
 */
export const surfaceLabel = surfaceKind === 'app' ? 'Desktop app' : `Browser tab ${tabSurfaceId.slice('browser-'.length, 'browser-'.length + 4).toUpperCase()}`;
const picked = new Map<string, string>();
const mounted = new Map<string, number>();

/** The surface id of this page for a session. */
export function surfaceFor(sessionId: string): string {
  return picked.get(sessionId) ?? tabSurfaceId;
}

/** Remembers the surface a handover pickup attached for a session. */
export function rememberPickup(sessionId: string, surfaceId: string): void {
  picked.set(sessionId, surfaceId);
}

/**
 * Attaches this page to a session while its view is open (detached a tick after it closes, so a
 * remount keeps it). The engine refuses (HANDOVER_REQUIRED) while another tab or window shows the
 * session: this page then only watches it (output still arrives) until it is picked up with a
 * code. A refusal is retried a few times (the other tab may be closing).
 */
export function useAttachSurface(sessionId: string): void {
  const client = useApp((s) => s.client);
  const connection = useApp((s) => s.connection);
  useEffect(() => {
    if (!client || connection !== 'open') return;
    mounted.set(sessionId, (mounted.get(sessionId) ?? 0) + 1);
    let cancelled = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const attach = (triesLeft: number) => {
      void client.request('sessions.attach', { sessionId, surfaceId: surfaceFor(sessionId), kind: surfaceKind, label: surfaceLabel, surfaceKey }).catch((e: unknown) => {
        if (cancelled || triesLeft === 0 || (e as { code?: string }).code !== 'HANDOVER_REQUIRED') return;
        retry = setTimeout(() => attach(triesLeft - 1), 1000);
      });
    };
    attach(3);
    return () => {
      cancelled = true;
      clearTimeout(retry);
      mounted.set(sessionId, (mounted.get(sessionId) ?? 1) - 1);
      setTimeout(() => {
        if (mounted.get(sessionId)) return;
        void client.request('sessions.detach', { sessionId, surfaceId: surfaceFor(sessionId), surfaceKey }).catch(() => undefined);
      }, 0);
    };
  }, [client, connection, sessionId]);
}
