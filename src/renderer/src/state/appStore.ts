import { create } from 'zustand';
import type { AppInfo, Workspace } from '../../../shared/contract';
import type { AtriumClient, ConnectionState } from '../api/client';

/** Global UI state: who we are talking to, the workspace list and the selection. */
export interface AppState {
  client: AtriumClient | null;
  info: AppInfo | null;
  connection: ConnectionState;
  workspaces: Workspace[];
  workspacesLoaded: boolean;
  selectedId: string | null;
  /** A dialog the keyboard shortcuts open; one at a time. */
  dialog: { kind: 'add' } | { kind: 'rename'; id: string } | { kind: 'remove'; id: string } | null;
  select(id: string | null): void;
  openDialog(dialog: AppState['dialog']): void;
}

export const useApp = create<AppState>((set) => ({
  client: null,
  info: null,
  connection: 'connecting',
  workspaces: [],
  workspacesLoaded: false,
  selectedId: readSelectionFromHash(),
  dialog: null,
  select(id) {
    set({ selectedId: id });
    const hash = id ? `#/workspace/${encodeURIComponent(id)}` : '#/';
    if (location.hash !== hash) history.replaceState(null, '', hash);
  },
  openDialog(dialog) {
    set({ dialog });
  },
}));

function readSelectionFromHash(): string | null {
  const m = /^#\/workspace\/([^/]+)/.exec(location.hash);
  return m ? decodeURIComponent(m[1]) : null;
}

/** Connects the store to a client: initial loads and live events. Returns a disposer. */
export function attachClient(client: AtriumClient): () => void {
  useApp.setState({ client });
  const loadAll = async () => {
    const [info, { workspaces }] = await Promise.all([client.request('app.info', {}), client.request('workspaces.list', {})]);
    useApp.setState({ info, workspaces, workspacesLoaded: true });
  };
  const offs = [
    client.on('workspacesChanged', ({ workspaces }) => useApp.setState({ workspaces })),
    client.onConnection((connection) => {
      useApp.setState({ connection });
      // (Re)load everything on (re)connect: events may have been missed while disconnected.
      if (connection === 'open') void loadAll().catch(() => {});
    }),
  ];
  return () => offs.forEach((off) => off());
}

/** The selected workspace, or null (also when the selection points at a removed workspace). */
export function useSelectedWorkspace(): Workspace | null {
  return useApp((s) => s.workspaces.find((w) => w.id === s.selectedId) ?? null);
}
