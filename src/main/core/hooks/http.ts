import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { performance } from 'node:perf_hooks';

/** Largest response body read (256 KiB); the rest is dropped. */
export const HTTP_RESPONSE_CAP = 256 * 1024;

/** One http hook call. */
export interface HttpSpec {
  url: string;
  body: string;
  /** Header values; `$VAR`/`${VAR}` is replaced from Atrium's environment only for names in `allowedEnvVars`, by '' otherwise. */
  headers: Record<string, string>;
  allowedEnvVars: readonly string[];
  timeoutMs: number;
  /** Hosts the user allowed (`example.com` exact, `*.example.com` subdomains only): they skip the address policy. */
  allowedHosts: readonly string[];
  signal?: AbortSignal;
}

/** Outcome of an http hook. `status` null = no response (refused by policy, network error, timeout). */
export interface HttpOutcome {
  status: number | null;
  body: string;
  truncated: boolean;
  timedOut: boolean;
  durationMs: number;
  /** Why the call was refused before sending (policy), else null. */
  refused: string | null;
  /** Network or protocol error (including a redirect, which is never followed), else null. */
  error: string | null;
}

/** True when `host` is allowed by the list (exact, or `*.domain` for subdomains, never the apex). */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return allowed.some((a) => {
    const p = a.toLowerCase();
    return p.startsWith('*.') ? h.endsWith(p.slice(1)) && h !== p.slice(2) : h === p;
  });
}

/**
 * True for addresses an http hook may not reach without an allowance: IPv4 this-network `0/8`,
 * loopback `127/8`, private `10/8`, `172.16/12`, `192.168/16`, link-local `169.254/16`, CGNAT
 * `100.64/10`, IETF `192.0.0/24`, benchmarking `198.18/15`, multicast and reserved `224/3`; IPv6
 * `::`, `::1`, unique-local `fc00::/7`, link-local `fe80::/10`, site-local `fec0::/10`, multicast
 * `ff00::/8`, discard `100::/64`, local-use NAT64 `64:ff9b:1::/48`; and every IPv6 address that
 * embeds an IPv4 address ({@link embeddedIPv4}) is judged by the IPv4 address it reaches. A zone id
 * (`fe80::1%eth0`) is ignored. Anything that is not an IP address is false.
 */
export function isPrivateAddress(address: string): boolean {
  const a = address.toLowerCase().replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (net.isIPv4(a)) {
    const [x, y, z] = a.split('.').map(Number);
    return x === 0 || x === 10 || x === 127 || (x === 169 && y === 254) || (x === 172 && y >= 16 && y <= 31) || (x === 192 && y === 168) || (x === 100 && y >= 64 && y <= 127) || (x === 192 && y === 0 && z === 0) || (x === 198 && (y === 18 || y === 19)) || x >= 224;
  }
  const g = ipv6Groups(a);
  if (!g) return false;
  const inner = embeddedIPv4(a);
  if (inner !== null) return inner.some(isPrivateAddress);
  if (g.every((x) => x === 0) || (g.slice(0, 7).every((x) => x === 0) && g[7] === 1)) return true;
  return (g[0] & 0xfe00) === 0xfc00 || (g[0] & 0xffc0) === 0xfe80 || (g[0] & 0xffc0) === 0xfec0 || g[0] >= 0xff00 || (g[0] === 0x100 && g[1] === 0 && g[2] === 0 && g[3] === 0) || (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1);
}

/**
 * The IPv4 addresses an IPv6 address carries and reaches (dotted), or null when it carries none:
 * IPv4-mapped `::ffff:a.b.c.d` (the WHATWG URL parser writes `[::ffff:127.0.0.1]` as
 * `[::ffff:7f00:1]`), IPv4-translated `::ffff:0:a.b.c.d`, IPv4-compatible `::a.b.c.d` (`::/96`,
 * but not `::` and `::1`), NAT64 `64:ff9b::/96` (RFC 6052), 6to4 `2002:AABB:CCDD::/48` (RFC 3056)
 * and Teredo `2001:0::/32` (RFC 4380: the server's address and the client's, stored inverted).
 */
export function embeddedIPv4(address: string): string[] | null {
  const g = ipv6Groups(address.toLowerCase().replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  if (!g) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zero(0, 5) && g[5] === 0xffff) return [v4(g[6], g[7])];
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return [v4(g[6], g[7])];
  if (zero(0, 6) && !(g[6] === 0 && (g[7] === 0 || g[7] === 1))) return [v4(g[6], g[7])];
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return [v4(g[6], g[7])];
  if (g[0] === 0x2002) return [v4(g[1], g[2])];
  if (g[0] === 0x2001 && g[1] === 0) return [v4(g[2], g[3]), v4(g[6] ^ 0xffff, g[7] ^ 0xffff)];
  return null;
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail included), or null when it is not one. */
function ipv6Groups(a: string): number[] | null {
  if (!net.isIPv6(a)) return null;
  let s = a;
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (dotted) {
    const [p, q, r, t] = dotted.slice(2).map(Number);
    s = `${dotted[1]}${((p << 8) | q).toString(16)}:${((r << 8) | t).toString(16)}`;
  }
  const double = s.indexOf('::');
  const part = (x: string) => (x === '' ? [] : x.split(':'));
  const head = double === -1 ? part(s) : part(s.slice(0, double));
  const tail = double === -1 ? [] : part(s.slice(double + 2));
  const groups = [...head, ...Array<string>(double === -1 ? 0 : 8 - head.length - tail.length).fill('0'), ...tail].map((x) => parseInt(x, 16));
  return groups.length === 8 && groups.every((x) => x >= 0 && x <= 0xffff) ? groups : null;
}

