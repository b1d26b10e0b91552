import { randomBytes } from 'node:crypto';

/** How long a confirmation or send token stays valid (ms). */
export const TOKEN_TTL_MS = 10 * 60 * 1000;
/** Most tokens kept at once; the oldest are dropped first. */
const MAX_TOKENS = 200;

/**
 * Random single-use tokens, each bound to a value (what the user confirmed). `take` hands a value
 * out once and only while it is fresh and `matches` accepts it, so a token can never be replayed,
 * used after 10 minutes, or used for another workspace or session. In memory only: a restart
 * forgets every token (the user previews again).
 */
export class SingleUseTokens<T> {
  private readonly entries = new Map<string, { value: T; expires: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A new token for `value` (24 random bytes, base64url). */
  issue(value: T): string {
    this.prune();
    const token = randomBytes(18).toString('base64url');
    this.entries.set(token, { value, expires: this.now() + TOKEN_TTL_MS });
    return token;
  }

  /**
   * The value of a fresh token that `matches` accepts, removing the token; null when it is
   * unknown, used, expired or bound to something else (such a token stays valid for its own
   * target: presenting it in the wrong place does not spend it).
   */
  take(token: string, matches: (value: T) => boolean): T | null {
    const entry = this.entries.get(token);
    if (!entry) return null;
    if (entry.expires < this.now()) {
      this.entries.delete(token);
      return null;
    }
    if (!matches(entry.value)) return null;
    this.entries.delete(token);
    return entry.value;
  }

  private prune(): void {
    const now = this.now();
    for (const [k, v] of this.entries) if (v.expires < now) this.entries.delete(k);
    while (this.entries.size >= MAX_TOKENS) this.entries.delete(this.entries.keys().next().value!);
  }
}
