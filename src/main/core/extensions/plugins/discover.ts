import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ExtensionWarning } from '../../../../shared/contract/extensions';
import { isInside } from '../paths';
import { layerOf, rankOf } from '../precedence';
import { warn } from '../read';
import { findManifest, readJson, readPlugin, type PluginCandidate } from './candidate';
import { installedPlugins } from './installed';
import { directFileAccess, type FileReader } from '../../files/scan';

export type { PluginCandidate } from './candidate';

/** Most marketplace entries read (seed "Numbers at a glance"). */
const MAX_MARKET_ENTRIES = 5000;
/** Names Claude Code keeps in `~/.claude/plugins/` for its own bookkeeping (not plugins). */
const NOT_PLUGINS = new Set(['cache', 'marketplaces', 'repos', 'data', 'node_modules']);

/**
 * Plugins of a workspace (formats.md §2.10, seed §12): folders with `.blade-plugin/plugin.json`
 * (preferred) or `.claude-plugin/plugin.json` under `~/.claude/plugins`, `~/.blade/plugins` and —
 * only when the project is trusted — `.claude/plugins`, `.blade/plugins`, plus the local (`./…`)
 * entries of the workspace's `.claude-plugin/marketplace.json` (`metadata.pluginRoot` honoured;
 * `strict: false` entries are their own definition; remote sources are counted in one warning),
 * plus the plugins installed from marketplaces (`installedPlugins`, user-level). With
 * `includeUser: false` (the project-only discovery) the user's plugins are left out.
 * Same-named plugins: the higher layer wins and the other is reported. Files are read through
 * `options.files` (a build's scan; default: directly). Never throws.
 */
export async function discoverPlugins(options: { homeDir: string; workspaceDir: string; trusted: boolean; includeUser: boolean; shown(abs: string): string; files?: FileReader }): Promise<{ plugins: PluginCandidate[]; warnings: ExtensionWarning[] }> {
  const found: PluginCandidate[] = [];
  const warnings: ExtensionWarning[] = [];
  const files = options.files ?? directFileAccess;
  const scopes: Array<['user' | 'project', string]> = [];
  if (options.includeUser) scopes.push(['user', options.homeDir]);
  if (options.trusted) scopes.push(['project', options.workspaceDir]);
  for (const [scope, base] of scopes) {
    for (const tool of ['claude', 'blade'] as const) {
      const dir = path.join(base, `.${tool}`, 'plugins');
      let entries: import('node:fs').Dirent[] = [];
      try {
        entries = await fs.readdir(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (NOT_PLUGINS.has(e.name) || e.name.startsWith('.')) continue;
        const root = path.join(dir, e.name);
        const manifest = await findManifest(root);
        if (!manifest) continue;
        found.push(await readPlugin({ root, manifestPath: manifest, entry: null, marketplace: null, source: scope, layer: layerOf(scope, tool) }, options.shown, files));
      }
    }
  }
  if (options.includeUser) {
    const installed = await installedPlugins(options.homeDir, options.workspaceDir, options.shown, files);
    found.push(...installed.plugins);
    warnings.push(...installed.warnings);
  }
  if (options.trusted) found.push(...(await marketplacePlugins(options.workspaceDir, options.shown, warnings, files)));
  const byName = new Map<string, PluginCandidate>();
  for (const p of found) {
    const prev = byName.get(p.name);
    if (!prev) byName.set(p.name, p);
    else {
      const [winner, loser] = rankOf({ layer: p.layer, local: false }) > rankOf({ layer: prev.layer, local: false }) ? [p, prev] : [prev, p];
      byName.set(p.name, winner);
      warnings.push(warn(options.shown(loser.root), null, `plugin "${p.name}" is also defined at ${options.shown(winner.root)}, which is used`, 'Rename one of the plugins.'));
    }
  }
  return { plugins: [...byName.values()], warnings };
}

async function marketplacePlugins(workspaceDir: string, shown: (a: string) => string, warnings: ExtensionWarning[], files: FileReader): Promise<PluginCandidate[]> {
  const file = path.join(workspaceDir, '.claude-plugin', 'marketplace.json');
  const json = await readJson(file, shown(file), warnings, files);
  if (!json || !isRecord(json.value)) return [];
  const m = json.value;
  const market = typeof m.name === 'string' ? m.name : 'marketplace';
  const pluginRoot = isRecord(m.metadata) && typeof m.metadata.pluginRoot === 'string' ? m.metadata.pluginRoot : null;
  const entries = Array.isArray(m.plugins) ? m.plugins.slice(0, MAX_MARKET_ENTRIES) : [];
  const out: PluginCandidate[] = [];
  let remote = 0;
  for (const entry of entries) {
    if (!isRecord(entry) || typeof entry.name !== 'string') {
      warnings.push(warn(shown(file), json.lineOf(entry), 'a marketplace entry without a "name" is ignored', 'Add "name".'));
      continue;
    }
    const src = entry.source;
    if (typeof src !== 'string' || /^[a-z][a-z0-9+.-]*:/i.test(src)) {
      remote++;
      continue;
    }
    const rel = src.startsWith('./') || src.startsWith('../') || !pluginRoot ? src : path.posix.join(pluginRoot, src);
    const root = path.resolve(workspaceDir, rel);
    if (!isInside(workspaceDir, root)) {
      warnings.push(warn(shown(file), json.lineOf(entry), `plugin "${entry.name}" has source "${src}", outside the workspace; not loaded`, 'Keep local plugin sources inside the marketplace folder.'));
      continue;
    }
    try {
      if (!(await fs.stat(root)).isDirectory()) throw new Error('not a folder');
    } catch {
      warnings.push(warn(shown(file), json.lineOf(entry), `plugin "${entry.name}": its folder ${shown(root)} does not exist`, 'Fix "source", or add the plugin folder.'));
      continue;
    }
    out.push(await readPlugin({ root, manifestPath: await findManifest(root), entry, marketplace: market, source: 'project', layer: 'project-claude' }, shown, files));
  }
  if (remote > 0) warnings.push(warn(shown(file), null, `${remote} of ${entries.length} marketplace entries have remote sources (github, url, git-subdir…); they are not listed until installed`, null));
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
