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

/** Size of the corpus kitchen sink's `.claude/rules/huge.md` (bytes): just above the 1 MiB rule limit. */
export const HUGE_RULE_BYTES = 1_120_026;

/**
 * The corpus entry `synthetic__kitchen-sink` rebuilt from the project's own files: the fixture
 * `kitchen-sink` plus the 1 MiB rule it leaves out, `.claude/rules/huge.md` (`paths: "docs/**"`,
 * then filler text up to {@link HUGE_RULE_BYTES}), written here rather than kept in the repository.
 * @returns the absolute path of the workspace folder.
 */
export function kitchenSinkWorkspace(parent?: string): string {
  const dir = fixtureWorkspace('kitchen-sink', parent);
  const head = '---\npaths: "docs/**"\n---\n';
  const filler = 'Lorem ipsum dolor sit amet. '.repeat(Math.ceil(HUGE_RULE_BYTES / 28));
  fs.writeFileSync(path.join(dir, '.claude/rules/huge.md'), `${head}${filler.slice(0, HUGE_RULE_BYTES - head.length - 1)}\n`);
  return dir;
}

/** The project's own fixture workspaces (folders of `test/fixtures/workspaces`). */
export const FIXTURE_WORKSPACES = ['kitchen-sink', 'links-as-text', 'personal-config', 'plugin-marketplace'] as const;

/** Every file path below `dir` (relative, `/`-separated, without `.git`): a fixture's TREE. */
export function repoFiles(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((e) => !e.isDirectory())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .filter((p) => p !== '.git' && !p.startsWith('.git/'))
    .sort();
}
