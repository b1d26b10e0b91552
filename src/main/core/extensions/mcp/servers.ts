import path from 'node:path';
import type { ExtensionWarning, HookSource } from '../../../../shared/contract';
import { mcpServerDefinitionsFromMap, readMcpServerDefinitions } from '../../formats/mcpServers';
import { parseJsonText } from '../../formats/json';
import { isRecord } from '../../formats/text';
import { layerOf } from '../precedence';
import { warn } from '../read';
import { readClaudeJsonServers } from './claudeJson';
import { mcpRecord } from './record';
import type { McpRecord, PluginRecord } from '../types';
import { directFileAccess, type FileReader } from '../../files/scan';

/** What {@link collectMcpServers} needs. */
export interface McpContext {
  workspaceDir: string;
  homeDir: string;
  trusted: boolean;
  /** False for the project-only discovery (`discoverProjectExtensions`): user files are left out. */
  includeUser: boolean;
  /** Enabled plugins only. */
  plugins: readonly PluginRecord[];
  shown(absolute: string): string;
  /** Reads every file (a build's scan; default: directly). */
  files?: FileReader;
}

/**
 * MCP servers of a workspace (formats.md §2.7), parsed by the shared MCP reader
 * (`formats/mcpServers.ts`, the same definitions and digests MCP approval uses): the user's files
 * (`~/.claude/settings.json`, `~/.cursor/mcp.json`, `~/.gemini/settings.json`, `~/.codex/config.toml`,
 * `~/.blade/…`), the project's (`.mcp.json` wrapped or bare, `.cursor/mcp.json`, `.vscode/mcp.json`
 * `servers`, settings `mcpServers`…) only when trusted, the user and local scopes of `~/.claude.json`
 * (`mcp/claudeJson.ts`, user-level: read in restricted mode too), and each enabled plugin's `.mcp.json`,
 * manifest `mcpServers` (file or inline) and marketplace entry. A server without `type` gets it from
 * its fields. Secret-looking env and header values and arguments are masked (`formats/secrets.ts`). Never throws.
 */
export async function collectMcpServers(ctx: McpContext): Promise<{ servers: McpRecord[]; warnings: ExtensionWarning[] }> {
  const servers: McpRecord[] = [];
  const warnings: ExtensionWarning[] = [];
  if (ctx.includeUser) {
    const user = await readMcpServerDefinitions(ctx.homeDir, [], ctx.files);
    for (const d of user.servers) servers.push(mcpRecord(d, { source: 'user', path: `~/${d.source.file}`, layer: layerOf('user', d.source.file.startsWith('.blade/') ? 'blade' : 'claude'), plugin: null }));
    warnings.push(...user.warnings.map((w) => ({ ...w, path: `~/${w.path}` })));
    const own = await readClaudeJsonServers(ctx.homeDir, ctx.workspaceDir, ctx.files);
    servers.push(...own.servers);
    warnings.push(...own.warnings);
  }
  if (ctx.trusted) {
    const project = await readMcpServerDefinitions(ctx.workspaceDir, [], ctx.files);
    for (const d of project.servers) {
      servers.push(mcpRecord(d, { source: d.source.scope === 'local' ? 'local' : 'project', path: d.source.file, layer: layerOf('project', d.source.file.startsWith('.blade/') ? 'blade' : 'claude'), plugin: null }));
    }
    warnings.push(...project.warnings);
  }
  for (const plugin of ctx.plugins) {
    const found = await pluginServers(plugin, ctx);
    servers.push(...found.servers);
    warnings.push(...found.warnings);
  }
  return { servers, warnings };
}

/** The MCP servers one plugin declares (`.mcp.json`, manifest `mcpServers`, marketplace entry). */
export async function pluginServers(plugin: PluginRecord, ctx: Pick<McpContext, 'homeDir' | 'shown' | 'files'>): Promise<{ servers: McpRecord[]; warnings: ExtensionWarning[] }> {
  const servers: McpRecord[] = [];
  const warnings: ExtensionWarning[] = [];
  const add = (map: unknown, absolutePath: string, lineOf?: (n: unknown) => number | null) => {
    const shownPath = ctx.shown(absolutePath);
    const source: HookSource = { scope: 'plugin', file: shownPath, plugin: plugin.name, format: 'plugin', absolutePath };
    // the plugin folder is ${CLAUDE_PLUGIN_ROOT} for its servers' expansion
    for (const d of mcpServerDefinitionsFromMap(map, source, lineOf)) servers.push(mcpRecord({ ...d, pluginRoot: plugin.root }, { source: 'plugin', path: shownPath, layer: 'plugin', plugin: plugin.name }));
  };
  const readFile = async (absolutePath: string) => {
    const text = await (ctx.files ?? directFileAccess).readText(absolutePath).catch(() => null);
    if (text === null) return;
    const parsed = parseJsonText(text.replace(/^\uFEFF/, ''));
    if (!parsed.ok) {
      warnings.push(warn(ctx.shown(absolutePath), parsed.line, `invalid JSON at line ${parsed.line}, column ${parsed.column}: ${parsed.message}; its MCP servers cannot start`, parsed.fix));
      return;
    }
    const root = parsed.value;
    add(isRecord(root) && root.mcpServers !== undefined ? root.mcpServers : root, absolutePath, parsed.lineOf);
  };
  await readFile(path.join(plugin.root, '.mcp.json'));
  for (const def of [plugin.manifest?.mcpServers, plugin.entry?.mcpServers]) {
    if (typeof def === 'string') {
      const target = path.resolve(plugin.root, def);
      if (target !== path.join(plugin.root, '.mcp.json')) await readFile(target);
    } else if (isRecord(def)) {
      add(def, plugin.manifestPath ? path.join(plugin.root, '.claude-plugin', 'plugin.json') : plugin.root);
    }
  }
  return { servers, warnings };
}
