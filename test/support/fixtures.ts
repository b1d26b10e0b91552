import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './corpus';
import { tempDir } from './tempDir';

/**
 * Copies the project's own fixture workspace `test/fixtures/workspaces/<name>` into a fresh temp dir
 * (removed after the test), or into `parent`, and makes it a git repository, as a corpus entry is materialized; the
 * tests that check on real input (the shared corpus) check the same behaviours here on a bare clone.
 * @returns the absolute path of the workspace folder (named after the fixture).
 */
export function fixtureWorkspace(name: string, parent?: string): string {
  const dir = path.join(parent ?? tempDir('atrium-fixture-'), name);
  fs.cpSync(path.join(repoRoot, 'test/fixtures/workspaces', name), dir, { recursive: true, verbatimSymlinks: true });
  execFileSync('git', ['-c', 'init.defaultBranch=main', 'init', '-q', dir]);
  return dir;
}
