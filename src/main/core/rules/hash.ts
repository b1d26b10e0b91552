import { sha256Hex } from '../formats/digest';
import type { RuleSource } from './types';

/** Rule id: `<source>:` + first 20 hex chars of SHA-256(relativePath) (seed §4.4). */
export function ruleId(source: RuleSource, relativePath: string): string {
  return `${source}:${sha256Hex(relativePath).slice(0, 20)}`;
}

/**
 * Rule digest: SHA-256 of the JSON `{"relativePath","patterns","content"}` in exactly that key
 * order, content normalised with imports expanded (seed §4.4 contentSha256).
 */
export function ruleSha256(relativePath: string, patterns: readonly string[], content: string): string {
  return sha256Hex(JSON.stringify({ relativePath, patterns: [...patterns], content }));
}

/**
 * SHA-256 over `"<id>:<sha256>"` lines joined by `\n` (seed §4.5
 * provenance). An empty list hashes the empty string.
 */
export function digestOfEntries(entries: ReadonlyArray<{ id: string; sha256: string | null }>): string {
  return sha256Hex(
    entries
      .filter((e) => e.sha256 !== null)
      .map((e) => `${e.id}:${e.sha256}`)
      .join('\n'),
  );
}
