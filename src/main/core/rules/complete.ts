import path from 'node:path';
import type { RuleCatalog } from './catalog';
import { relativeToRoot, toPosix } from './paths';
import { lowerBound } from './sortedList';

/** One completion: a path relative to the workspace folder (folders end with `/`). */
export interface PathCompletionEntry {
  path: string;
  kind: 'file' | 'dir';
}

/**
 * Completes a path prefix from the workspace file list (the Rules tab's "Test a path" field):
 * the next segment of every listed file starting with the prefix, folders first collapsed to
 * `dir/`. `prefix` is relative to the workspace folder (or absolute inside it); results are too.
 * Uses binary search over the sorted list and skips whole folders, so it stays fast in 100k-file trees.
 */
export function completePath(catalog: RuleCatalog, prefix: string, limit = 50): PathCompletionEntry[] {
  const wsRel = relativeToRoot(catalog.root, catalog.workspaceDir) ?? '';
  let p = prefix.replace(/\\/g, '/');
  if (path.isAbsolute(prefix)) {
    const rel = relativeToRoot(catalog.workspaceDir, path.resolve(prefix));
    if (rel === null) return [];
    p = toPosix(rel) + (/[\\/]$/.test(prefix) && rel ? '/' : '');
  }
  while (p.startsWith('./')) p = p.slice(2);
  const full = wsRel ? `${wsRel}/${p}` : p;
  const dirPart = full.slice(0, full.lastIndexOf('/') + 1);
  const files = catalog.workspaceFiles;
  const out: PathCompletionEntry[] = [];
  const strip = (s: string) => (wsRel ? s.slice(wsRel.length + 1) : s);
  let i = lowerBound(files, full);
  while (i < files.length && files[i].startsWith(full) && out.length < limit) {
    const rest = files[i].slice(dirPart.length);
    const slash = rest.indexOf('/');
    if (slash < 0) {
      out.push({ path: strip(files[i]), kind: 'file' });
      i++;
      continue;
    }
    const dir = `${dirPart}${rest.slice(0, slash)}/`;
    out.push({ path: strip(dir), kind: 'dir' });
    i = lowerBound(files, `${dir.slice(0, -1)}0`); // '0' sorts right after '/': skip the folder
  }
  return out;
}
