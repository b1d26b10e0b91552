import fs from 'node:fs';
import path from 'node:path';
import { createEngine, type Engine } from '../../../src/main/core/engine';
import { buildExtensions } from '../../../src/main/core/extensions/build';
import type { ExtensionCatalog } from '../../../src/main/core/extensions/types';
import { fixedGate, type TrustGate } from '../../../src/main/core/trust/gate';
import { tempDir } from '../../support/tempDir';

/** Files to write: path → text (or bytes). */
export type Tree = Record<string, string | Buffer>;

/** Writes `tree` under `dir` (creating folders). */
export function writeTree(dir: string, tree: Tree): string {
  for (const [rel, content] of Object.entries(tree)) {
    const file = path.join(dir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
  return dir;
}

/** A temp folder (canonical) holding `tree`. */
export function makeDir(tree: Tree = {}, prefix = 'atrium-ext-'): string {
  return writeTree(tempDir(prefix), tree);
}

/** A Markdown file with YAML frontmatter. */
export function md(frontmatter: Record<string, string>, body: string): string {
  const fm = Object.entries(frontmatter).map(([k, v]) => `${k}: ${v}`);
  return `---\n${fm.join('\n')}\n---\n${body}\n`;
}

/** A mutable trust gate for tests. */
export function switchGate(initial: boolean): TrustGate & { set(v: boolean): void } {
  let v = initial;
  return { mayActivateProjectResources: () => v, set: (x: boolean) => (v = x) };
}

/** Builds the extensions catalog of `dir` directly (no cache). */
export function build(dir: string, home: string, trusted = true): Promise<ExtensionCatalog> {
  return buildExtensions({ workspaceDir: dir, homeDir: home, gate: fixedGate(trusted) });
}

/** A real engine (real SQLite in a temp data dir) with a temp HOME and a fixed or switchable gate; no watching. */
export function engineFor(home: string, gate: TrustGate = fixedGate(true)): Engine {
  return createEngine({ dataDir: tempDir('atrium-data-'), homeDir: home, trustGate: gate, watchResources: false, watchHooks: false });
}

/** The ids of a list, by status. */
export function ids<T extends { id: string; status: string }>(items: readonly T[], status = 'active'): string[] {
  return items.filter((i) => i.status === status).map((i) => i.id);
}
