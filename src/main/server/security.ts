import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { tokenFromProtocols } from '../../shared/browserAuth';

/** A fresh 256-bit random token, URL-safe (base64url, 43 characters: valid in a WebSocket subprotocol). */
export function createToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/**
 * Constant-time comparison, so the token cannot be guessed byte by byte from response timing.
 * Both sides are hashed first (SHA-256), so not even the length of a wrong guess shows in the time.
 */
export function tokensEqual(a: string | undefined | null, b: string): boolean {
  if (!a) return false;
  const x = crypto.createHash('sha256').update(a).digest();
  const y = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(x, y);
}

/** Where a request may carry the token. Cookies are never one of them (they are ambient). */
export type TokenSource = 'bearer' | 'subprotocol' | 'query';

/**
 * The tokens a request presents, from the sources given: `Authorization: Bearer <token>`, the
 * `atrium.token.<token>` WebSocket subprotocol, `?token=` in the query. A `Cookie` header is
 * ignored on purpose: a cookie set for a loopback address is also sent to every other server on
 * that address (cookies ignore ports), so it can prove nothing.
 */
export function presentedTokens(req: IncomingMessage, url: URL, sources: TokenSource[]): string[] {
  const found: string[] = [];
  if (sources.includes('bearer')) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    if (m) found.push(m[1]);
  }
  if (sources.includes('subprotocol')) {
    const t = tokenFromProtocols(req.headers['sec-websocket-protocol']);
    if (t !== null) found.push(t);
  }
  if (sources.includes('query')) found.push(...url.searchParams.getAll('token'));
  return found;
}

/**
 * `ok` when one presented token equals `token` (each compared in constant time), `missing` when
 * nothing was presented, `wrong` otherwise.
 */
export function checkTokens(presented: string[], token: string): 'ok' | 'missing' | 'wrong' {
  if (presented.length === 0) return 'missing';
  return presented.some((p) => tokensEqual(p, token)) ? 'ok' : 'wrong';
}

/**
 * DNS-rebinding protection: the `Host` header must name the origin we serve, and an `Origin`
 * header, when present, must be exactly that origin. A page on another site that resolves its
 * name to 127.0.0.1 sends its own Host/Origin and is refused with 403; so is a page on another
 * port of the same address (its Origin names that port).
 */
export function isSameOrigin(req: IncomingMessage, origin: string): boolean {
  const host = req.headers.host;
  if (!host || `http://${host}` !== origin) return false;
  const reqOrigin = req.headers.origin;
  return reqOrigin === undefined || reqOrigin === origin;
}

/**
 * The Content-Security-Policy for the renderer, the one policy for both ways it is served: by the
 * browser server (`atrium serve`, pickup) and by the desktop app's `app://` scheme. Only our own
 * scripts, no frames, no plugins, no form posts, no `<base>`. `connectSources` adds what the page
 * may connect to besides its own origin: the browser server passes its WebSocket origin
 * (`ws://127.0.0.1:<port>`); the desktop app talks over IPC and passes nothing. Inline styles are
 * allowed because UI primitives set positioning styles at run time; inline scripts and `eval` are not.
 */
export function contentSecurityPolicy(connectSources: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    ["connect-src 'self'", ...connectSources].join(' '),
    "object-src 'none'",
    // the page embeds no frames, and no text an agent writes may add one (default-src would allow same-origin ones)
    "frame-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'none'",
  ].join('; ');
}

/**
 * Headers sent with every response, by the browser server and by the desktop app's `app://`
 * scheme alike. Besides the CSP ({@link contentSecurityPolicy}, `connectSources` passed on): no MIME
 * sniffing, no Referer (a Referer never carries a fragment, but no address of ours needs to reach
 * another site either), no framing, no caching; `Cross-Origin-Opener-Policy: same-origin` so a page
 * on another origin that opens Atrium in a window keeps no handle on it, and
 * `Cross-Origin-Resource-Policy: same-origin` so no other origin can embed our files.
 */
export function securityHeaders(connectSources: readonly string[] = []): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(connectSources),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cache-Control': 'no-store',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
}
