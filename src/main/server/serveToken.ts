import fs from 'node:fs';
import path from 'node:path';
import { TOKEN_PATTERN } from '../../shared/browserAuth';
import { createToken } from './security';

/** The file under the data directory that keeps one token per origin `atrium serve` was pinned to. */
export const SERVE_TOKENS_FILE = 'serve-tokens.json';

/**
 * The token for `atrium serve` on a fixed origin (an explicit `--port`): the one kept for that
 * origin in `<dataDir>/serve-tokens.json`, else a fresh one that is kept there (file mode 0600,
 * written atomically). `rotate` (`--new-token`) always makes and keeps a fresh one. So restarting
 * the server with the same `--port` and data directory keeps every open tab working: the tab
 * reconnects by itself with the token it holds.
 *
 * Why this keeps the security model: the token protects Atrium from other web pages and other
 * local users. A tab keeps it in its origin's `localStorage` (`http://127.0.0.1:<port>`), which
 * only pages from that exact origin can read, i.e. pages served on that port; while Atrium runs
 * nothing else can serve there. The file is as private as `server.json`, which already holds the
 * running server's token. What changes is the lifetime: a token read by something that served on
 * that port while Atrium was stopped stays valid after the restart. `--new-token` ends that (every
 * tab then needs the new address), and a server on port 0 (a new port each time) never reuses one.
 * An unreadable, malformed or foreign file is replaced (a token is never guessed or repaired).
 */
export function pinnedToken(dataDir: string, origin: string, rotate: boolean): string {
  const file = path.join(dataDir, SERVE_TOKENS_FILE);
  const tokens = readTokens(file);
  const kept = tokens[origin];
  if (!rotate && typeof kept === 'string' && TOKEN_PATTERN.test(kept)) return kept;
  const token = createToken();
  tokens[origin] = token;
  const temp = `${file}.${process.pid}.tmp`;
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(temp, `${JSON.stringify({ version: 1, tokens }, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temp, file);
  return token;
}

function readTokens(file: string): Record<string, string> {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: unknown; tokens?: unknown };
    if (parsed?.version !== 1 || typeof parsed.tokens !== 'object' || parsed.tokens === null) return {};
    return Object.fromEntries(Object.entries(parsed.tokens as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}
