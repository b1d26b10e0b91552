/**
 * What a link in agent or repository text points at, decided before anything opens it. Parsing is
 * the WHATWG URL Standard's, as implemented by `URL` in Chromium/Electron and Node 20+: the host
 * comes out in its ASCII (punycode) form, and every numeric IPv4 spelling the standard accepts
 * (`2130706433`, `0x7f.1`, `017700000001`) comes out as dotted decimal, so an IP host is recognised
 * whatever way the agent wrote it. Pure: no DOM, no Node, no network.
 */

/** Why a link deserves a second look; the confirmation dialog says each one in words. */
export type LinkWarning =
  /** `http:`: readable and changeable by anyone on the network path. */
  | 'insecure'
  /** The host is an IP address (IPv4 in any numeric spelling, or IPv6), not a name. */
  | 'ip-address'
  /** The host has non-ASCII labels (an internationalised name); `host` is the punycode form a look-alike cannot fake. */
  | 'idn'
  /** The URL carries `user[:password]@` before the host, the classic way to make `https://bank.example@evil.example` read like a bank. */
  | 'credentials';

/**
 * A classified link.
 * - `web`: `http:` or `https:`; may be opened in the system browser.
 * - `mail`: `mailto:`; may be opened by the system mail client.
 * - `blocked`: any other scheme (`javascript:`, `file:`, `data:`, `vscode:`, …); never opened, only copied.
 * - `relative`: no scheme (`#anchor`, `./notes.md`, `/path`, `//host/x`); it means nothing outside the
 *   agent's own files, so it is never resolved against the app's address nor opened.
 * - `invalid`: has a scheme but is not a URL the standard accepts (e.g. a space in the host).
 */
export interface ClassifiedLink {
  kind: 'web' | 'mail' | 'blocked' | 'relative' | 'invalid';
  /** The link exactly as written in the text. */
  raw: string;
  /** The URL as a browser would be given it (WHATWG serialisation); null for `relative` and `invalid`. */
  href: string | null;
  /** Lower-case scheme without the colon (`https`, `javascript`); null when there is none. */
  scheme: string | null;
  /** The host as parsed: ASCII (punycode), IPv4 dotted, IPv6 in brackets; null without one (`mailto:`, `data:`). */
  host: string | null;
  hostKind: 'name' | 'ipv4' | 'ipv6' | null;
  warnings: LinkWarning[];
  /** True only for `web` and `mail`: the kinds Atrium hands to the operating system. */
  openable: boolean;
}

/** Schemes Atrium hands to the system browser or mail client; everything else is only copied. */
export const OPENABLE_SCHEMES = ['http', 'https', 'mailto'] as const;

const SCHEME_PREFIX = /^[\s\u0000-\u001f]*[a-z][a-z0-9+.-]*:/i;

// `scheme://` [userinfo@] `%5B` IPv6 literal `%5D`, then a port, path, query, fragment or the end.
const ENCODED_IPV6_HOST = /^([a-z][a-z0-9+.-]*:\/\/(?:[^/?#@[\]]*@)?)%5B([0-9a-f:.]+)%5D(?=[:/?#]|$)/i;

/**
 * `url` with the brackets of an IPv6 host put back when they arrive percent-encoded
 * (`http://%5B::1%5D/` becomes `http://[::1]/`); any other string unchanged. Markdown renderers
 * built on micromark (react-markdown 10, mdast-util-to-hast 13) encode `[` and `]` in every link
 * destination, which makes an IPv6 host unparseable. Only the host's own brackets around hex
 * digits, colons and dots change, never the scheme, user info or path, so nothing can become a
 * different scheme or host than it was written with.
 */
export function restoreIpv6Brackets(url: string): string {
  return url.replace(ENCODED_IPV6_HOST, '$1[$2]');
}

/**
 * Classifies `raw` (the href attribute as written; an IPv6 host whose brackets a Markdown renderer
 * percent-encoded is read with them, see {@link restoreIpv6Brackets}). Never throws.
 */
export function classifyLink(raw: string): ClassifiedLink {
  const base = { raw, href: null, scheme: null, host: null, hostKind: null, warnings: [], openable: false } satisfies Omit<ClassifiedLink, 'kind'>;
  let url: URL;
  try {
    url = new URL(restoreIpv6Brackets(raw));
  } catch {
    // No scheme at all: relative to whatever file the agent had in mind, not to Atrium's own page.
    return { ...base, kind: SCHEME_PREFIX.test(raw) ? 'invalid' : 'relative' };
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  const host = url.hostname === '' ? null : url.hostname;
  const hostKind = host === null ? null : host.startsWith('[') ? 'ipv6' : IPV4.test(host) ? 'ipv4' : 'name';
  const warnings: LinkWarning[] = [];
  if (scheme === 'http') warnings.push('insecure');
  if (hostKind === 'ipv4' || hostKind === 'ipv6') warnings.push('ip-address');
  if (host !== null && host.split('.').some((label) => label.startsWith('xn--'))) warnings.push('idn');
  if (url.username !== '' || url.password !== '') warnings.push('credentials');
  const kind = scheme === 'http' || scheme === 'https' ? 'web' : scheme === 'mailto' ? 'mail' : 'blocked';
  return { kind, raw, href: url.href, scheme, host, hostKind, warnings, openable: kind !== 'blocked' };
}

// After WHATWG parsing an IPv4 host is always four decimal parts.
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/**
 * The check the desktop's main process repeats before `shell.openExternal`: true only for an
 * absolute `http:`, `https:` or `mailto:` URL the WHATWG parser accepts.
 */
export function isOpenableUrl(url: string): boolean {
  return classifyLink(url).openable;
}
