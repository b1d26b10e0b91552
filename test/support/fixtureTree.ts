import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './corpus';

/**
 * Lays the project's own fixture workspace `test/fixtures/workspaces/<name>` down in `parent` and makes
 * it a git repository, as a corpus entry is materialized. Free of test-runner imports, so the
 * Playwright specs use it too (vitest tests use `fixtureWorkspace`, which cleans up after the test).
 * @returns the absolute path of the workspace folder (`<parent>/<name>`).
 */
export function layFixture(name: string, parent: string): string {
  const dir = path.join(parent, name);
  fs.cpSync(path.join(repoRoot, 'test/fixtures/workspaces', name), dir, { recursive: true, verbatimSymlinks: true });
  execFileSync('git', ['-c', 'init.defaultBranch=main', 'init', '-q', dir]);
  return dir;
}

/** Size of the corpus kitchen sink's `.claude/rules/huge.md` (bytes): just above the 1 MiB rule limit. */
export const HUGE_RULE_BYTES = 1_120_026;

/**
 * The corpus entry `synthetic__kitchen-sink` rebuilt from the project's own files in `parent`: the
 * fixture `kitchen-sink` plus the 1 MiB rule it leaves out, `.claude/rules/huge.md`
 * (`paths: "docs/**"`, then filler text up to {@link HUGE_RULE_BYTES}), written here rather than
 * kept in the repository.
 * @returns the absolute path of the workspace folder.
 */
export function layKitchenSink(parent: string): string {
  const dir = layFixture('kitchen-sink', parent);
  const head = '---\npaths: "docs/**"\n---\n';
  const filler = 'Lorem ipsum dolor sit amet. '.repeat(Math.ceil(HUGE_RULE_BYTES / 28));
  fs.writeFileSync(path.join(dir, '.claude/rules/huge.md'), `${head}${filler.slice(0, HUGE_RULE_BYTES - head.length - 1)}\n`);
  return dir;
}
