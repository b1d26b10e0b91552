import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { RuleCatalogBuilder } from '../../../src/main/core/rules/builder';
import type { RuleCatalog } from '../../../src/main/core/rules/catalog';
import type { RuleFile } from '../../../src/main/core/rules/types';
import { fixedGate, type TrustGate } from '../../../src/main/core/trust/gate';
import { tempDir } from '../../support/tempDir';
import { waitFor } from '../../support/waitFor';

/** A folder's names in the file system's order (Node's readdirSync sorts them, Claude does not). */
export function unsorted(dir: string): string[] {
  const handle = fs.opendirSync(dir);
  const out: string[] = [];
  for (let e = handle.readSync(); e; e = handle.readSync()) out.push(e.name);
  handle.closeSync();
  return out;
}

/** Files to write: path → text (or bytes). */
export type Tree = Record<string, string | Buffer>;

/** Writes `tree` under `dir` (creating folders). */
export function writeTree(dir: string, tree: Tree): void {
  for (const [rel, content] of Object.entries(tree)) {
    const file = path.join(dir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
}

/** A fresh git repository (real `git init`) in a temp dir holding `tree`; returns its canonical path. */
export function makeRepo(tree: Tree = {}, options: { git?: boolean } = {}): string {
  const dir = tempDir('atrium-rules-');
  if (options.git !== false) execFileSync('git', ['-c', 'init.defaultBranch=main', 'init', '-q', dir]);
  writeTree(dir, tree);
  return dir;
}

/** An empty temp HOME for user-level files. */
export function makeHome(tree: Tree = {}): string {
  const home = tempDir('atrium-home-');
  writeTree(home, tree);
  return home;
}

/** Builds a catalog for `workspaceDir` (trusted unless told otherwise) with an isolated HOME. */
export async function buildCatalog(workspaceDir: string, options: { trusted?: boolean; gate?: TrustGate; home?: string } = {}): Promise<RuleCatalog> {
  return (await makeBuilder(workspaceDir, options)).catalog;
}

/** A builder plus its first catalog. */
export async function makeBuilder(workspaceDir: string, options: { trusted?: boolean; gate?: TrustGate; home?: string } = {}): Promise<{ builder: RuleCatalogBuilder; catalog: RuleCatalog }> {
  const builder = new RuleCatalogBuilder({
    workspaceDir: fs.realpathSync(workspaceDir),
    homeDir: options.home ?? makeHome(),
    gate: options.gate ?? fixedGate(options.trusted ?? true),
  });
  return { builder, catalog: await builder.build() };
}

/** The entry with this relative path. @throws when absent (so a missing file fails the test). */
export function fileAt(catalog: RuleCatalog, rel: string): RuleFile {
  const f = catalog.files.find((x) => x.relativePath === rel);
  if (!f) throw new Error(`no catalog entry ${rel}; have: ${catalog.files.map((x) => x.relativePath).join(', ')}`);
  return f;
}

/** Relative paths of a selection's files, in order. */
export function paths(selection: { files: ReadonlyArray<{ file: RuleFile }> }): string[] {
  return selection.files.map((s) => s.file.relativePath);
}

/** Warning codes of an entry. */
export function codes(file: RuleFile): string[] {
  return file.warnings.map((w) => w.code);
}

/** Polls `check` until it returns a truthy value or `timeoutMs` passes (no timing assertions); {@link waitFor} with the arguments in this file's order. */
export function eventually<T>(check: () => T | Promise<T>, timeoutMs = 20_000, what = 'condition'): Promise<NonNullable<T>> {
  return waitFor(check, what, timeoutMs);
}
