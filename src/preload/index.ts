import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IPC_EVENT_CHANNEL, IPC_REQUEST_PREFIX, REQUEST_NAMES } from '../shared/contract';
import type { AtriumBridge } from '../shared/bridge';

// The only bridge between the sandboxed renderer and the main process: the contract's requests
// (by name, nothing else) and its events. No Node API reaches the page.
const allowed = new Set<string>(REQUEST_NAMES);

const bridge: AtriumBridge = {
  invoke(method, params) {
    if (!allowed.has(method)) return Promise.resolve({ ok: false, error: { code: 'UNKNOWN_METHOD', message: `Unknown request "${method}".` } });
    return ipcRenderer.invoke(IPC_REQUEST_PREFIX + method, params);
  },
  onEvent(listener) {
    const wrapped = (_event: IpcRendererEvent, frame: { event: string; payload: unknown }) => listener(frame.event, frame.payload);
    ipcRenderer.on(IPC_EVENT_CHANNEL, wrapped);
    return () => ipcRenderer.removeListener(IPC_EVENT_CHANNEL, wrapped);
  },
};

contextBridge.exposeInMainWorld('atrium', bridge);
