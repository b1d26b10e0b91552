/** What replaces a key in text Atrium keeps or shows (stderr tails, logs). */
export const REDACTED = '[redacted key]';

/**
 * `text` with every occurrence of each secret replaced by {@link REDACTED}. Secrets shorter than
 * 8 characters are ignored (replacing them would mangle ordinary text and they are no real key);
 * longer ones are replaced first so a key containing another is not half-replaced.
 */
export function redactSecrets(text: string, secrets: Iterable<string>): string {
  const list = [...new Set(secrets)].filter((s) => s.length >= 8).sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of list) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}