/**
 * The host of an http hook URL that the address policy of {@link postHook} refuses before any DNS
 * lookup (plain `http:`, `localhost`, or a loopback/private IP literal) unless the user allows it;
 * null for an https URL to a public name, an unparsable URL, or a host on `allowed`. A name that only
 * resolves to a private address is found out when the hook runs.
 */
export function hostNeedingAllowance(url: string, allowed: readonly string[] = []): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const host = u.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (hostAllowed(host, allowed)) return null;
  return u.protocol === 'http:' || isLocalHost(host) ? host : null;
}

/**
 * `localhost`, a `*.localhost` name (browsers and systemd-resolved answer loopback for them, RFC
 * 6761), either with a trailing dot, or a loopback/private IP literal, including an IPv6 literal
 * that embeds such an IPv4 address (see {@link isPrivateAddress}).
 */
export function isLocalHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost') || (net.isIP(h.replace(/%.*$/, '')) !== 0 && isPrivateAddress(h));
}

/** " (it reaches 127.0.0.1)" for an IPv6 literal carrying an IPv4 address, else "". */
function reaches(host: string): string {
  const inner = net.isIPv6(host) ? embeddedIPv4(host) : null;
  return inner ? ` (it reaches ${inner.join(' and ')})` : '';
}

/**
 * POSTs the input JSON to an http hook: https only and no loopback or
 * private addresses (checked on every resolved address, and the connection is pinned to the
 * checked address) unless the user allowed the host; no redirects (a 3xx is an error); a timeout;
 * the response body capped at {@link HTTP_RESPONSE_CAP}. Never throws.
 */
export async function postHook(spec: HttpSpec): Promise<HttpOutcome> {
  const started = performance.now();
  const done = (o: Partial<HttpOutcome>): HttpOutcome => ({ status: null, body: '', truncated: false, timedOut: false, refused: null, error: null, ...o, durationMs: Math.round((performance.now() - started) * 10) / 10 });
  let url: URL;
  try {
    url = new URL(spec.url);
  } catch {
    return done({ refused: `"${spec.url}" is not a URL` });
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const allowed = hostAllowed(host, spec.allowedHosts);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowed)) {
    return done({ refused: `${url.protocol}// is not allowed: http hooks must use https (or allow the host ${host})` });
  }
  if (!allowed && isLocalHost(host)) return done({ refused: `${host} is a loopback or private address${reaches(host)} (allow the host to permit it)` });
  let address: string;
  let family: number;
  try {
    if (net.isIP(host)) {
      address = host;
      family = net.isIP(host);
    } else {
      const all = await lookup(host, { all: true });
      if (all.length === 0) return done({ error: `${host} does not resolve` });
      // every answer is judged (an AAAA ::ffff:127.0.0.1 included), and the connection is pinned to the first one below
      const bad = all.find((r) => isPrivateAddress(r.address));
      if (bad && !allowed) return done({ refused: `${host} resolves to ${bad.address}${reaches(bad.address)}, a loopback or private address (allow the host to permit it)` });
      address = all[0].address;
      family = all[0].family;
    }
  } catch (error) {
    return done({ error: `${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? 'error'})` });
  }
  if (!allowed && (isPrivateAddress(address) || isLocalHost(host))) return done({ refused: `${host} is a loopback or private address${reaches(address)} (allow the host to permit it)` });

  const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(spec.body)) };
  for (const [k, v] of Object.entries(spec.headers)) {
    headers[k.toLowerCase()] = v.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_m, a: string | undefined, b: string | undefined) => {
      const name = (a ?? b)!;
      return spec.allowedEnvVars.includes(name) ? (process.env[name] ?? '') : '';
    });
  }
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (o: Partial<HttpOutcome>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      spec.signal?.removeEventListener('abort', onAbort);
      resolve(done(o));
    };
    const req = lib.request(
      url,
      {
        method: 'POST',
        headers,
        lookup: (_hostname: string, _opts: unknown, cb: (err: Error | null, address: string | Array<{ address: string; family: number }>, family?: number) => void) => {
          // pin the connection to the address checked above (no second, different DNS answer)
          if (typeof _opts === 'object' && _opts !== null && (_opts as { all?: boolean }).all) cb(null, [{ address, family }]);
          else cb(null, address, family);
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.destroy();
          finish({ status, error: `redirect (${status}) not followed` });
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        res.on('data', (chunk: Buffer) => {
          const room = HTTP_RESPONSE_CAP - size;
          if (chunk.length > room) {
            truncated = true;
            if (room > 0) chunks.push(chunk.subarray(0, room));
            size = HTTP_RESPONSE_CAP;
            res.destroy();
            finish({ status, body: Buffer.concat(chunks).toString('utf8'), truncated });
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () => finish({ status, body: Buffer.concat(chunks).toString('utf8'), truncated }));
        res.on('error', (error) => finish({ status, body: Buffer.concat(chunks).toString('utf8'), truncated, error: error.message }));
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      finish({ timedOut: true, error: `no answer within ${spec.timeoutMs} ms` });
    }, spec.timeoutMs);
    const onAbort = () => {
      req.destroy();
      finish({ error: 'cancelled' });
    };
    spec.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (error) => finish({ error: error.message }));
    req.end(spec.body);
  });
}
