import { AUTH_PATH, TOKEN_PATTERN, tokenFromFragment } from '../../../shared/browserAuth';

/** `localStorage` key of the server token (the storage is this origin's: scheme, host and port). */
export const TOKEN_STORAGE_KEY = 'atrium.token';

/** What the server says about a token: `valid`, `invalid` (401), or `unreachable` (down, network). */
export type TokenCheck = 'valid' | 'invalid' | 'unreachable';

/**
 * The browser tab's server token (browser mode only). The address `atrium serve` prints carries it
 * in the fragment (`#token=…`, never sent to a server); it is kept in this origin's `localStorage`
 * so a reload and a second tab of the same Atrium need no address, and no other origin (another
 * port or host name on this machine) can read it. Never a cookie: cookies ignore ports.
 *
 * A token from the address does not replace a stored one until the server accepts it, so a page on
 * another origin that opens Atrium with a made-up `#token=` cannot log the tab out.
 */
export class BrowserToken {
  private fromAddress: string | null = null;

  constructor(
    private readonly storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null,
    private readonly check: (token: string) => Promise<TokenCheck>,
  ) {}

  /**
   * Takes `#token=…` out of the address (replacing the history entry, so neither the address bar
   * nor Back shows it). Returns whether the address carried a token.
   */
  takeFromAddress(loc: Pick<Location, 'hash' | 'pathname' | 'search'>, hist: Pick<History, 'replaceState'>): boolean {
    const token = tokenFromFragment(loc.hash);
    if (!/^#token=/.test(loc.hash)) return false;
    hist.replaceState(null, '', `${loc.pathname}${loc.search}`);
    if (token && TOKEN_PATTERN.test(token)) this.fromAddress = token;
    return token !== null;
  }

  /**
   * The token to connect with: the address's (once the server accepts it; then stored), else the
   * stored one (forgotten when the server refuses it). `null` means the tab has no valid token;
   * `unreachable` that the server could not be asked.
   */
  async resolve(): Promise<string | null | 'unreachable'> {
    const stored = this.read();
    const candidates = [this.fromAddress, stored].filter((t, i, all): t is string => t !== null && all.indexOf(t) === i);
    let unreachable = false;
    for (const candidate of candidates) {
      const verdict = await this.check(candidate);
      if (verdict === 'valid') {
        if (candidate === this.fromAddress) this.fromAddress = null;
        if (candidate !== stored) this.write(candidate);
        return candidate;
      }
      if (verdict === 'unreachable') unreachable = true;
      else if (candidate === this.fromAddress) this.fromAddress = null;
      else this.forget();
    }
    return unreachable ? 'unreachable' : null;
  }

  /** The stored token, without asking the server (null when none or storage is unavailable). */
  read(): string | null {
    try {
      const t = this.storage?.getItem(TOKEN_STORAGE_KEY) ?? null;
      return t && TOKEN_PATTERN.test(t) ? t : null;
    } catch {
      return null;
    }
  }

  private write(token: string): void {
    try {
      this.storage?.setItem(TOKEN_STORAGE_KEY, token);
    } catch {
      // storage disabled (private mode settings): the token lives in this page only
      this.fromAddress = token;
    }
  }

  private forget(): void {
    try {
      this.storage?.removeItem(TOKEN_STORAGE_KEY);
    } catch {
      // nothing stored
    }
  }
}

/** Asks the server at this page's origin (`GET /auth` with `Authorization: Bearer`) about a token. */
export async function checkTokenAtOrigin(token: string): Promise<TokenCheck> {
  try {
    const res = await fetch(AUTH_PATH, { headers: { Authorization: `Bearer ${token}` }, cache: 'no-store', credentials: 'omit' });
    if (res.status === 204) return 'valid';
    return res.status === 401 ? 'invalid' : 'unreachable';
  } catch {
    return 'unreachable';
  }
}
