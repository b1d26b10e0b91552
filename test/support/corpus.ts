import { execFileSync } from 'node:child_process';
import fs, { existsSync, mkdtempSync } from 'node:fs';
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
 * How a corpus symlink is laid down in a materialized workspace. The corpus keeps a repository's
 * symlinks, but a copy can carry them as real symlinks or, after a checkout with
 * `core.symlinks=false` (Windows, some archives), as text files holding the target: git's own
 * fallback. `text` (the default) gives every test the same input whichever form arrived: the text
 * form, which Atrium reports as `symlink-as-text`; `symlink` gives real symlinks.
 */
export type CorpusLinks = 'text' | 'symlink';

/**
 * The symlinks of a corpus entry (relative path → link target), whichever form they arrived in: real
 * symlinks, and regular files that can only be git's text form of one: one line of at most 1,024
 * bytes without a newline, naming a path that is in the entry's TREE.txt (a file or a folder), or a
 * path with a `/` that leaves the repository (a dangling link, as 0xBigBoss's skills). A one-line
 * `.gitignore` holding `node_modules` is therefore not a link.
 */
export function corpusLinks(entryDir: string): Map<string, string> {
  const tree = fs.readFileSync(path.join(entryDir, 'TREE.txt'), 'utf8').split('\n').filter(Boolean);
  const files = new Set(tree);
  const folders = new Set(tree.flatMap((p) => p.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))));
  const links = new Map<string, string>();
  const walk = (rel: string): void => {
    for (const e of fs.readdirSync(path.join(entryDir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (child === 'TREE.txt') continue;
      const abs = path.join(entryDir, child);
      if (e.isSymbolicLink()) links.set(child, fs.readlinkSync(abs));
      else if (e.isDirectory()) walk(child);
      else if (e.isFile() && fs.statSync(abs).size <= 1024) {
        const text = fs.readFileSync(abs, 'utf8');
        if (!text || /[\n\r\0]/.test(text) || text.trim() !== text) continue;
        const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(child), text));
        const outside = resolved === '..' || resolved.startsWith('../');
        if ((outside && text.includes('/')) || (!outside && (files.has(resolved) || folders.has(resolved)))) links.set(child, text);
      }
    }
  };
  walk('');
  return links;
}

/** Lays each of `links` down in `workspace` in the `mode` form (see {@link CorpusLinks}). */
export function layLinks(workspace: string, links: Map<string, string>, mode: CorpusLinks): void {
  for (const [rel, target] of links) {
    const at = path.join(workspace, rel);
    fs.rmSync(at, { force: true });
    if (mode === 'symlink') fs.symlinkSync(target, at);
    else fs.writeFileSync(at, target);
  }
}

/**
 * Turns a corpus entry into a realistic workspace (a fresh git repository with the entry's real
 * configuration files) using the corpus's own `materialize.sh`, in a new temp dir. `entry` is a
 * name of {@link CORPUS_ENTRIES} or the absolute path of an entry folder; its symlinks are laid down
 * as `links` says, whichever form they arrived in.
 * @returns the absolute path of the workspace folder (named after the entry).
 */
export function materialize(entry: (typeof CORPUS_ENTRIES)[number] | string, parent?: string, links: CorpusLinks = 'text'): string {
  const source = path.isAbsolute(entry) ? entry : path.join(sharedDir, 'corpus', entry);
  if (!existsSync(source)) {
    throw new Error(`The test corpus is missing: ${source}. Tests need the shared folder beside the checkout (../shared) or ATRIUM_SHARED_DIR pointing at it.`);
  }
  const base = parent ?? mkdtempSync(path.join(os.tmpdir(), 'atrium-ws-'));
  const target = path.join(base, path.basename(source));
  execFileSync('bash', [path.join(sharedDir, 'corpus/materialize.sh'), source, target], { stdio: 'ignore' });
  layLinks(target, corpusLinks(source), links);
  return target;
}
