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
  /** What the main pane shows: the selected workspace, the global sessions list, one session, or the Trusted folders page. */
  view: 'workspace' | 'sessions' | 'session' | 'trust';
  /** The section of the Trusted folders page (`#/trust`, `#/trust/permissions`). */
  trustTab: 'folders' | 'permissions';
  /** The open session (view `session`); its URL is `#/sessions/<id>`, so a reload returns to it. */
  sessionId: string | null;
  /** Where the session view's back button goes. */
  returnTo: { kind: 'sessions' } | { kind: 'workspace'; id: string; tab: string };
  /** The tab a workspace view opens on (set when going back to it from a session). */
  workspaceTab: string;
  /** A dialog the keyboard shortcuts open; one at a time. */
  dialog: { kind: 'add' } | { kind: 'rename'; id: string } | { kind: 'remove'; id: string } | null;
  select(id: string | null, tab?: string): void;
  /** Shows the global sessions list (`#/sessions`). */
  showSessions(): void;
  /** Opens a session in the main pane (`#/sessions/<id>`); `from` is where Back returns. */
  openSession(id: string, from?: AppState['returnTo']): void;
  /** Shows the global Trusted folders page (`#/trust`) or its Permissions granted section (`#/trust/permissions`). */
  showTrust(tab?: AppState['trustTab']): void;
  openDialog(dialog: AppState['dialog']): void;
}

export const useApp = create<AppState>((set) => ({
  client: null,
  info: null,
  connection: 'connecting',
  workspaces: [],
  workspacesLoaded: false,
  returnTo: { kind: 'sessions' },
  workspaceTab: 'overview',
  trustTab: 'folders',
  ...readRouteFromHash(),
  dialog: null,
  select(id, tab = 'overview') {
    set({ selectedId: id, view: 'workspace', sessionId: null, workspaceTab: tab });
    setHash(id ? `#/workspace/${encodeURIComponent(id)}` : '#/');
  },
  showSessions() {
    set({ selectedId: null, view: 'sessions', sessionId: null });
    setHash('#/sessions');
  },
  openSession(id, from) {
    set((s) => ({ selectedId: null, view: 'session', sessionId: id, returnTo: from ?? s.returnTo }));
    setHash(`#/sessions/${encodeURIComponent(id)}`);
  },
  showTrust(tab = 'folders') {
    set({ selectedId: null, view: 'trust', sessionId: null, trustTab: tab });
    setHash(tab === 'permissions' ? '#/trust/permissions' : '#/trust');
  },
  openDialog(dialog) {
    set({ dialog });
  },
}));

/** Records a navigation in the browser history, so Back and Forward move within Atrium. */
function setHash(hash: string): void {
  if (location.hash !== hash) history.pushState(null, '', hash);
}

// Back/Forward, or an address typed by hand: follow the URL.
if (typeof window !== 'undefined') {
  const follow = () => useApp.setState(readRouteFromHash());
  window.addEventListener('popstate', follow);
  window.addEventListener('hashchange', follow);
}

/** `#/workspace/<id>`, `#/sessions`, `#/sessions/<id>`, `#/trust` and `#/trust/permissions` → the initial route. */
function readRouteFromHash(): Pick<AppState, 'selectedId' | 'view' | 'sessionId'> & Partial<Pick<AppState, 'trustTab'>> {
  const trust = /^#\/trust(\/permissions)?\/?$/.exec(location.hash);
  if (trust) return { selectedId: null, view: 'trust', sessionId: null, trustTab: trust[1] ? 'permissions' : 'folders' };
  const ws = /^#\/workspace\/([^/]+)/.exec(location.hash);
  if (ws) return { selectedId: decodeURIComponent(ws[1]), view: 'workspace', sessionId: null };
  const session = /^#\/sessions\/([^/]+)/.exec(location.hash);
  if (session) return { selectedId: null, view: 'session', sessionId: decodeURIComponent(session[1]) };
  if (/^#\/sessions\/?$/.test(location.hash)) return { selectedId: null, view: 'sessions', sessionId: null };
  return { selectedId: null, view: 'workspace', sessionId: null };
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
