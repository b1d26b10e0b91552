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
