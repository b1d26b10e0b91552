import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { HookFormat, HookScope } from '../../../shared/contract';
import { directFileAccess, type FileAccess, type FileReader } from '../files/scan';
import { classify, findPluginRoots, marketplaceLocalPlugins } from '../files/classify';
import { isRecord, str } from '../formats/text';
import { parseJsonText } from '../formats/json';

/**
 * Where hooks live inside a source file: a settings file's `hooks`, a hooks file, a plugin
 * manifest, or Codex's inline `[hooks]` tables in `config.toml` (formats.md §1.4).
 */
export type SourceKind = 'settings' | 'hooksFile' | 'pluginManifest' | 'codexConfig';

/** One file that may define hooks (or MCP servers). */
export interface SourceFile {
  /** Absolute path. */
  abs: string;
  /** Relative POSIX path (to the workspace, or to the home directory for `user` scope). */
  file: string;
  scope: HookScope;
  format: HookFormat;
  kind: SourceKind;
  plugin: string | null;
  /** Absolute plugin root (`${CLAUDE_PLUGIN_ROOT}`), for plugin hooks. */
  pluginRoot: string | null;
}

/** User-level hook sources, relative to the home directory. */
const USER_SOURCES: ReadonlyArray<[string, HookFormat, SourceKind]> = [
  ['.claude/settings.json', 'claude', 'settings'],
  ['.codex/hooks.json', 'codex', 'hooksFile'],
  ['.codex/config.toml', 'codex', 'codexConfig'],
  ['.gemini/settings.json', 'gemini', 'settings'],
  ['.blade/settings.json', 'blade', 'settings'],
];

/** Project hook sources, relative to the workspace folder, with their scope. */
const PROJECT_SOURCES: ReadonlyArray<[string, HookFormat, SourceKind, HookScope]> = [
  ['.claude/settings.json', 'claude', 'settings', 'project'],
  ['.claude/settings.local.json', 'claude', 'settings', 'local'],
  ['.codex/hooks.json', 'codex', 'hooksFile', 'project'],
  ['.codex/config.toml', 'codex', 'codexConfig', 'project'],
  ['.gemini/settings.json', 'gemini', 'settings', 'project'],
  ['.blade/settings.json', 'blade', 'settings', 'project'],
  ['.blade/settings.local.json', 'blade', 'settings', 'local'],
];

/** The user-level source files (existing or not: the watcher wants them all). */
export function userSources(homeDir: string): SourceFile[] {
  return USER_SOURCES.map(([file, format, kind]) => ({ abs: path.join(homeDir, file), file, scope: 'user', format, kind, plugin: null, pluginRoot: null }));
}

/** The fixed project source files of a workspace (existing or not). */
export function projectSources(dir: string): SourceFile[] {
  return PROJECT_SOURCES.map(([file, format, kind, scope]) => ({ abs: path.join(dir, file), file, scope, format, kind, plugin: null, pluginRoot: null }));
}

/** A plugin found inside a workspace. */
export interface WorkspacePlugin {
  /** Plugin root, workspace-relative POSIX (`''` = the workspace itself). */
  root: string;
  name: string;
  /** Workspace-relative path of its manifest, or null. */
  manifestFile: string | null;
  /** The parsed manifest object, or null. */
  manifest: Record<string, unknown> | null;
}

/** Plugins of a workspace and the hook source files they bring. */
export interface PluginDiscovery {
  plugins: WorkspacePlugin[];
  hookSources: SourceFile[];
}

/**
 * Plugins inside a workspace and their hook sources (formats.md §2.10): every plugin's
 * `hooks/hooks.json` (plugins found by `.claude-plugin/plugin.json`, by a marketplace's `./relative`
 * sources, or by the `<plugin>/hooks/hooks.json` layout itself), a manifest's `"hooks":
 * "./other.json"` file, and a manifest with inline `hooks`. Uses the classifier of files/ (the trust
 * review's too) so both agree on what a plugin is. Lists and reads through `access` (a caller's scan shares its one
 * listing; default: a listing of its own). Never throws (an unlistable folder has no plugins).
 */
