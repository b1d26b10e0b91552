import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The checkout's root folder. */
export const repoRoot = path.resolve(import.meta.dirname, '../..');

/**
 * `../shared` beside the checkout (read-only reference material, corpus and bench generators), or
 * `$ATRIUM_SHARED_DIR` when the checkout lives elsewhere.
 */
export const sharedDir = path.resolve(process.env.ATRIUM_SHARED_DIR ?? path.resolve(repoRoot, '../shared'));

/** True when the shared corpus (`<shared>/corpus` with its `materialize.sh`) is present. */
export const hasCorpus = existsSync(path.join(sharedDir, 'corpus', 'materialize.sh'));

/** Why a corpus test is skipped on a checkout without the shared folder (the project's own fixtures still run). */
export const NO_CORPUS_REASON = `the shared corpus is absent (${path.join(sharedDir, 'corpus')}): put the shared folder beside the checkout (../shared) or set ATRIUM_SHARED_DIR`;

/** Names of the corpus entries (folders of `../shared/corpus`). */
export const CORPUS_ENTRIES = [
  '0xBigBoss__claude-code',
  'Kibnet__Unlimotion',
  'anthropics__claude-plugins-official',
  'cline__cline',
  'dyoshikawa__rulesync',
  'echoVic__blade-code',
  'platformplatform__PlatformPlatform',
  'synthetic__kitchen-sink',
] as const;

/**
 * Turns a corpus entry into a realistic workspace (a fresh git repository with the entry's real
 * configuration files) using the corpus's own `materialize.sh`, in a new temp dir.
 * @returns the absolute path of the workspace folder (named after the entry).
 */
export function materialize(entry: (typeof CORPUS_ENTRIES)[number] | string, parent?: string): string {
  if (!existsSync(path.join(sharedDir, 'corpus', entry))) {
    throw new Error(`The test corpus is missing: ${path.join(sharedDir, 'corpus', entry)}. Tests need the shared folder beside the checkout (../shared) or ATRIUM_SHARED_DIR pointing at it.`);
  }
  const base = parent ?? mkdtempSync(path.join(os.tmpdir(), 'atrium-ws-'));
  const target = path.join(base, entry);
  execFileSync('bash', [path.join(sharedDir, 'corpus/materialize.sh'), path.join(sharedDir, 'corpus', entry), target], { stdio: 'ignore' });
  return target;
}
