import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ExtensionWarning } from '../../../../shared/contract/extensions';
import { parseJsonText } from '../../trust/review/jsonText';
import { isInside } from '../paths';
import { layerOf, rankOf, type Layer } from '../precedence';
import { warn } from '../read';
import { validateManifest, type ManifestCheck } from './manifest';

/** A plugin found on disk, before its enabled state is decided. */
export interface PluginCandidate {
  name: string;
  /** Absolute plugin folder. */
  root: string;
  /** Absolute manifest path, or null. */
  manifestPath: string | null;
  /** The object the plugin is defined by: plugin.json, or the marketplace entry (strict: false / no plugin.json). */
  manifest: Record<string, unknown> | null;
  entry: Record<string, unknown> | null;
  marketplace: string | null;
  source: 'user' | 'project';
  layer: Layer;
  check: ManifestCheck;
  /** On unless switched off by a settings layer: plugin folders yes (unless `defaultEnabled: false`), marketplace entries no. */
  defaultEnabled: boolean;
}

/** Most marketplace entries read (seed "Numbers at a glance"). */
const MAX_MARKET_ENTRIES = 5000;
/** Names Claude Code keeps in `~/.claude/plugins/` for its own bookkeeping (not plugins). */
const NOT_PLUGINS = new Set(['cache', 'marketplaces', 'repos', 'data', 'node_modules']);

/**
 * Plugins of a workspace (formats.md §2.10, seed §12): folders with `.blade-plugin/plugin.json`
 * (preferred) or `.claude-plugin/plugin.json` under `~/.claude/plugins`, `~/.blade/plugins` and —
 * only when the project is trusted — `.claude/plugins`, `.blade/plugins`, plus the local (`./…`)
 * entries of the workspace's `.claude-plugin/marketplace.json` (`metadata.pluginRoot` honoured;
 * `strict: false` entries are their own definition; remote sources are counted in one warning).
 * Same-named plugins: the higher layer wins and the other is reported. Never throws.
 */
export async function discoverPlugins(options: { homeDir: string; workspaceDir: string; trusted: boolean; shown(abs: string): string }): Promise<{ plugins: PluginCandidate[]; warnings: ExtensionWarning[] }> {
  const found: PluginCandidate[] = [];
  const warnings: ExtensionWarning[] = [];
  const scopes: Array<['user' | 'project', string]> = [['user', options.homeDir]];
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
        found.push(await candidate(root, manifest, null, null, scope, layerOf(scope, tool), options.shown, warnings));
      }
    }
  }
  if (options.trusted) found.push(...(await marketplacePlugins(options.workspaceDir, options.shown, warnings)));
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

async function findManifest(root: string): Promise<string | null> {
  for (const dir of ['.blade-plugin', '.claude-plugin']) {
    const p = path.join(root, dir, 'plugin.json');
    try {
      if ((await fs.stat(p)).isFile()) return p;
    } catch {
      // try the next
    }
  }
  return null;
}

async function readJson(file: string, shown: string, warnings: ExtensionWarning[]): Promise<{ value: unknown; lineOf: (n: unknown) => number | null } | null> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    return null;
  }
  const parsed = parseJsonText(text.replace(/^\uFEFF/, ''));
  if (!parsed.ok) {
    warnings.push(warn(shown, parsed.line, `invalid JSON at line ${parsed.line}, column ${parsed.column}: ${parsed.message}`, parsed.fix));
    return { value: undefined, lineOf: () => null };
  }
  return { value: parsed.value, lineOf: parsed.lineOf };
}

async function candidate(root: string, manifestPath: string | null, entry: Record<string, unknown> | null, marketplace: string | null, source: 'user' | 'project', layer: Layer, shown: (a: string) => string, warnings: ExtensionWarning[]): Promise<PluginCandidate> {
  const folder = path.basename(root);
  const fileWarnings: ExtensionWarning[] = [];
  const json = manifestPath ? await readJson(manifestPath, shown(manifestPath), fileWarnings) : null;
  const strict = entry?.strict !== false;
  let manifest: Record<string, unknown> | null = json && isRecord(json.value) ? json.value : null;
  let check: ManifestCheck;
  if (manifestPath && json && json.value === undefined) {
    check = { name: typeof entry?.name === 'string' ? entry.name : folder, version: null, description: null, defaultEnabled: true, errors: fileWarnings, warnings: [] };
  } else if (manifest) {
    check = validateManifest(manifest, shown(manifestPath!), typeof entry?.name === 'string' ? entry.name : folder, json!.lineOf);
    if (entry && !strict && ['commands', 'agents', 'skills', 'hooks', 'mcpServers', 'lspServers', 'outputStyles'].some((k) => manifest![k] !== undefined)) {
      check.errors.push(warn(shown(manifestPath!), 1, 'the marketplace entry has "strict": false (the entry is the whole definition), but this plugin.json declares components too; Claude Code refuses to load it', 'Move the components into the marketplace entry, or drop "strict": false.'));
    }
  } else {
    manifest = entry;
    check = validateManifest(entry ?? {}, shown(root), folder);
    check.warnings = check.warnings.filter((w) => !/^unknown key|^no "name"/.test(w.message));
  }
  if (entry && manifest !== entry && typeof entry.name === 'string' && entry.name !== check.name) {
    check.warnings.push(warn(shown(manifestPath ?? root), null, `the marketplace lists it as "${entry.name}" but its manifest says "${check.name}"`, 'Use one name in both.'));
  }
  void warnings;
  return { name: check.name, root, manifestPath, manifest, entry, marketplace, source, layer, check, defaultEnabled: entry ? false : check.defaultEnabled };
}

async function marketplacePlugins(workspaceDir: string, shown: (a: string) => string, warnings: ExtensionWarning[]): Promise<PluginCandidate[]> {
  const file = path.join(workspaceDir, '.claude-plugin', 'marketplace.json');
  const json = await readJson(file, shown(file), warnings);
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
    out.push(await candidate(root, await findManifest(root), entry, market, 'project', 'project-claude', shown, warnings));
  }
  if (remote > 0) warnings.push(warn(shown(file), null, `${remote} of ${entries.length} marketplace entries have remote sources (github, url, git-subdir…); they are not listed until installed`, null));
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