export async function discoverPlugins(dir: string, access: FileAccess = directFileAccess): Promise<PluginDiscovery> {
  let files: string[];
  try {
    files = (await access.list(dir, { verifyExistence: false })).files;
  } catch {
    return { plugins: [], hookSources: [] };
  }
  const roots = findPluginRoots(files);
  const manifests = files.filter((rel) => /(^|\/)\.(claude|blade)-plugin\/plugin\.json$/.test(rel));
  const markets = files.filter((rel) => /(^|\/)\.claude-plugin\/marketplace\.json$/.test(rel));
  const dirs = directoriesOf(files);
  for (const rel of markets) {
    const text = await readSmall(path.join(dir, rel), access);
    if (text === null) continue;
    const parsed = parseJsonText(text);
    if (!parsed.ok || !isRecord(parsed.value)) continue;
    for (const { root, name } of marketplaceLocalPlugins(parsed.value, rel, dirs)) {
      if (!roots.has(root)) roots.set(root, name);
    }
  }
  const plugins = new Map<string, WorkspacePlugin>();
  const hookSources: SourceFile[] = [];
  const seen = new Set<string>();
  const add = (rel: string, plugin: string, root: string, kind: SourceKind) => {
    if (seen.has(rel)) return;
    seen.add(rel);
    hookSources.push({ abs: path.join(dir, rel), file: rel, scope: 'plugin', format: 'plugin', kind, plugin, pluginRoot: path.join(dir, root) });
  };
  for (const rel of manifests) {
    const root = path.posix.dirname(path.posix.dirname(rel));
    const pluginRoot = root === '.' ? '' : root;
    const text = await readSmall(path.join(dir, rel), access);
    const parsed = text === null ? null : parseJsonText(text);
    const manifest = parsed?.ok && isRecord(parsed.value) ? parsed.value : null;
    const name = str(manifest?.name) ?? (pluginRoot ? path.posix.basename(pluginRoot) : path.basename(dir));
    roots.set(pluginRoot, name);
    plugins.set(pluginRoot, { root: pluginRoot, name, manifestFile: rel, manifest });
    if (typeof manifest?.hooks === 'string') {
      const target = path.posix.normalize(path.posix.join(pluginRoot, manifest.hooks));
      if (!target.startsWith('..')) add(target, name, pluginRoot, 'hooksFile');
    } else if (isRecord(manifest?.hooks)) {
      add(rel, name, pluginRoot, 'pluginManifest');
    }
  }
  for (const [root, name] of roots) if (!plugins.has(root)) plugins.set(root, { root, name, manifestFile: null, manifest: null });
  for (const rel of files) {
    const role = classify(rel, roots);
    if (role?.role !== 'hooksFile' || role.tool !== 'plugin') continue;
    const parent = path.posix.dirname(path.posix.dirname(rel));
    const root = parent === '.' ? '' : parent;
    const name = role.plugin ?? (root ? path.posix.basename(root) : path.basename(dir));
    if (!plugins.has(root)) plugins.set(root, { root, name, manifestFile: null, manifest: null });
    add(rel, name, root, 'hooksFile');
  }
  const byFile = (a: { file: string }, b: { file: string }) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0);
  return { plugins: [...plugins.values()].sort((a, b) => byFile({ file: a.root }, { file: b.root })), hookSources: hookSources.sort(byFile) };
}

/** Largest source file read (bytes); larger files are reported, not parsed. */
export const MAX_SOURCE_BYTES = 4 * 1024 * 1024;

/** Reads a small text file (through `files`); null when it is missing, not a file, or too large. */
export async function readSmall(abs: string, files: FileReader = directFileAccess): Promise<string | null> {
  try {
    const st = await fs.stat(abs);
    if (!st.isFile() || st.size > MAX_SOURCE_BYTES) return null;
    return await files.readText(abs);
  } catch {
    return null;
  }
}

function directoriesOf(files: readonly string[]): Set<string> {
  const dirs = new Set<string>();
  for (const rel of files) {
    let d = path.posix.dirname(rel);
    while (d !== '.' && !dirs.has(d)) {
      dirs.add(d);
      d = path.posix.dirname(d);
    }
  }
  return dirs;
}
