/**
 * Where the benches find the shared folder (corpus and monorepo generator): `../shared` beside the
 * checkout, or `$ATRIUM_SHARED_DIR` (the same rule as the tests, test/support/corpus.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of the shared folder (it may be absent). */
export const sharedDir = path.resolve(process.env.ATRIUM_SHARED_DIR ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../shared'));

/**
 * The files of `needs` (paths relative to the shared folder) that are missing, as absolute paths;
 * empty when the bench can run.
 */
export function missingShared(needs: readonly string[]): string[] {
  return needs.map((rel) => path.join(sharedDir, rel)).filter((p) => !fs.existsSync(p));
}

/** The one line printed instead of running a bench whose shared files are missing. */
export function skippedLine(bench: string, missing: readonly string[]): string {
  return `bench ${bench} skipped: it needs ${missing.join(', ')} (the shared folder with the corpus and the monorepo generator: put it beside the checkout as ../shared or set ATRIUM_SHARED_DIR)`;
}
