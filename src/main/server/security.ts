import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Name of the cookie that carries the session token after the first load. */
export const TOKEN_COOKIE = 'atrium_token';

/** A fresh 256-bit random token, URL-safe. */
export function createToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** Constant-time comparison, so the token cannot be guessed byte by byte from response timing. */
export function tokensEqual(a: string | undefined | null, b: string): boolean {
  if (!a) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/** Reads the token from `?token=` or the cookie. */
export function presentedToken(req: IncomingMessage, url: URL): string | null {
  const fromQuery = url.searchParams.get('token');
  if (fromQuery) return fromQuery;
  const cookie = req.headers.cookie ?? '';
  for (const part of cookie.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === TOKEN_COOKIE) return decodeURIComponent(v.join('='));
  }
  return null;
}

/**
 * DNS-rebinding protection: the `Host` header must name the origin we serve, and an `Origin`
 * header, when present, must be exactly that origin. A page on another site that resolves its
 * name to 127.0.0.1 sends its own Host/Origin and is refused with 403.
 */
export function isSameOrigin(req: IncomingMessage, origin: string): boolean {
  const host = req.headers.host;
  if (!host || `http://${host}` !== origin) return false;
  const reqOrigin = req.headers.origin;
  return reqOrigin === undefined || reqOrigin === origin;
}

/**
 * The Content-Security-Policy for the renderer: only our own scripts, our own WebSocket, no
 * frames, no plugins, no form posts elsewhere. Inline styles are allowed because UI primitives set
 * positioning styles at run time.
 */
export function contentSecurityPolicy(origin: string): string {
  const ws = origin.replace(/^http/, 'ws');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self' ${ws}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** Headers sent with every response. */
export function securityHeaders(origin: string): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(origin),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cache-Control': 'no-store',
  };
}
