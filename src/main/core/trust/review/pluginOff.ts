import type { PluginRecord } from '../../extensions/types';
import type { ReviewCollector } from './collector';

/** Appended to the summary of a hook or MCP server item whose plugin stays off. */
export const PLUGIN_OFF_NOTE = 'plugin off: does not run after trusting';

/**
 * Marks the hook and MCP server items of plugins that stay off after trusting (Claude Code, and
 * the Hooks tab, run hooks and servers of enabled plugins only): not executable, the summary ends
 * with {@link PLUGIN_OFF_NOTE}, and a warning says how to turn the plugin on. The owner of an item
 * is the bundle's plugin whose folder holds the item's file (by name for a marketplace entry's
 * inline hooks); items of plugin folders the bundle does not load count as off. `plugins` are the
 * records of `discoverProjectExtensions` (paths workspace-relative, `.` = the workspace).
 */
export function markPluginOffItems(out: ReviewCollector, plugins: readonly PluginRecord[]): void {
  const roots = plugins.map((p) => ({ p, root: p.path === '.' ? '' : p.path })).sort((a, b) => b.root.length - a.root.length);
  for (const item of out.drafts()) {
    const name = item.detail?.plugin;
    if ((item.kind !== 'hook' && item.kind !== 'mcpServer') || typeof name !== 'string') continue;
    const owner = roots.find(({ root }) => root === '' || item.path === root || item.path.startsWith(`${root}/`))?.p ?? plugins.find((p) => p.name === name && !p.manifestPath);
    if (owner?.enabled) continue;
    const key = owner?.marketplace ? `${owner.name}@${owner.marketplace}` : name;
    const why = !owner ? 'the plugin is not loaded (neither in .claude/plugins/ nor in this folder\'s marketplace)' : owner.status === 'error' ? 'the plugin cannot load (see its warnings)' : `plugin "${name}" stays off until enabled`;
    item.executable = false;
    item.summary = `${item.summary} · ${PLUGIN_OFF_NOTE}`;
    item.warnings = [
      ...(item.warnings ?? []),
      { path: item.path, line: item.line ?? null, message: `${PLUGIN_OFF_NOTE}: ${why}`, fix: owner && owner.status !== 'error' ? `Enable it on the Extensions tab after trusting, or set "enabledPlugins": { "${key}": true } in .claude/settings.json; then approve it on the Hooks tab.` : null },
    ];
  }
}
