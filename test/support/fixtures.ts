import fs from 'node:fs';
import path from 'node:path';
import { layFixture, layKitchenSink } from './fixtureTree';
import { tempDir } from './tempDir';

export { HUGE_RULE_BYTES } from './fixtureTree';

/**
 * Copies the project's own fixture workspace `test/fixtures/workspaces/<name>` into a fresh temp dir
 * (removed after the test), or into `parent`, and makes it a git repository ({@link layFixture}); the
 * tests that check on real input (the shared corpus) check the same behaviours here on a bare clone.
 * @returns the absolute path of the workspace folder (named after the fixture).
 */
export function fixtureWorkspace(name: string, parent?: string): string {
  return layFixture(name, parent ?? tempDir('atrium-fixture-'));
}

/** {@link layKitchenSink} in a fresh temp dir (removed after the test) or in `parent`. */
export function kitchenSinkWorkspace(parent?: string): string {
  return layKitchenSink(parent ?? tempDir('atrium-fixture-'));
}

/** The project's own fixture workspaces (folders of `test/fixtures/workspaces`). */
export const FIXTURE_WORKSPACES = ['generated-configs', 'kitchen-sink', 'links-as-text', 'personal-config', 'platform-monorepo', 'plugin-marketplace'] as const;

/** Every file path below `dir` (relative, `/`-separated, without `.git`): a fixture's TREE. */
export function repoFiles(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((e) => !e.isDirectory())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .filter((p) => p !== '.git' && !p.startsWith('.git/'))
    .sort();
}
