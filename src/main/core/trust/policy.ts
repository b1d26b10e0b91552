import path from 'node:path';
import { isExistingDirectory } from '../workspaces/identity';
import { isAncestorOrSelf } from '../workspaces/paths';

/**
 * Why trusting `dir` is refused, or null when it is allowed. Trusting the filesystem root, the
 * home directory, or any folder containing the home directory (e.g. `/home`) would activate every
 * repository the user ever clones, so it is refused (seed-behaviour §8: "refuse to trust … the
 * filesystem root or home directory"; Claude Code never persists trust for `$HOME`). Marking such
 * a folder `untrusted`, or clearing it, is allowed: that only restricts.
 *
 * `dir` and `home` are canonical absolute paths.
 */
export function trustRefusal(dir: string, home: string): string | null {
  if (path.dirname(dir) === dir) {
    return `Trusting the filesystem root ${dir} would trust every folder on this computer. Trust the project folder, or a folder that holds only your projects (e.g. ~/src).`;
  }
  if (dir === home) {
    return `Trusting your home folder ${dir} would trust every repository you ever download. Trust the project folder, or a folder that holds only your projects (e.g. ${path.join(home, 'src')}).`;
  }
  if (isAncestorOrSelf(dir, home)) {
    return `${dir} contains your home folder ${home}; trusting it would trust every repository you ever download. Trust the project folder, or a folder that holds only your projects (e.g. ${path.join(home, 'src')}).`;
  }
  return null;
}

/**
 * The "Trust parent folder" target for a trust root: its parent directory when trusting that is
 * allowed (not `/`, not the home directory, not above it), e.g. `~/src` for `~/src/project`.
 * Null when the folder sits directly in the home directory or the root, or is itself refused.
 */
export function parentSuggestion(trustRoot: string, home: string): string | null {
  const parent = path.dirname(trustRoot);
  if (parent === trustRoot) return null;
  return trustRefusal(parent, home) === null ? parent : null;
}

/**
 * Trusting a folder that does not exist is almost always a typo (or a stale entry in another
 * tool's trust store); restricting one is harmless. Null when the folder exists.
 */
export function missingFolderRefusal(dir: string): string | null {
  if (isExistingDirectory(dir)) return null;
  return `${dir} does not exist, so there is nothing to trust. Check the path (or create the folder first).`;
}
