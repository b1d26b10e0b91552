import path from 'node:path';
import type { ExtensionWarning } from '../../../../shared/contract/extensions';
import { parseJsonText } from '../../formats/json';
import { warn } from '../read';
import { directFileAccess, type FileReader } from '../../files/scan';

/** One settings file's `enabledPlugins` map. */
export interface EnabledLayer {
  scope: 'user' | 'project' | 'local';
  /** Absolute settings file. */
  file: string;
  shown: string;
  map: Record<string, unknown>;
  /** False for project/local layers of an untrusted folder: they may only disable. */
  trusted: boolean;
}

/** Settings files read for `enabledPlugins`, lowest layer first (seed §12, formats.md §2.4). */
export function enabledFiles(homeDir: string, workspaceDir: string): Array<{ scope: EnabledLayer['scope']; file: string }> {
  return [
    { scope: 'user', file: path.join(homeDir, '.claude', 'settings.json') },
    { scope: 'user', file: path.join(homeDir, '.blade', 'config.json') },
    { scope: 'user', file: path.join(homeDir, '.blade', 'settings.json') },
    { scope: 'project', file: path.join(workspaceDir, '.claude', 'settings.json') },
    { scope: 'project', file: path.join(workspaceDir, '.blade', 'config.json') },
    { scope: 'project', file: path.join(workspaceDir, '.blade', 'settings.json') },
    { scope: 'local', file: path.join(workspaceDir, '.claude', 'settings.local.json') },
    { scope: 'local', file: path.join(workspaceDir, '.blade', 'settings.local.json') },
  ];
}

/**
 * Reads every `enabledPlugins` layer: user < project < local. Project and local layers are read even
 * in restricted mode, but then count only where they disable (an untrusted layer may only
 * disable). Never throws; a settings file that does not parse is a warning. `files` reads.
 */
export async function readEnabledLayers(homeDir: string, workspaceDir: string, trusted: boolean, shown: (abs: string) => string, files: FileReader = directFileAccess): Promise<{ layers: EnabledLayer[]; warnings: ExtensionWarning[] }> {
  const layers: EnabledLayer[] = [];
  const warnings: ExtensionWarning[] = [];
  for (const { scope, file } of enabledFiles(homeDir, workspaceDir)) {
    let text: string;
    try {
      text = await files.readText(file);
    } catch {
      continue;
    }
    const parsed = parseJsonText(text.replace(/^\uFEFF/, ''), { jsonc: true });
    if (!parsed.ok) {
      warnings.push(warn(shown(file), parsed.line, `invalid JSON at line ${parsed.line}: ${parsed.message}; its enabledPlugins are not read`, parsed.fix));
      continue;
    }
    const v = parsed.value as Record<string, unknown> | null;
    const map = v && typeof v === 'object' && !Array.isArray(v) ? v.enabledPlugins : undefined;
    if (map === undefined) continue;
    if (typeof map !== 'object' || map === null || Array.isArray(map)) {
      warnings.push(warn(shown(file), parsed.lineOf(map), '"enabledPlugins" must be an object of plugin names to true/false', 'Write "enabledPlugins": { "my-plugin@marketplace": true }.'));
      continue;
    }
    layers.push({ scope, file, shown: shown(file), map: map as Record<string, unknown>, trusted: scope === 'user' || trusted });
  }
  return { layers, warnings };
}

/** True when an `enabledPlugins` key names this plugin (`name`, or `name@marketplace`). */
export function keyMatches(key: string, name: string, marketplace: string | null): boolean {
  if (key === name) return true;
  const at = key.lastIndexOf('@');
  if (at <= 0 || key.slice(0, at) !== name) return false;
  return marketplace === null || key.slice(at + 1) === marketplace;
}

/**
 * The enabled state of a plugin: its default, then each layer in order (user < project < local;
 * the last matching key of a layer wins); a `true` from an untrusted layer is ignored with a
 * warning. Returns the state and the layer that decided it (null = default).
 */
export function resolveEnabled(name: string, marketplace: string | null, defaultEnabled: boolean, layers: readonly EnabledLayer[], warnings: ExtensionWarning[]): { enabled: boolean; enabledBy: { scope: EnabledLayer['scope']; file: string; key: string } | null } {
  let enabled = defaultEnabled;
  let enabledBy: { scope: EnabledLayer['scope']; file: string; key: string } | null = null;
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer.map)) {
      if (!keyMatches(key, name, marketplace)) continue;
      if (typeof value !== 'boolean') {
        warnings.push(warn(layer.shown, null, `enabledPlugins "${key}" must be true or false`, `Write "${key}": true.`));
        continue;
      }
      if (value && !layer.trusted) {
        warnings.push(warn(layer.shown, null, `enabledPlugins "${key}": true is ignored: this folder is not trusted, so its settings may only disable plugins`, 'Trust the folder, or enable the plugin in your user settings.'));
        continue;
      }
      enabled = value;
      enabledBy = { scope: layer.scope, file: layer.shown, key };
    }
  }
  return { enabled, enabledBy };
}
