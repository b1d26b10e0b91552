import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { events, IPC_EVENT_CHANNEL, IPC_REQUEST_PREFIX, REQUEST_NAMES, type EventName, type PayloadOf } from '../shared/contract';
import type { Dispatcher, DispatchOutcome } from './core/dispatcher';
import type { EventBus } from './core/events/bus';
import { ConnectionSurfaces } from './server/connectionSurfaces';
import { connectionParams } from './server/server';

/**
 * Binds every contract request to `ipcMain.handle('atrium:req:<name>')`. Only the app's own main
 * frame may call (`isTrustedSender`); params are validated with the contract's zod schema by the
 * dispatcher before they reach the engine; failures come back as `{ok:false, error:{code,message}}`
 * (never a stack). Session surfaces a window attached (`sessions.attach`, `sessions.pickup`) are
 * detached when its page goes away: webContents destroyed (window closed), renderer crashed, or a
 * new document loaded (reload), so a session never lists a window that no longer shows it.
 * Returns a function that unbinds everything.
 */
export function bindContract(
  ipcMain: IpcMain,
  dispatcher: Dispatcher,
  isTrustedSender: (event: IpcMainInvokeEvent) => boolean,
): () => void {
  const surfaces = new ConnectionSurfaces((sessionId, surfaceId) => dispatcher.dispatch('sessions.detach', { sessionId, surfaceId }));
  const watched = new WeakSet<WebContents>();
  for (const name of REQUEST_NAMES) {
    ipcMain.handle(IPC_REQUEST_PREFIX + name, async (event, params: unknown): Promise<DispatchOutcome> => {
      if (!isTrustedSender(event)) {
        return { ok: false, error: { code: 'FORBIDDEN_SENDER', message: 'This frame may not call Atrium.' } };
      }
      // Handover rules and rate limits key on the window, never on a client-supplied id.
      const connectionId = `electron:${event.sender.id}`;
      const sent = connectionParams(name, params, connectionId);
      const outcome = await dispatcher.dispatch(name, sent, { caller: connectionId });
      surfaces.observe(connectionId, name, sent, outcome);
      if (!watched.has(event.sender)) {
        watched.add(event.sender);
        releaseWhenPageGoes(event.sender, () => void surfaces.release(connectionId));
      }
      return outcome;
    });
  }
  return () => {
    for (const name of REQUEST_NAMES) ipcMain.removeHandler(IPC_REQUEST_PREFIX + name);
  };
}

/**
 * Calls `release` whenever the page of `wc` stops existing: the webContents is destroyed, its
 * renderer process is gone, or its main frame starts loading another document (a reload gives the
 * page new surface ids; in-page hash navigation keeps the document and is ignored).
 */
function releaseWhenPageGoes(wc: WebContents, release: () => void): void {
  wc.on('destroyed', release);
  wc.on('render-process-gone', release);
  wc.on('did-start-navigation', (details) => {
    if (details.isMainFrame && !details.isSameDocument) release();
  });
}

/** Forwards every engine event to the given windows' renderers. Returns the unsubscribe function. */
export function forwardEvents(bus: EventBus, targets: () => WebContents[]): () => void {
  return bus.subscribe((event, payload) => {
    for (const wc of targets()) if (!wc.isDestroyed()) wc.send(IPC_EVENT_CHANNEL, { event, payload });
  });
}

/**
 * Sends one event to the given windows only (not to the engine's bus, so browser tabs of the
 * pickup server never see it). The payload is checked against the contract's schema first; an
 * invalid one throws here instead of reaching a renderer.
 */
export function sendToWindows<E extends EventName>(targets: WebContents[], event: E, payload: PayloadOf<E>): void {
  const checked = events[event].payload.parse(payload);
  for (const wc of targets) if (!wc.isDestroyed()) wc.send(IPC_EVENT_CHANNEL, { event, payload: checked });
}
