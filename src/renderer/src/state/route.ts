/**
 * Addresses: every place in Atrium has one, kept in the URL fragment (`location.hash`), so a
 * reload returns there, Back and Forward move between places, and an address can be copied. The
 * whole scheme:
 *
 *   #/                                         nothing selected (welcome)
 *   #/workspace/<id>[/<tab>][?<params>]        a workspace tab: overview | sessions | rules | trust | extensions | hooks | agent-settings
 *       rules:  ?file=<rule file id>  ?test=<path>&from=<dir>&agent=<id>  ?view=files|test|lint
 *       hooks:  ?hook=<hook id>
 *   #/sessions                                 all sessions
 *   #/sessions/<id>[?item=<transcript item id>]
 *   #/settings[/<section>]                     settings (sections: see features/settings/sections)
 *   #/trust[/permissions]                      Trusted folders, or its Permissions granted section
 *   #/<page>[?<params>]                        a global page (`PAGES` below), e.g. trusted folders
 *
 * Segments are percent-encoded; params are `URLSearchParams`. Unknown tabs, pages or params are
 * ignored (an old address still opens what it can).
 *
 * The browser server's token also arrives in the fragment (`#token=…`): `api/browserToken.ts`
 * takes it out before anything here reads the address, so no address Atrium writes carries it.
 * The desktop app's `atrium://` links map onto these (src/main/deepLinkRoute.ts, `routeHash`).
 *
 * To give a new screen an address: a global page adds its name to `PAGES` and a case in App.tsx;
 * a workspace tab adds its value to `WORKSPACE_TABS`; a view's own state (a filter, a selection)
 * reads `useRouteParam(name)` and writes with `setRouteParams({ name: value })` (pushes a history
 * entry; pass `{ replace: true }` for keystroke-level changes such as typing in a filter box).
 */

/** The tabs of a workspace, in order. */
export const WORKSPACE_TABS = ['overview', 'sessions', 'rules', 'trust', 'extensions', 'hooks', 'agent-settings'] as const;
export type WorkspaceTab = (typeof WORKSPACE_TABS)[number];

/** Global pages besides sessions and settings, by the name that is their address (`#/<name>`). */
export const PAGES: readonly string[] = [];

/** Params of a route (`?a=b` after the path), by name. */
export type RouteParams = Readonly<Record<string, string>>;

/** One place in the app, as {@link parseRoute} reads it from an address. */
export type Route =
  | { kind: 'home'; params: RouteParams }
  | { kind: 'workspace'; id: string; tab: WorkspaceTab; params: RouteParams }
  | { kind: 'sessions'; params: RouteParams }
  | { kind: 'session'; id: string; params: RouteParams }
  | { kind: 'settings'; section: string | null; params: RouteParams }
  | { kind: 'trust'; tab: 'folders' | 'permissions'; params: RouteParams }
  | { kind: 'page'; name: string; params: RouteParams };

const NONE: RouteParams = Object.freeze({});

/** Reads an address fragment (with or without the leading `#`); anything unknown is `home`. Never throws. */
export function parseRoute(hash: string): Route {
  const raw = hash.replace(/^#/, '');
  const q = raw.indexOf('?');
  const pathPart = q < 0 ? raw : raw.slice(0, q);
  const params = q < 0 ? NONE : readParams(raw.slice(q + 1));
  const segments = pathPart
    .split('/')
    .filter(Boolean)
    .map((s) => decode(s));
  if (segments.some((s) => s === null)) return { kind: 'home', params: NONE };
  const [head, a, b] = segments as string[];
  switch (head) {
    case 'workspace':
      if (!a) return { kind: 'home', params: NONE };
      return { kind: 'workspace', id: a, tab: (WORKSPACE_TABS as readonly string[]).includes(b ?? '') ? (b as WorkspaceTab) : 'overview', params };
    case 'sessions':
      return a ? { kind: 'session', id: a, params } : { kind: 'sessions', params };
    case 'settings':
      return { kind: 'settings', section: a ?? null, params };
    case 'trust':
      return { kind: 'trust', tab: a === 'permissions' ? 'permissions' : 'folders', params };
    default:
      if (head && PAGES.includes(head)) return { kind: 'page', name: head, params };
      return { kind: 'home', params: NONE };
  }
}

/** Writes a route as an address fragment (`#/…`); the inverse of {@link parseRoute}. Empty params are left out. */
export function formatRoute(route: Route): string {
  const enc = encodeURIComponent;
  let path: string;
  switch (route.kind) {
    case 'home':
      path = '/';
      break;
    case 'workspace':
      path = `/workspace/${enc(route.id)}${route.tab === 'overview' ? '' : `/${route.tab}`}`;
      break;
    case 'sessions':
      path = '/sessions';
      break;
    case 'session':
      path = `/sessions/${enc(route.id)}`;
      break;
    case 'settings':
      path = `/settings${route.section ? `/${enc(route.section)}` : ''}`;
      break;
    case 'trust':
      path = route.tab === 'permissions' ? '/trust/permissions' : '/trust';
      break;
    case 'page':
      path = `/${enc(route.name)}`;
      break;
  }
  const query = new URLSearchParams(Object.entries(route.params).filter(([, v]) => v !== ''));
  const qs = query.toString();
  return `#${path}${qs ? `?${qs}` : ''}`;
}

/** Same place (kind, ids, tab, section, page), ignoring params. */
export function samePlace(a: Route, b: Route): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'workspace' && b.kind === 'workspace') return a.id === b.id && a.tab === b.tab;
  if (a.kind === 'session' && b.kind === 'session') return a.id === b.id;
  if (a.kind === 'settings' && b.kind === 'settings') return a.section === b.section;
  if (a.kind === 'page' && b.kind === 'page') return a.name === b.name;
  if (a.kind === 'trust' && b.kind === 'trust') return a.tab === b.tab;
  return true;
}

function readParams(query: string): RouteParams {
  const out: Record<string, string> = {};
  try {
    for (const [k, v] of new URLSearchParams(query)) if (k !== 'token') out[k] = v;
  } catch {
    return NONE;
  }
  return out;
}

function decode(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}
