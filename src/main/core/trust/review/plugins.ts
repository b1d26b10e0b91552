import path from 'node:path';
import { displayPath } from '../../extensions/paths';
import { findManifest, readPlugin } from '../../extensions/plugins/candidate';
import { marketplaceLocalPlugins } from '../../files/classify';
import type { ReviewCollector } from './collector';
import { collectHooks } from './hooks';
import { parseOrReport } from './jsonFiles';
import type { ReviewEnv } from './resources';
import type { SourceText } from './sources';
import { clip, isRecord, oneLine, str } from '../../formats/text';

/**
 * A plugin folder the extensions bundle does not load (a `.claude-plugin/plugin.json` outside
 * `.claude/plugins/` and the workspace's marketplace): trusting does not switch it on, so only the
 * plugin itself is listed (read and validated by the bundle's `readPlugin`), with what it would
 * add; its hook files are still reviewed (marked "plugin off": they do not run). Returns its name
 * and the hooks file its manifest names, if any.
 */
export async function reviewStrayPlugin(root: string, env: ReviewEnv, out: ReviewCollector): Promise<{ name: string; hookFile: string | null }> {
  const abs = path.join(env.dir, root);
  const shown = (a: string) => displayPath(a, env.dir, env.homeDir);
  const p = await readPlugin({ root: abs, manifestPath: await findManifest(abs), entry: null, marketplace: null, source: 'project', layer: 'project-claude' }, shown);
  const manifestPath = p.manifestPath ? shown(p.manifestPath) : `${root}/.claude-plugin/plugin.json`;
  const description = str(p.manifest?.description);
  out.add({
    kind: 'plugin',
    path: manifestPath,
    line: 1,
    name: p.name,
    summary: oneLine(`plugin ${p.name}${p.check.version ? ` v${p.check.version}` : ''}${description ? `: ${clip(description)}` : ''} · not loaded by trusting: it is neither in .claude/plugins/ nor in this folder's marketplace (only installing it would)`),
    executable: false,
    tool: 'plugin',
    warnings: [...p.check.errors, ...p.check.warnings],
    detail: { plugin: p.name, ...(description ? { description: clip(description) } : {}) },
  });
  const hooks = p.manifest?.hooks;
  if (isRecord(hooks)) collectHooks(isRecord(hooks.hooks) ? hooks.hooks : hooks, { path: manifestPath, dialect: 'plugin', tool: 'plugin', plugin: p.name, lineOf: () => null }, out);
  const hookFile = typeof hooks === 'string' ? path.posix.normalize(path.posix.join(root, hooks)) : null;
  return { name: p.name, hookFile: hookFile && !hookFile.startsWith('..') ? hookFile : null };
}

/**
 * Reads a `.claude-plugin/marketplace.json` anywhere in a workspace (formats.md §2.10) into one
 * `plugin` item describing the catalog, and returns the plugin folders it lists inside the
 * workspace (`./relative` sources). The folders come from `marketplaceLocalPlugins` (files/), which the
 * hooks' plugin discovery uses too; the trust review lists plugins from the extensions bundle.
 * `dirs` holds every directory of the workspace listing (relative POSIX).
 */
export function reviewMarketplace(src: SourceText, dirs: ReadonlySet<string>, out: ReviewCollector): Array<{ root: string; name: string }> {
  const parsed = parseOrReport(src, 'plugin', 'plugin', 'plugin marketplace', out);
  if (!parsed) return [];
  const m = parsed.root;
  const entries = Array.isArray(m.plugins) ? m.plugins.filter(isRecord) : [];
  const local = marketplaceLocalPlugins(m, src.rel, dirs);
  let inline = 0;
  for (const entry of entries) for (const key of ['hooks', 'mcpServers', 'lspServers']) if (entry[key] !== undefined) inline++;
  const name = str(m.name) ?? 'marketplace';
  out.add({
    kind: 'plugin',
    path: src.rel,
    line: 1,
    name,
    summary: oneLine(`plugin marketplace ${name}: ${entries.length} plugin${entries.length === 1 ? '' : 's'}, ${local.length} in this folder${inline ? `, ${inline} with inline hooks/servers (active only once installed)` : ''}`),
    executable: false,
    tool: 'plugin',
    warnings: [],
    detail: {},
  });
  return local;
}
