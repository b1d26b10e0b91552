import fs from 'node:fs';
import path from 'node:path';
import type { RuleCatalog } from './catalog';
import { RuleStartFolderUnusable } from './errors';

/**
 * Root-relative start folder for an explanation or agent view (`atrium rules explain --from`,
 * the "Session starts in" field). Like `catalog.resolveFrom`, and the folder must also exist on
 * disk as a directory: a session cannot start in a folder that is not there, so explaining one
 * would show results for a situation that cannot happen. `from` is absolute or relative to the
 * workspace folder; undefined = the workspace folder.
 * @throws RuleSourceOutsideRoot (INVALID_PARAMS) when outside the catalog root
 * @throws RuleStartFolderUnusable (PATH_NOT_FOUND / NOT_A_DIRECTORY) when missing or a file
 */
export function resolveStartFolder(catalog: RuleCatalog, from?: string): string {
  const rel = catalog.resolveFrom(from);
  if (from === undefined) return rel;
  const absolute = path.resolve(catalog.workspaceDir, from);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(absolute);
  } catch {
    throw new RuleStartFolderUnusable(from, absolute, 'missing');
  }
  if (!stat.isDirectory()) throw new RuleStartFolderUnusable(from, absolute, 'file');
  return rel;
}
