import { create } from 'zustand';
import type { AppInfo, AppSettings, Workspace } from '../../../shared/contract';
import type { AtriumClient, ConnectionState } from '../api/client';
import { formatRoute, parseRoute, WORKSPACE_TABS, type Route, type RouteParams, type WorkspaceTab } from './route';

/** Global UI state: who we are talking to, the workspace list and where the user is (the route, see route.ts). */
export interface AppState {
  client: AtriumClient | null;
  info: AppInfo | null;
  connection: ConnectionState;
  workspaces: Workspace[];
  workspacesLoaded: boolean;
  /** App settings of this data directory (null until loaded). */
  settings: AppSettings | null;
  /** Where the user is; mirrored in `location.hash` (route.ts documents the addresses). */
  route: Route;
  /** The selected workspace (route `workspace`), else null. */
  selectedId: string | null;
  /** What the main pane shows: the selected workspace, the global sessions list, one session, settings, the Trusted folders page, or another global page. */
  view: 'workspace' | 'sessions' | 'session' | 'settings' | 'trust' | 'page';
  /** The section of the Trusted folders page (`#/trust`, `#/trust/permissions`). */
  trustTab: 'folders' | 'permissions';
  /** The open session (view `session`); its address is `#/sessions/<id>`, so a reload returns to it. */
  sessionId: string | null;
  /** Where the session view's back button goes. */
  returnTo: { kind: 'sessions' } | { kind: 'workspace'; id: string; tab: string };
  /** The tab the selected workspace shows. */
  workspaceTab: WorkspaceTab;
  /** A dialog the keyboard shortcuts open; one at a time. */
  dialog: { kind: 'add' } | { kind: 'rename'; id: string } | { kind: 'remove'; id: string } | null;
  select(id: string | null, tab?: string, params?: RouteParams): void;
  /** Shows the global sessions list (`#/sessions`). */
  showSessions(): void;
  /** Opens a session in the main pane (`#/sessions/<id>`); `from` is where Back returns. */
  openSession(id: string, from?: AppState['returnTo'], params?: RouteParams): void;
  /** Shows the settings page (`#/settings[/<section>]`). */
  showSettings(section?: string | null): void;
  /** Goes to any route (pushes a history entry unless `replace`). */
  navigate(route: Route, options?: { replace?: boolean }): void;
  /** Shows the global Trusted folders page (`#/trust`) or its Permissions granted section (`#/trust/permissions`). */
  showTrust(tab?: AppState['trustTab']): void;
  openDialog(dialog: AppState['dialog']): void;
}

/** The store fields a route decides. */
function fieldsOf(route: Route): Pick<AppState, 'route' | 'selectedId' | 'view' | 'sessionId' | 'workspaceTab'> & Partial<Pick<AppState, 'trustTab'>> {
  switch (route.kind) {
    case 'workspace':
      return { route, selectedId: route.id, view: 'workspace', sessionId: null, workspaceTab: route.tab };
    case 'session':
      return { route, selectedId: null, view: 'session', sessionId: route.id, workspaceTab: 'overview' };
    case 'sessions':
      return { route, selectedId: null, view: 'sessions', sessionId: null, workspaceTab: 'overview' };
    case 'settings':
      return { route, selectedId: null, view: 'settings', sessionId: null, workspaceTab: 'overview' };
    case 'trust':
      return { route, selectedId: null, view: 'trust', sessionId: null, workspaceTab: 'overview', trustTab: route.tab };
    case 'page':
      return { route, selectedId: null, view: 'page', sessionId: null, workspaceTab: 'overview' };
    case 'home':
      return { route, selectedId: null, view: 'workspace', sessionId: null, workspaceTab: 'overview' };
  }
}

const tabOf = (tab: string | undefined): WorkspaceTab => ((WORKSPACE_TABS as readonly string[]).includes(tab ?? '') ? (tab as WorkspaceTab) : 'overview');
const NO_PARAMS: RouteParams = {};

export const useApp = create<AppState>((set, get) => ({
  client: null,
  info: null,
  connection: 'connecting',
  workspaces: [],
  workspacesLoaded: false,
  settings: null,
  trustTab: 'folders',
  ...fieldsOf(parseRoute(typeof location === 'undefined' ? '' : location.hash)),
  returnTo: { kind: 'sessions' },
  dialog: null,
  navigate(route, options) {
    set(fieldsOf(route));
    writeHash(formatRoute(route), options?.replace ?? false);
  },
  select(id, tab, params = NO_PARAMS) {
    get().navigate(id ? { kind: 'workspace', id, tab: tabOf(tab), params } : { kind: 'home', params: NO_PARAMS });
  },
  showSessions() {
    get().navigate({ kind: 'sessions', params: NO_PARAMS });
  },
  openSession(id, from, params = NO_PARAMS) {
    set((s) => ({ returnTo: from ?? s.returnTo }));
    get().navigate({ kind: 'session', id, params });
  },
  showSettings(section = null) {
    get().navigate({ kind: 'settings', section, params: NO_PARAMS });
  },
  showTrust(tab = 'folders') {
    get().navigate({ kind: 'trust', tab, params: NO_PARAMS });
  },
  openDialog(dialog) {
    set({ dialog });
  },
}));

/**
 * Changes params of the current route (a value of `null` or `''` removes one); other params stay.
 * Pushes a history entry (so Back undoes it) unless `replace`.
 */
export function setRouteParams(changes: Record<string, string | null | undefined>, options?: { replace?: boolean }): void {
  const { route, navigate } = useApp.getState();
  const params: Record<string, string> = { ...route.params };
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === undefined || v === '') delete params[k];
    else params[k] = v;
  }
  if (Object.keys(params).length === Object.keys(route.params).length && Object.entries(params).every(([k, v]) => route.params[k] === v)) return;
  navigate({ ...route, params } as Route, options);
}

/** One param of the current route (null when absent). */
export function useRouteParam(name: string): string | null {
  return useApp((s) => s.route.params[name] ?? null);
}

/** Records a navigation in the browser history, so Back and Forward move within Atrium. */
function writeHash(hash: string, replace: boolean): void {
  if (location.hash === hash) return;
  if (replace) history.replaceState(null, '', hash);
  else history.pushState(null, '', hash);
}

// Back/Forward, or an address typed by hand: follow the URL (a `#token=` is the token module's, not a place).
if (typeof window !== 'undefined') {
  const follow = () => {
    if (/^#token=/.test(location.hash)) return;
    useApp.setState(fieldsOf(parseRoute(location.hash)));
  };
  window.addEventListener('popstate', follow);
  window.addEventListener('hashchange', follow);
}

/** Connects the store to a client: initial loads and live events. Returns a disposer. */
export function attachClient(client: AtriumClient): () => void {
  useApp.setState({ client });
  const loadAll = async () => {
    const [info, { workspaces }, settings] = await Promise.all([client.request('app.info', {}), client.request('workspaces.list', {}), client.request('settings.get', {})]);
    useApp.setState({ info, workspaces, workspacesLoaded: true, settings });
  };
  const offs = [
    client.on('workspacesChanged', ({ workspaces }) => useApp.setState({ workspaces })),
    client.on('settingsChanged', (settings) => useApp.setState({ settings })),
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
