import path from 'node:path';

/**
 * What the hooks need to know of one workspace plugin: whether the extensions bundle loads it and
 * why not. Declared here so hooks do not import the extensions code; the engine passes the
 * extensions' `projectPluginStates` (same shape) in as {@link PluginStatesOf}.
 */
export interface HookPluginState {
  name: string;
  /** Absolute plugin folder. */
  root: string;
  marketplace: string | null;
  /** Switched on and its manifest valid. */
  enabled: boolean;
  status: 'enabled' | 'disabled' | 'error';
  /** The `enabledPlugins` entry that decided it (shown path), or null for the default. */
  enabledBy: { file: string; key: string } | null;
  /** Manifest errors (why it cannot load), empty unless `status` is `error`. */
  errors: readonly { path: string; line: number | null; message: string; fix: string | null }[];
}

/**
 * The enabled state of a workspace's own plugins exactly as the extensions bundle decides it once
 * the folder is trusted (`workspaceDir` absolute; user plugins left out). Never rejects.
 */
export type PluginStatesOf = (workspaceDir: string, homeDir: string) => Promise<readonly HookPluginState[]>;

/** Why a plugin's hooks and MCP servers do not run, with how to turn the plugin on. */
export interface PluginOff {
  /** e.g. `plugin "hookify" is off (marketplace plugins stay off until enabled)`. */
  reason: string;
  fix: string;
}

/**
 * Decides, per plugin folder, whether its hooks and MCP servers may run: only when the extensions
 * bundle loads the plugin and it is enabled (Claude Code loads hooks and MCP servers of enabled
 * plugins only). `states` comes from {@link PluginStatesOf}; a plugin folder it does not list is
 * not loaded at all. Returns a lookup by absolute plugin root: null when the plugin is on.
 */
export function pluginGate(states: readonly HookPluginState[]): (pluginRoot: string, name: string) => PluginOff | null {
  const byRoot = new Map(states.map((s) => [path.resolve(s.root), s]));
  return (pluginRoot, name) => {
    const s = byRoot.get(path.resolve(pluginRoot));
    if (!s) {
      return {
        reason: `plugin "${name}" is not loaded: it is neither in .claude/plugins/ nor a local entry of this folder's .claude-plugin/marketplace.json`,
        fix: 'Move the plugin under .claude/plugins/ or list it in the marketplace, then enable it on the Extensions tab.',
      };
    }
    if (s.status === 'error') {
      const first = s.errors[0];
      return { reason: `plugin "${s.name}" cannot load: ${first ? `${first.path}${first.line ? `:${first.line}` : ''}: ${first.message}` : 'its manifest is invalid'}`, fix: first?.fix ?? 'Fix the plugin manifest (see the Extensions tab).' };
    }
    if (s.enabled) return null;
    const key = s.marketplace ? `${s.name}@${s.marketplace}` : s.name;
    const why = s.enabledBy ? `"${s.enabledBy.key}": false in enabledPlugins of ${s.enabledBy.file}` : s.marketplace ? 'marketplace plugins stay off until enabled' : 'its manifest sets "defaultEnabled": false';
    const where = s.enabledBy ? s.enabledBy.file : '.claude/settings.json (shared), .claude/settings.local.json (just you) or ~/.claude/settings.json';
    return { reason: `plugin "${s.name}" is off (${why}); its hooks and MCP servers do not run`, fix: `Enable it on the Extensions tab, or set "enabledPlugins": { "${key}": true } in ${where}.` };
  };
}
