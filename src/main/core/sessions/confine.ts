import fs from 'node:fs';
import path from 'node:path';
import { AtriumError } from '../../../shared/errors';

/**
 * Resolves `target` (absolute) with symlinks followed as far as the path exists, and checks that
 * the result lies inside one of `roots` (already canonical: the session cwd and its additional
 * directories). For a path that does not exist yet (a file about to be written), the deepest
 * existing ancestor is resolved and the rest appended, so `link-to-outside/new.txt` is caught.
 *
 * @returns the resolved absolute path (write to this, so a symlink inside the roots is kept)
 * @throws AtriumError PATH_NOT_ABSOLUTE | PATH_OUTSIDE_SESSION, naming the path
 */
export function confinePath(target: string, roots: readonly string[], what = 'access'): string {
  if (typeof target !== 'string' || !path.isAbsolute(target)) {
    throw new AtriumError('PATH_NOT_ABSOLUTE', `Refused to ${what} "${String(target)}": ACP paths must be absolute.`);
  }
  const resolved = resolveExisting(path.resolve(target));
  if (!roots.some((root) => isInside(resolved, root))) {
    throw new AtriumError(
      'PATH_OUTSIDE_SESSION',
      `Refused to ${what} "${target}"${resolved !== target ? ` (resolves to "${resolved}")` : ''}: it is outside the session folder ${roots.map((r) => `"${r}"`).join(', ')}.`,
    );
  }
  return resolved;
}

/** Canonical forms of the session roots (realpath where they exist). */
export function canonicalRoots(dirs: readonly string[]): string[] {
  return dirs.map((d) => resolveExisting(path.resolve(d)));
}

/** True when `p` is `root` or below it (both absolute, normalized). */
export function isInside(p: string, root: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function resolveExisting(p: string): string {
  const rest: string[] = [];
  let current = p;
  for (;;) {
    try {
      const real = fs.realpathSync.native(current);
      return rest.length ? path.join(real, ...rest.reverse()) : real;
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return p;
      rest.push(path.basename(current));
      current = parent;
    }
  }
}
