import { BrowserWindow, Notification } from 'electron';
import type { PayloadOf } from '../shared/contract';
import type { EventBus } from './core/events/bus';

/** Requests already notified, remembered so a re-targeted request is not announced twice (bounded). */
const MAX_REMEMBERED = 500;

/**
 * Raises a desktop notification when an agent asks for permission and no Atrium window is focused
 * ("a request arriving while no window is open waits and raises a desktop notification").
 * Only requests this desktop app should answer are announced: addressed to a
 * desktop-window surface (`surfaceKind` `app`; only this app's windows attach as `app`, browser tabs
 * of the pickup server attach as `browser`, terminals as `cli`) or to no surface (null = any). A
 * request addressed to a browser tab or a terminal is left to it, and notified once it is
 * re-targeted here (its surface detached). Each request is notified at most once. Clicking the
 * notification opens or focuses the window on that session. Returns the unsubscribe function.
 */
export function notifyPermissionRequests(bus: EventBus, showSession: (sessionId: string) => void): () => void {
  const notified = new Set<string>();
  return bus.subscribe((event, payload) => {
    if (event !== 'permissionRequested' || !Notification.isSupported()) return;
    const { sessionId, sessionTitle, permission, surfaceId } = payload as PayloadOf<'permissionRequested'>;
    const target = surfaceId ?? permission.surfaceId ?? null;
    if (target !== null && permission.surfaceKind !== 'app') return;
    const key = `${sessionId} ${permission.requestId}`;
    if (notified.has(key)) return;
    if (BrowserWindow.getAllWindows().some((w) => w.isFocused())) return;
    notified.add(key);
    if (notified.size > MAX_REMEMBERED) notified.delete(notified.values().next().value as string);
    const note = new Notification({
      title: `Permission needed${sessionTitle ? `: ${sessionTitle}` : ''}`,
      body: `${permission.title}. The agent waits until you answer in Atrium.`,
    });
    note.on('click', () => showSession(sessionId));
    note.show();
  });
}
