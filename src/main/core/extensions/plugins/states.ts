import type { ExtensionWarning } from '../../../../shared/contract/extensions';
import { displayPath } from '../paths';
import { discoverPlugins } from './discover';
import { readEnabledLayers, resolveEnabled, type EnabledLayer } from './enabled';

/** A workspace plugin and whether the extensions bundle loads it once the folder is trusted. */
export interface ProjectPluginState {
  name: string;
  /** Absolute plugin folder. */
  root: string;
  marketplace: string | null;
  /** Same as the Extensions tab's `enabled`: switched on and its manifest valid. */
  enabled: boolean;
  status: 'enabled' | 'disabled' | 'error';
  /** The `enabledPlugins` entry that decided it (shown path), or null for the default. */
  enabledBy: { scope: EnabledLayer['scope']; file: string; key: string } | null;
  /** Manifest errors (why it cannot load), empty unless `status` is `error`. */
  errors: ExtensionWarning[];
}

/**
 * The enabled state of the workspace's own plugins exactly as the extensions bundle decides it
 * once the folder is trusted (`discoverProjectExtensions`: the same `discoverPlugins`,
 * `readEnabledLayers` and `resolveEnabled`, user plugins left out), without scanning what the
 * plugins contribute. The hooks listing uses it so hooks and MCP servers of plugins that are off
 * never run. Never throws (bad files only make plugins off or erroneous).
 */
export async function projectPluginStates(workspaceDir: string, homeDir: string): Promise<ProjectPluginState[]> {
  const shown = (abs: string) => displayPath(abs, workspaceDir, homeDir);
  const warnings: ExtensionWarning[] = [];
  const found = await discoverPlugins({ homeDir, workspaceDir, trusted: true, includeUser: false, shown });
  const { layers } = await readEnabledLayers(homeDir, workspaceDir, true, shown);
  return found.plugins.map((c) => {
    const { enabled, enabledBy } = resolveEnabled(c.name, c.marketplace, c.defaultEnabled, layers, warnings);
    const error = c.check.errors.length > 0;
    return { name: c.name, root: c.root, marketplace: c.marketplace, enabled: enabled && !error, status: error ? 'error' : enabled ? 'enabled' : 'disabled', enabledBy, errors: c.check.errors };
  });
}
