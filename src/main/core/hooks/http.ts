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

/** True for loopback, private, link-local, CGNAT, unspecified and unique-local addresses (IPv4 and IPv6, incl. v4-mapped). */
export function isPrivateAddress(address: string): boolean {
  const a = address.toLowerCase().replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (mapped) return isPrivateAddress(mapped[1]);
  if (net.isIPv4(a)) {
    const [x, y] = a.split('.').map(Number);
    return x === 0 || x === 10 || x === 127 || (x === 169 && y === 254) || (x === 172 && y >= 16 && y <= 31) || (x === 192 && y === 168) || (x === 100 && y >= 64 && y <= 127) || x >= 224;
  }
  if (net.isIPv6(a)) return a === '::' || a === '::1' || /^f[cd]/.test(a) || /^fe[89ab]/.test(a) || /^ff/.test(a);
  return false;
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

/** `localhost` or a loopback/private IP literal (see {@link isPrivateAddress}). */
export function isLocalHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || (net.isIP(h) !== 0 && isPrivateAddress(h));
}

/**
 * POSTs the input JSON to an http hook (issue 6 "http handlers"): https only and no loopback or
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
  let address: string;
  let family: number;
  try {
    if (net.isIP(host)) {
      address = host;
      family = net.isIP(host);
    } else {
      const all = await lookup(host, { all: true });
      if (all.length === 0) return done({ error: `${host} does not resolve` });
      const bad = all.find((r) => isPrivateAddress(r.address));
      if (bad && !allowed) return done({ refused: `${host} resolves to ${bad.address}, a loopback or private address (allow the host to permit it)` });
      address = all[0].address;
      family = all[0].family;
    }
  } catch (error) {
    return done({ error: `${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? 'error'})` });
  }
  if (!allowed && (isPrivateAddress(address) || host === 'localhost')) return done({ refused: `${host} is a loopback or private address (allow the host to permit it)` });

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
