import fs from 'node:fs';
import path from 'node:path';
import { protocol } from 'electron';
import { securityHeaders } from './server/security';
import { contentTypeOf } from './server/static';

/**
 * The desktop window loads the renderer from `app://atrium/…`, not from `file://`: a page on
 * `file://` may read every other local file it can name, has no origin to pin a Content Security
 * Policy or an IPC sender check to, and gets Electron's extra file privileges. A privileged custom
 * scheme gives the app one origin of its own, served with the same headers (and CSP) as the
 * browser mode of `atrium serve`.
 */
export const APP_SCHEME = 'app';
/** The host of every `app://` address the app serves; any other host is answered 404. */
export const APP_HOST = 'atrium';
/** `app://atrium`: the origin the IPC sender check and the navigation guard accept in a packaged or built app. */
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
/** The address the main window loads. */
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/**
 * Registers `app:` as a standard, secure scheme (its pages get a real origin, a secure context,
 * `fetch`). Electron accepts this only before the `ready` event, and only once per scheme.
 * Cross-origin requests to it stay refused (no `corsEnabled`).
 */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

/**
 * True when `url` is on the app's own origin: `app://atrium` with no user, password or port (so
 * `app://atrium.evil/`, `app://x@atrium/` and `app://atrium:1/` are not). Case of scheme and host is
 * ignored (Chromium lowercases them anyway).
 */
export function isAppOrigin(url: string): boolean {
  return /^app:\/\/atrium(?:[/?#]|$)/i.test(url);
}

/**
 * The file of the built renderer (`root`, i.e. `out/renderer`) that an `app://atrium/…` address
 * names, or null when it names none or tries to leave `root`. `app://atrium/` is `index.html`;
 * there is no fallback for other paths (the renderer routes in the fragment). Refused: another
 * scheme or host; an empty segment (`//etc/passwd`, a trailing `/`); a segment that is or decodes
 * to `.` or `..` (`%2e%2e`); a backslash, raw or encoded (`%5c`), an encoded `/` (`%2f`), NUL or `:`
 * (Windows drive and stream names) anywhere in a decoded segment; bad percent-encoding; a file that
 * resolves (after symlinks) outside `root`. The containment check compares whole path segments
 * (`path.relative`), so a sibling folder whose name starts like the root (`renderer-evil/`) is
 * outside. Chromium already normalises dot segments in standard-scheme URLs before a handler sees
 * them; these checks hold for any string regardless.
 */
export function rendererFileFor(root: string, url: string): string | null {
  const match = /^app:\/\/atrium(\/[^?#]*)?(?:[?#].*)?$/is.exec(url);
  if (!match) return null;
  const rawPath = match[1] === undefined || match[1] === '/' ? '/index.html' : match[1];
  if (/\\|%5c|%2f|%00/i.test(rawPath)) return null;
  const segments: string[] = [];
  for (const raw of rawPath.slice(1).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (segment === '' || segment === '.' || segment === '..' || /[/\\\0:]/.test(segment)) return null;
    segments.push(segment);
  }
  const base = path.resolve(root);
  const candidate = path.join(base, ...segments);
  if (!isInside(base, candidate)) return null;
  try {
    // a symlink inside the build that points elsewhere is outside too
    const real = fs.realpathSync(candidate);
    if (!isInside(fs.realpathSync(base), real) || !fs.statSync(real).isFile()) return null;
    return real;
  } catch {
    return null;
  }
}

/** True when `child` is strictly below `parent`, compared by whole path segments. */
function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
}

/**
 * The `protocol.handle('app', …)` handler: GET/HEAD of a file of the built renderer in `root`
 * ({@link rendererFileFor}) with its MIME type, else 404 (405 for other methods). Every response,
 * errors included, carries the browser server's security headers and CSP (`securityHeaders()` with
 * no extra connect source: the desktop page talks to the engine over IPC, not a WebSocket).
 */
export function createAppRequestHandler(root: string): (request: Request) => Promise<Response> {
  const headers = securityHeaders();
  const text = (status: number, body: string) => new Response(body, { status, headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' } });
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return text(405, 'Method not allowed\n');
    const file = rendererFileFor(root, request.url);
    if (!file) {
      console.warn(`[atrium] app:// answered 404 for ${JSON.stringify(request.url.slice(0, 300))}: not a file of the built renderer`);
      return text(404, 'Not found\n');
    }
    try {
      const body = await fs.promises.readFile(file);
      return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers: { ...headers, 'Content-Type': contentTypeOf(file) } });
    } catch {
      return text(404, 'Not found\n');
    }
  };
}

/** Serves the built renderer in `root` on `app://atrium` (default session). Call after `ready`. */
export function serveApp(root: string): void {
  protocol.handle(APP_SCHEME, createAppRequestHandler(root));
}
