import path from 'node:path';

/** The URL scheme the desktop app registers with the OS (`atrium://…`). */
export const DEEP_LINK_SCHEME = 'atrium';

/** Longer `atrium://` addresses are refused unread: no valid one comes near (ids are UUIDs, paths are capped). */
export const MAX_DEEP_LINK_LENGTH = 2048;
/** Longest folder path `atrium://open?path=` accepts, in characters. */
export const MAX_DEEP_LINK_PATH_LENGTH = 1024;

/** The workspace tabs a link may name (the renderer's `WORKSPACE_TABS`, state/route.ts; a test keeps them equal). */
export const LINK_WORKSPACE_TABS = ['overview', 'sessions', 'rules', 'trust', 'extensions', 'hooks', 'agent-settings'] as const;

/**
 * Where an `atrium://` address may lead; the whole mapping, onto the renderer's addresses
 * (src/renderer/src/state/route.ts):
 * - `atrium://workspace/<id>[/<tab>]` → that workspace, on that tab (`#/workspace/<id>[/<tab>]`);
 * - `atrium://sessions` → the sessions list (`#/sessions`);
 * - `atrium://session/<id>[?item=<n>]` → that session, at that transcript item (`#/sessions/<id>[?item=<n>]`);
 * - `atrium://settings[/<section>]` → settings (`#/settings[/<section>]`);
 * - `atrium://open?path=<absolute folder>` → the listed workspace of that folder. An unlisted
 *   folder is never added or trusted from a link (a link can come from any web page or program).
 * An id is 1–128 letters, digits, `-` or `_` (the engine's ids are UUIDs). One trailing `/` is
 * tolerated (some platforms append it); the scheme and host are case-insensitive.
 */
export type DeepLink =
  | { kind: 'workspace'; id: string; tab?: (typeof LINK_WORKSPACE_TABS)[number] }
  | { kind: 'sessions' }
  | { kind: 'session'; id: string; item?: number }
  | { kind: 'settings'; section?: string }
  | { kind: 'open'; path: string };

/** The result of {@link parseDeepLink}: the link, or why the address was refused (for the log). */
export type DeepLinkParse = { ok: true; link: DeepLink } | { ok: false; reason: string };

const ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
const HOSTS = new Set(['workspace', 'session', 'sessions', 'settings', 'open']);
const SHAPE = /^atrium:\/\/([a-z]+)(\/[^?#]*)?(?:\?([^#]*))?$/i;

/**
 * Parses an `atrium://` address into a {@link DeepLink}, strictly: anything not in the mapping is
 * refused with a reason, never guessed at. Refused: not a string; longer than
 * {@link MAX_DEEP_LINK_LENGTH}; whitespace, control characters or backslashes anywhere; a fragment;
 * user, password or port; an unknown host; extra or empty path segments; a segment that is not an
 * id after percent-decoding (so `..`, `%2e%2e`, `%2f` are refused) or that is badly encoded; a query
 * on anything but `open` and a session's `?item=<n>`; an unknown workspace tab; for `open`, any parameter besides exactly one `path`, and a path that is
 * relative, over {@link MAX_DEEP_LINK_PATH_LENGTH}, contains control characters, or has a `.` or
 * `..` segment. Never throws.
 */
export function parseDeepLink(raw: unknown): DeepLinkParse {
  if (typeof raw !== 'string') return refuse('not a string');
  if (raw.length > MAX_DEEP_LINK_LENGTH) return refuse(`longer than ${MAX_DEEP_LINK_LENGTH} characters`);
  if (/[\s\u0000-\u001f\u007f\\]/.test(raw)) return refuse('contains whitespace, a control character or a backslash');
  const m = SHAPE.exec(raw);
  if (!m) return refuse(`not of the form ${DEEP_LINK_SCHEME}://<workspace|session|sessions|open>[/…][?…] (no fragment, user or port)`);
  const host = m[1].toLowerCase();
  if (!HOSTS.has(host)) return refuse(`unknown host "${host.slice(0, 40)}"`);
  const rawPath = (m[2] ?? '').replace(/\/$/, '');
  const query = m[3];
  let segments: string[];
  try {
    segments = rawPath === '' ? [] : rawPath.slice(1).split('/').map((s) => decodeURIComponent(s));
  } catch {
    return refuse('bad percent-encoding in the path');
  }
  if (host !== 'open' && host !== 'session' && query !== undefined) return refuse(`${host} takes no query`);
  switch (host) {
    case 'workspace': {
      if (segments.length !== 1 && segments.length !== 2) return refuse(`workspace takes an id and optionally a tab: ${DEEP_LINK_SCHEME}://workspace/<id>[/<tab>]`);
      if (!ID.test(segments[0])) return refuse('not a valid workspace id');
      if (segments.length === 1) return { ok: true, link: { kind: 'workspace', id: segments[0] } };
      const tab = LINK_WORKSPACE_TABS.find((t) => t === segments[1]);
      if (!tab) return refuse(`unknown workspace tab (one of ${LINK_WORKSPACE_TABS.join(', ')})`);
      return { ok: true, link: { kind: 'workspace', id: segments[0], tab } };
    }
    case 'session': {
      if (segments.length !== 1) return refuse(`session takes exactly one id: ${DEEP_LINK_SCHEME}://session/<id>`);
      if (!ID.test(segments[0])) return refuse('not a valid session id');
      if (query === undefined) return { ok: true, link: { kind: 'session', id: segments[0] } };
      const item = /^item=([1-9][0-9]{0,14})$/.exec(query);
      if (!item) return refuse('session takes only ?item=<transcript item id>');
      return { ok: true, link: { kind: 'session', id: segments[0], item: Number(item[1]) } };
    }
    case 'settings':
      if (segments.length > 1 || (segments.length === 1 && !ID.test(segments[0]))) return refuse(`settings takes at most a section: ${DEEP_LINK_SCHEME}://settings[/<section>]`);
      return { ok: true, link: segments.length === 1 ? { kind: 'settings', section: segments[0] } : { kind: 'settings' } };
    case 'sessions':
      if (segments.length !== 0) return refuse(`sessions takes no path (a single session is ${DEEP_LINK_SCHEME}://session/<id>)`);
      return { ok: true, link: { kind: 'sessions' } };
    case 'open': {
      if (segments.length !== 0) return refuse(`open takes no path, only ?path=<absolute folder>`);
      return parseOpen(query ?? '');
    }
  }
  return refuse(`unknown host "${host}"`);
}

function parseOpen(query: string): DeepLinkParse {
  let params: URLSearchParams;
  try {
    // URLSearchParams never throws on bad escapes (it keeps them): check them first
    decodeURIComponent(query.replace(/\+/g, ' '));
    params = new URLSearchParams(query);
  } catch {
    return refuse('bad percent-encoding in the query');
  }
  const keys = [...params.keys()];
  if (keys.length !== 1 || keys[0] !== 'path') return refuse('open takes exactly one parameter, path');
  const folder = params.get('path') ?? '';
  if (folder === '') return refuse('open needs a folder: ?path=<absolute folder>');
  if (folder.length > MAX_DEEP_LINK_PATH_LENGTH) return refuse(`the path is longer than ${MAX_DEEP_LINK_PATH_LENGTH} characters`);
  if (/[\u0000-\u001f\u007f]/.test(folder)) return refuse('the path contains a control character');
  if (!path.isAbsolute(folder)) return refuse('the path is not absolute');
  if (folder.split(/[\\/]/).some((s) => s === '.' || s === '..')) return refuse('the path has a . or .. segment');
  return { ok: true, link: { kind: 'open', path: folder } };
}

function refuse(reason: string): DeepLinkParse {
  return { ok: false, reason };
}

/**
 * The renderer route (`location.hash`, as src/renderer/src/state/appStore.ts reads it) a resolved
 * link shows. `open` has no route of its own: it is resolved to a workspace first.
 */
export function routeHash(link: Exclude<DeepLink, { kind: 'open' }>): string {
  switch (link.kind) {
    case 'workspace':
      return `#/workspace/${encodeURIComponent(link.id)}${link.tab && link.tab !== 'overview' ? `/${link.tab}` : ''}`;
    case 'session':
      return `#/sessions/${encodeURIComponent(link.id)}${link.item ? `?item=${link.item}` : ''}`;
    case 'sessions':
      return '#/sessions';
    case 'settings':
      return `#/settings${link.section ? `/${encodeURIComponent(link.section)}` : ''}`;
  }
}

/**
 * The `atrium://` address among command-line arguments, or null: how Windows and Linux hand a
 * link to the app (first launch, and `second-instance`'s argv). Only an argument that starts with
 * the scheme counts (case-insensitive); the first one wins, and at most 64 arguments are looked at.
 */
export function deepLinkFromArgv(argv: readonly string[]): string | null {
  for (const arg of argv.slice(0, 64)) {
    if (typeof arg === 'string' && arg.slice(0, DEEP_LINK_SCHEME.length + 3).toLowerCase() === `${DEEP_LINK_SCHEME}://`) return arg;
  }
  return null;
}
