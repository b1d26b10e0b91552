import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ExtensionWarning } from '../../../../shared/contract/extensions';
import { inspectGit, pathIdentity, trustRootOf } from '../../workspaces/identity';
import { warn } from '../read';
import { findManifest, readJson, readPlugin, type PluginCandidate } from './candidate';
import { directFileAccess, type FileReader } from '../../files/scan';

/** One install record of `installed_plugins.json`. */
interface InstallRecord {
  scope: string;
  installPath: string | null;
  version: string | null;
  projectPath: string | null;
}

/**
 * Plugins installed from marketplaces (formats.md §2.10): `~/.claude/plugins/installed_plugins.json`
 * names each install `"<plugin>@<marketplace>"`; the files are the versioned copy under
 * `~/.claude/plugins/cache/<marketplace>/<plugin>/<version>/` (`installPath`). Layout read:
 * version 2 `{"version":2,"plugins":{"p@m":[{scope,installPath,version,projectPath?,…}]}}`; version 1
 * maps each key to one such object. `scope: "user"` installs apply everywhere; `project`/`local`
 * ones only to the folder in `projectPath` (canonical compare, worktrees by their main checkout).
 *
 * They are user-level plugins (their files live in your home folder, so they are read in
 * restricted mode too), off unless an `enabledPlugins` key `p@m` turns them on (the layers of
 * `enabled.ts`: in an untrusted folder its own settings may only disable). A missing file is no
 * plugins; a garbled file, entry or folder is a warning, never an exception. `files` reads.
 */
export async function installedPlugins(homeDir: string, workspaceDir: string, shown: (abs: string) => string, files: FileReader = directFileAccess): Promise<{ plugins: PluginCandidate[]; warnings: ExtensionWarning[] }> {
  const file = path.join(homeDir, '.claude', 'plugins', 'installed_plugins.json');
  const where = shown(file);
  const warnings: ExtensionWarning[] = [];
  const json = await readJson(file, where, warnings, files);
  if (json === null || json.value === undefined) return { plugins: [], warnings };
  const root = json.value;
  if (!isRecord(root)) return { plugins: [], warnings: [warn(where, 1, 'is not a JSON object; no installed plugin is listed', 'Reinstall the plugins (claude plugin install …) to rewrite it.')] };
  const map = isRecord(root.plugins) ? root.plugins : Object.fromEntries(Object.entries(root).filter(([k]) => k.includes('@')));
  const here = [pathIdentity(workspaceDir), pathIdentity(trustRootOf(workspaceDir, inspectGit(workspaceDir)))];
  const appliesHere = async (projectPath: string | null): Promise<boolean> => {
    if (projectPath === null || !path.isAbsolute(projectPath)) return false;
    const real = await fs.realpath(projectPath).catch(() => path.resolve(projectPath));
    return here.includes(pathIdentity(real));
  };
  const plugins: PluginCandidate[] = [];
  for (const key of Object.keys(map).sort()) {
    const at = key.lastIndexOf('@');
    if (at <= 0 || at === key.length - 1) {
      warnings.push(warn(where, json.lineOf(map[key]), `"${key}" is not "<plugin>@<marketplace>"; ignored`, null));
      continue;
    }
    const name = key.slice(0, at);
    const marketplace = key.slice(at + 1);
    const records = (Array.isArray(map[key]) ? (map[key] as unknown[]) : [map[key]]).map(installRecord);
    if (records.some((r) => r === null)) warnings.push(warn(where, json.lineOf(map[key]), `an install record of "${key}" is not an object; ignored`, null));
    // a project/local install for this folder wins over a user-wide one
    let chosen: InstallRecord | null = null;
    for (const r of records) if (r && r.scope !== 'user' && (await appliesHere(r.projectPath))) chosen = r;
    chosen ??= records.find((r) => r?.scope === 'user') ?? null;
    if (chosen === null) continue;
    const pluginsDir = path.join(homeDir, '.claude', 'plugins');
    const dir = chosen.installPath !== null ? path.resolve(pluginsDir, chosen.installPath) : (chosen.version ? path.join(pluginsDir, 'cache', marketplace, name, chosen.version) : null);
    const isDir = dir !== null && (await fs.stat(dir).then((s) => s.isDirectory(), () => false));
    if (!isDir) {
      warnings.push(warn(where, json.lineOf(map[key]), `installed plugin "${key}": its folder ${dir === null ? '(no installPath or version)' : shown(dir)} does not exist; it is not loaded`, `Reinstall it: claude plugin install ${key}`));
      continue;
    }
    plugins.push(
      await readPlugin(
        { root: dir, manifestPath: await findManifest(dir), entry: null, marketplace, source: 'user', layer: 'user-claude', fallbackName: name, defaultEnabled: false, installScope: chosen.scope },
        shown,
        files,
      ),
    );
  }
  return { plugins, warnings };
}

function installRecord(value: unknown): InstallRecord | null {
  if (!isRecord(value)) return null;
  const s = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : null);
  return { scope: s(value.scope) ?? 'user', installPath: s(value.installPath), version: s(value.version), projectPath: s(value.projectPath) };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
