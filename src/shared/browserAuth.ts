/**
 * How a browser tab, the CLI or any other client proves it holds the token of a running
 * `atrium serve` (or the desktop app's pickup server). Shared by the server, the CLI and the
 * renderer so all three spell it the same way.
 *
 * The token is never a cookie (a cookie set for `127.0.0.1` reaches every server on loopback the
 * same browser visits, because cookies ignore ports). It travels only where the client puts it on
 * purpose:
 * - the address `atrium serve` prints carries it in the fragment (`/#token=…`), which browsers
 *   never send to any server; the page moves it into its own origin's `localStorage`;
 * - the WebSocket offers it as a subprotocol ({@link tokenProtocols}), because a browser cannot set
 *   headers on a WebSocket; the server answers with {@link WS_PROTOCOL}, never the token;
 * - plain HTTP clients send `Authorization: Bearer <token>` (e.g. {@link AUTH_PATH}).
 */

/** The subprotocol the server selects; a client must offer it beside its token. */
export const WS_PROTOCOL = 'atrium.v1';

/** Prefix of the subprotocol that carries the token: `atrium.token.<token>`. */
export const TOKEN_PROTOCOL_PREFIX = 'atrium.token.';

/** HTTP endpoint answering 204 for a valid `Authorization: Bearer` token and 401 otherwise. */
export const AUTH_PATH = '/auth';

/** What a server token looks like (base64url, as `createToken` makes it): valid in a subprotocol. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,256}$/;

/** The subprotocols a client offers: `[WS_PROTOCOL, 'atrium.token.<token>']`. */
export function tokenProtocols(token: string): string[] {
  return [WS_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${token}`];
}

/**
 * The token offered in a `Sec-WebSocket-Protocol` header value (comma-separated list, RFC 6455
 * §4.1), or null when none is offered. Offering several token protocols yields the first.
 */
export function tokenFromProtocols(header: string | undefined): string | null {
  for (const part of (header ?? '').split(',')) {
    const p = part.trim();
    if (p.startsWith(TOKEN_PROTOCOL_PREFIX)) return p.slice(TOKEN_PROTOCOL_PREFIX.length);
  }
  return null;
}

/** Whether a `Sec-WebSocket-Protocol` header value offers {@link WS_PROTOCOL}. */
export function offersProtocol(header: string | undefined): boolean {
  return (header ?? '').split(',').some((p) => p.trim() === WS_PROTOCOL);
}

/** The address a browser opens: `<origin>/#token=<token>` (the fragment never reaches a server). */
export function tokenUrl(origin: string, token: string): string {
  return `${origin}/#token=${token}`;
}

/** The token in an address fragment (`#token=…`, as {@link tokenUrl} writes it), or null. */
export function tokenFromFragment(hash: string): string | null {
  const m = /^#token=([^&]*)/.exec(hash);
  return m && m[1] ? decodeURIComponentSafe(m[1]) : null;
}

function decodeURIComponentSafe(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}
