import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { IPC_EVENT_CHANNEL, IPC_REQUEST_PREFIX, REQUEST_NAMES } from '../shared/contract';
import type { Dispatcher, DispatchOutcome } from './core/dispatcher';
import type { EventBus } from './core/events/bus';
import { connectionParams } from './server/server';

/**
 * Binds every contract request to `ipcMain.handle('atrium:req:<name>')`. Only the app's own main
 * frame may call (`isTrustedSender`); params are validated with the contract's zod schema by the
 * dispatcher before they reach the engine; failures come back as `{ok:false, error:{code,message}}`
 * (never a stack). Returns a function that unbinds everything.
 */
export function bindContract(
  ipcMain: IpcMain,
  dispatcher: Dispatcher,
  isTrustedSender: (event: IpcMainInvokeEvent) => boolean,
): () => void {
  for (const name of REQUEST_NAMES) {
    ipcMain.handle(IPC_REQUEST_PREFIX + name, async (event, params: unknown): Promise<DispatchOutcome> => {
      if (!isTrustedSender(event)) {
        return { ok: false, error: { code: 'FORBIDDEN_SENDER', message: 'This frame may not call Atrium.' } };
      }
      // Rate limits key on the surface, never on a client-supplied id (handover pickup).
      return dispatcher.dispatch(name, connectionParams(name, params, `electron:${event.sender.id}`));
    });
  }
  return () => {
    for (const name of REQUEST_NAMES) ipcMain.removeHandler(IPC_REQUEST_PREFIX + name);
  };
}

/** Forwards every engine event to the given windows' renderers. Returns the unsubscribe function. */
export function forwardEvents(bus: EventBus, targets: () => WebContents[]): () => void {
  return bus.subscribe((event, payload) => {
    for (const wc of targets()) if (!wc.isDestroyed()) wc.send(IPC_EVENT_CHANNEL, { event, payload });
  });
}
