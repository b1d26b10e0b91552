import { BrowserWindow, Notification } from 'electron';
import type { EventBus } from './core/events/bus';

/**
 * Raises a desktop notification when an agent asks for permission and no Atrium window is focused
 * (issue 7: "a request arriving while no window is open waits and raises a desktop notification").
 * Clicking it opens or focuses the window on that session. Returns the unsubscribe function.
 */
export function notifyPermissionRequests(bus: EventBus, showSession: (sessionId: string) => void): () => void {
  return bus.subscribe((event, payload) => {
    if (event !== 'permissionRequested' || !Notification.isSupported()) return;
    if (BrowserWindow.getAllWindows().some((w) => w.isFocused())) return;
    const { sessionId, sessionTitle, permission } = payload as { sessionId: string; sessionTitle: string | null; permission: { title: string } };
    const note = new Notification({
      title: `Permission needed${sessionTitle ? `: ${sessionTitle}` : ''}`,
      body: `${permission.title}. The agent waits until you answer in Atrium.`,
    });
    note.on('click', () => showSession(sessionId));
    note.show();
  });
}
