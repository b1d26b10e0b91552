import path from 'node:path';
import type { App } from 'electron';
import type { Dispatcher } from './core/dispatcher';
import { DEEP_LINK_SCHEME, deepLinkFromArgv, parseDeepLink, routeHash, type DeepLink } from './deepLinkRoute';

/** What routing a link needs from the app: the engine's contract and the main window. */
export interface DeepLinkTarget {
  dispatcher: Dispatcher;
  /** Restores and focuses the main window (recreating it if closed) and, given a hash, shows that route. */
  show(hash: string | null): void;
  /** Tells the user why a link did nothing (a short message and what to do instead). */
  inform(message: string, detail: string): void;
}

/**
 * Receives `atrium://` links from every way the OS delivers them, and routes each into the app
 * (./deepLinkRoute has the mapping): the first launch's `argv` (Windows, Linux), a second launch's
 * argv (`second-instance`: that instance quits on losing the single-instance lock, this one gets
 * its arguments) and `open-url` (macOS, also before `ready`: listen early). A second launch without
 * a link just brings the window forward. Links that arrive before {@link attach} wait for it.
 * A malformed or unknown link is logged and ignored (the window still comes forward); nothing here
 * throws or navigates anywhere but to a route of the app's own page.
 */
export function receiveDeepLinks(app: App, argv: readonly string[]) {
  const pending: Array<string | null> = [];
  let target: DeepLinkTarget | null = null;
  const first = deepLinkFromArgv(argv);
  if (first) pending.push(first);
  const receive = (url: string | null) => {
    if (target) void routeDeepLink(target, url);
    else pending.push(url);
  };
  app.on('second-instance', (_event, secondArgv: string[]) => receive(deepLinkFromArgv(Array.isArray(secondArgv) ? secondArgv : [])));
  app.on('open-url', (event, url: string) => {
    event.preventDefault();
    receive(url);
  });
  return {
    /** Starts routing, beginning with the links received so far. */
    attach(to: DeepLinkTarget): void {
      target = to;
      for (const url of pending.splice(0)) void routeDeepLink(to, url);
    },
  };
}

/**
 * Makes this app the OS handler of `atrium://` when it is the packaged app. A development or test
 * run (`electron .`) does not claim the scheme: the registration would outlive it and send links
 * to a checkout. The installers declare the scheme too (build/electron-builder.yml `protocols`).
 */
export function claimDeepLinkScheme(app: App): void {
  if (app.isPackaged && !app.isDefaultProtocolClient(DEEP_LINK_SCHEME)) app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
}

/**
 * Routes one received link (null: a plain second launch). Resolves when done; never rejects.
 * A workspace or session must exist; `open?path=` shows the listed workspace of exactly that folder,
 * and for an unlisted folder only says so: a link may come from any web page or program, so it never
 * adds a folder (adding one is how a folder's hooks, rules and MCP servers come into review).
 */
export async function routeDeepLink(target: DeepLinkTarget, url: string | null): Promise<void> {
  if (url === null) return target.show(null);
  const parsed = parseDeepLink(url);
  if (!parsed.ok) {
    console.warn(`[atrium] ignored the link ${quote(url)}: ${parsed.reason}`);
    return target.show(null);
  }
  let hash: string | null = null;
  try {
    hash = await resolveLink(target, parsed.link);
  } catch (error) {
    console.warn(`[atrium] ignored the link ${quote(url)}: ${error instanceof Error ? error.message : String(error)}`);
  }
  target.show(hash);
}

async function resolveLink(target: DeepLinkTarget, link: DeepLink): Promise<string | null> {
  switch (link.kind) {
    case 'sessions':
    case 'settings':
      return routeHash(link);
    case 'session':
      // throws SESSION_NOT_FOUND for an unknown id
      await target.dispatcher.call('sessions.show', { sessionId: link.id });
      return routeHash(link);
    case 'workspace': {
      const { workspaces } = await target.dispatcher.call('workspaces.list', {});
      if (!workspaces.some((w) => w.id === link.id)) throw new Error(`no workspace has the id ${link.id}`);
      return routeHash(link);
    }
    case 'open': {
      const { workspaces } = await target.dispatcher.call('workspaces.list', {});
      const wanted = path.resolve(link.path);
      const found = workspaces.find((w) => path.resolve(w.path) === wanted);
      if (found) return routeHash({ kind: 'workspace', id: found.id });
      console.warn(`[atrium] the link asked to open ${quote(link.path)}, which is not a workspace: not added`);
      target.inform(
        'This folder is not one of your workspaces',
        `A link asked Atrium to open ${link.path}. Links only open folders you already added; they never add one. If you want it in Atrium, add it with Add workspace (Ctrl+O or ⌘O) and review its trust.`,
      );
      return null;
    }
  }
}

/** A link for a log line: quoted, and cut short so a huge address cannot flood the log. */
function quote(text: string): string {
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);
}
