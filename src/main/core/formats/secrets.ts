/** What a masked value is shown as. */
export const MASK = '••••••';

const SECRET_NAME = /(token|secret|passw|pwd|api[-_]?key|apikey|auth|credential|private|session|cookie|signature|bearer|access[-_]?key|client[-_]?secret)/i;
const SECRET_VALUE = /^(sk-[\w-]{10,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{20,}|xox[abpr]-[\w-]{10,}|AKIA[0-9A-Z]{16}|AIza[\w-]{30,}|eyJ[\w-]{10,}\.[\w-]{10,}\.[\w-]{5,}|glpat-[\w-]{15,}|npm_[A-Za-z0-9]{30,})/;

/**
 * True when a value should not be shown: its name looks secret (`*_TOKEN`, `Authorization`,
 * `password`, ...) or the value looks like a credential (`sk-…`, `ghp_…`, AWS keys, JWTs, long
 * random strings). A value that only references variables (`${DOCS_TOKEN}`, `Bearer ${X}`) is not
 * a secret itself and stays visible, so the reviewer sees where it comes from.
 */
export function looksSecret(name: string, value: string): boolean {
  const bare = value.replace(/^(Bearer|Basic|Token)\s+/i, '');
  if (/^(\$\{[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\}|\$[A-Za-z_][A-Za-z0-9_]*)$/.test(bare)) return false;
  if (SECRET_VALUE.test(bare)) return true;
  if (SECRET_NAME.test(name) && bare.length > 0) return true;
  return bare.length >= 32 && /^[A-Za-z0-9+/=_-]+$/.test(bare) && /\d/.test(bare) && /[A-Za-z]/.test(bare);
}

/** A copy of a string map with secret-looking values replaced by {@link MASK}. */
export function maskValues(map: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, looksSecret(k, v) ? MASK : v]));
}

/** Masks secret-looking argument values (`--token=abc`, the word after `--api-key`). */
export function maskArgs(args: readonly string[]): string[] {
  return args.map((a, i) => {
    const eq = /^(--?[\w-]+)=(.*)$/.exec(a);
    if (eq) return looksSecret(eq[1], eq[2]) ? `${eq[1]}=${MASK}` : a;
    const prev = args[i - 1];
    if (prev && /^--?[\w-]+$/.test(prev) && SECRET_NAME.test(prev) && looksSecret(prev, a)) return MASK;
    return SECRET_VALUE.test(a) ? MASK : a;
  });
}

/** Query parameter names that carry a credential besides {@link looksSecret}'s names: `key`, `api-key`, `sig` (Azure SAS), `code` (OAuth). */
const SECRET_QUERY_NAME = /(?:^|[-_.])(?:key|sig|code|pass)$/i;

/** Decodes a query component for the name and value checks; a malformed `%` escape is checked as written. */
function decodeQueryPart(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/**
 * A URL with the credentials it carries masked, everything else as written (no re-encoding, `${VAR}`
 * references kept): the password of `user:password@`, and the value of each `name=value` pair of the
 * query and fragment whose name or value looks secret ({@link looksSecret}: `token`, `secret`,
 * `password`, `auth`, `api_key`, `signature`, `session`, …, plus `key`, `*-key`, `sig`, `code`), shown
 * as {@link MASK}. A value that only references a variable (`token=${TOKEN}`) stays visible, as in
 * env maps. Works on strings that are not valid URLs too (`${BASE}/mcp?token=x`). Pure; never throws.
 */
export function maskUrlSecrets(raw: string): string {
  const withUser = raw.replace(/^([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:]*:)[^\s/?#@]+@/i, `$1${MASK}@`);
  const cut = withUser.search(/[?#]/);
  if (cut < 0) return withUser;
  const maskPairs = (part: string) =>
    part
      .split('&')
      .map((p) => {
        const eq = p.indexOf('=');
        if (eq < 0) return p;
        const name = decodeQueryPart(p.slice(0, eq));
        const value = decodeQueryPart(p.slice(eq + 1));
        const secret = looksSecret(name, value) || (SECRET_QUERY_NAME.test(name) && value.length > 0 && looksSecret('token', value));
        return secret ? `${p.slice(0, eq)}=${MASK}` : p;
      })
      .join('&');
  // the query and the fragment (`#access_token=…` of an OAuth redirect) are masked alike
  return withUser.slice(0, cut) + withUser.slice(cut).replace(/([?#])([^#]*)/g, (_m, sep: string, part: string) => sep + maskPairs(part));
}

/**
 * Text (a config file) with {@link maskUrlSecrets} applied to every `http(s)://`, `ws(s)://` URL in
 * it; lengths change but never line numbers (a URL holds no newline). Pure; never throws.
 */
export function maskUrlSecretsInText(text: string): string {
  return text.replace(/\b(?:https?|wss?):\/\/[^\s"'<>`\\]+/gi, (u) => maskUrlSecrets(u));
}
