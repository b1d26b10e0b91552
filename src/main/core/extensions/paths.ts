import path from 'node:path';

/** Converts a native path to POSIX separators. */
export function posix(p: string): string {
  return path.sep === '/' ? p : p.split(path.sep).join('/');
}

/** True when `child` is `parent` or inside it (both absolute, lexical). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * How a path is shown: workspace-relative POSIX inside the workspace, `~/…` inside the home
 * directory, else absolute.
 */
export function displayPath(absolute: string, workspaceDir: string, homeDir: string): string {
  if (isInside(workspaceDir, absolute)) return posix(path.relative(workspaceDir, absolute)) || '.';
  if (isInside(homeDir, absolute)) return `~/${posix(path.relative(homeDir, absolute))}`;
  return posix(absolute);
}
