import path from 'node:path';
import { validateManifest } from '../../extensions/plugins/manifest';
import type { ReviewCollector } from './collector';
import { collectHooks } from './hooks';
import { parseOrReport } from './jsonFiles';
import { collectLspServers, collectMcpServers } from './servers';
import type { SourceText } from './sources';
import { clip, isRecord, oneLine, str } from './text';

/** A file a plugin manifest points at (`"hooks": "./config/hooks.json"`), to review as that role. */
export interface PluginFileRef {
  rel: string;
  role: 'hooks' | 'mcp' | 'lsp';
  plugin: string;
}

/**
 * Reviews `<root>/.claude-plugin/plugin.json` or `.blade-plugin/plugin.json` (formats.md §2.10,
 * seed-behaviour §12): one `plugin` item, plus items for inline `hooks`, `mcpServers` and
 * `lspServers`. Returns the plugin's name (manifest `name`, else the folder name) and the files the
 * manifest points at, so they are reviewed with the right role.
 */
export function reviewPluginManifest(src: SourceText, out: ReviewCollector): { root: string; name: string; refs: PluginFileRef[] } {
  const root = path.posix.dirname(path.posix.dirname(src.rel));
  const pluginRoot = root === '.' ? '' : root;
  const dirName = pluginRoot ? path.posix.basename(pluginRoot) : 'plugin';
  const parsed = parseOrReport(src, 'plugin', 'plugin', `plugin manifest of ${dirName}`, out);
  if (!parsed) return { root: pluginRoot, name: dirName, refs: [] };
  const m = parsed.root;
  const name = str(m.name) ?? dirName;
  const refs: PluginFileRef[] = [];
  const base = { path: src.rel, tool: 'plugin', plugin: name, lineOf: parsed.lineOf };
  for (const [key, role] of [['hooks', 'hooks'], ['mcpServers', 'mcp'], ['lspServers', 'lsp']] as const) {
    const v = m[key];
    if (typeof v === 'string') {
      const rel = path.posix.normalize(path.posix.join(pluginRoot, v));
      if (!rel.startsWith('..')) refs.push({ rel, role, plugin: name });
      else out.warn({ path: src.rel, line: parsed.lineOf(m), message: `"${key}" points outside the workspace (${v}); not reviewed`, fix: 'Keep plugin files inside the plugin folder ("./..." paths).' });
    } else if (isRecord(v)) {
      if (role === 'hooks') collectHooks(isRecord(v.hooks) ? v.hooks : v, { ...base, dialect: 'plugin' }, out);
      if (role === 'mcp') collectMcpServers(v, base, out);
      if (role === 'lsp') collectLspServers(v, base, out);
    }
  }
  const version = str(m.version);
  const rawDescription = str(m.description);
  const description = rawDescription === undefined ? undefined : clip(rawDescription);
  out.add({
    kind: 'plugin',
    path: src.rel,
    line: 1,
    name,
    summary: oneLine(`plugin ${name}${version ? ` v${version}` : ''}${description ? `: ${description}` : ''}`),
    executable: false,
    tool: 'plugin',
    // the extensions bundle's lenient manifest validation (formats.md §2.10): type errors stop the plugin loading
    warnings: ((check) => [...check.errors, ...check.warnings])(validateManifest(m, src.rel, dirName, parsed.lineOf)),
    detail: { plugin: name, ...(description ? { description } : {}) },
  });
  return { root: pluginRoot, name, refs };
}

/**
 * Reviews `.claude-plugin/marketplace.json` (formats.md §2.10): one `plugin` item describing the
 * catalog. Returns the plugin folders it lists inside this workspace (`./relative` sources), which
 * are reviewed as plugins even without their own manifest. `dirs` holds every directory of the
 * workspace listing (relative POSIX).
 */
export function reviewMarketplace(src: SourceText, dirs: ReadonlySet<string>, out: ReviewCollector): Array<{ root: string; name: string }> {
  const parsed = parseOrReport(src, 'plugin', 'plugin', 'plugin marketplace', out);
  if (!parsed) return [];
  const m = parsed.root;
  const marketRoot = path.posix.dirname(path.posix.dirname(src.rel));
  const base = marketRoot === '.' ? '' : marketRoot;
  const pluginRoot = isRecord(m.metadata) ? str(m.metadata.pluginRoot) : undefined;
  const entries = Array.isArray(m.plugins) ? m.plugins.filter(isRecord) : [];
  const local: Array<{ root: string; name: string }> = [];
  let inline = 0;
  for (const entry of entries) {
    const name = str(entry.name);
    const source = str(entry.source);
    if (name && source && !/^[a-z]+:/i.test(source)) {
      const relSource = source.startsWith('./') || source.startsWith('../') ? source : pluginRoot ? `${pluginRoot}/${source}` : source;
      const rel = path.posix.normalize(path.posix.join(base, relSource));
      if (!rel.startsWith('..') && dirs.has(rel)) local.push({ root: rel === '.' ? '' : rel, name });
    }
    for (const key of ['hooks', 'mcpServers', 'lspServers']) if (entry[key] !== undefined) inline++;
  }
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
