import path from 'node:path';
import type { TrustItemKind, TrustWarning } from '../../../../shared/contract';
import { FRONTMATTER_HOOKS_NOTE } from '../../extensions/skills/parse';
import type { AgentRecord, CommandRecord, ExtensionCatalog, PluginRecord, SkillRecord, StyleRecord } from '../../extensions/types';
import type { DraftItem, ReviewCollector } from './collector';
import { collectHooks } from './hooks';
import { commandRiskWarnings } from './risk';
import { collectMcpServers, lspServerItem, mcpServerItem, shownDescription, statusNote } from './servers';
import { oneLine, isRecord } from '../../formats/text';

/** Where the review runs: the workspace folder and the home folder (for the MCP reader's danger checks). */
export interface ReviewEnv {
  dir: string;
  homeDir: string;
  /** Names of the plugins the bundle found in the workspace (an `enabledPlugins` key naming one is not listed again). */
  projectPlugins?: ReadonlySet<string>;
}

/** A Markdown resource record of the extensions bundle. */
export type MarkdownRecord = SkillRecord | CommandRecord | AgentRecord | StyleRecord;
type MarkdownKind = Extract<TrustItemKind, 'skill' | 'command' | 'subagent' | 'outputStyle'>;

/** What {@link reviewCatalog} tells the tree walk. */
export interface CatalogCoverage {
  /** Workspace-relative files the bundle read (the walk leaves them alone). */
  files: Set<string>;
  /** Plugin roots the bundle found (workspace-relative POSIX, `''` = the workspace) → plugin name. */
  pluginRoots: Map<string, string>;
  /** Hook files plugin manifests point at (`"hooks": "./config/hooks.json"`), to review as hooks. */
  hookFiles: Array<{ rel: string; plugin: string }>;
  /** The bundle's warnings about workspace files no record carries: the caller attaches them to the item of that file, if any. */
  warnings: TrustWarning[];
}

/**
 * Lists the project's extensions as trusting would activate them (the extensions bundle's
 * `discoverProjectExtensions`): skills, commands, subagents, output styles, plugins, MCP and LSP
 * servers, each named and warned about exactly as on the Extensions tab (`detail.resourceId` = its
 * id there), plus what they declare that runs: frontmatter `hooks` and a subagent's `mcpServers`,
 * and a plugin manifest's inline hooks. Catalog warnings go to the item of the same file; the
 * others are returned. Returns what the bundle covered so the tree walk reads only the rest.
 */
export function reviewCatalog(c: ExtensionCatalog, env: ReviewEnv, out: ReviewCollector): CatalogCoverage {
  const inWorkspace = (p: string) => !p.startsWith('~/') && !path.isAbsolute(p);
  const coverage: CatalogCoverage = { files: new Set(), pluginRoots: new Map(), hookFiles: [], warnings: [] };
  const items: DraftItem[] = [];
  const add = (item: DraftItem) => items.push(item);
  const addFile = (item: DraftItem) => {
    items.push(item);
    coverage.files.add(item.path); // a skill/command/subagent/style file: nothing else in it to review
  };
  for (const s of c.skills) if (inWorkspace(s.path)) resourceItems('skill', s, env, addFile, out);
  for (const s of c.commands) if (inWorkspace(s.path)) resourceItems('command', s, env, addFile, out);
  for (const s of c.agents) if (inWorkspace(s.path)) resourceItems('subagent', s, env, addFile, out);
  for (const s of c.styles) if (inWorkspace(s.path)) resourceItems('outputStyle', s, env, addFile, out);
  for (const s of c.mcpServers) if (inWorkspace(s.path)) add(mcpServerItem(s, toolOfPath(s.path, s.plugin), s.id));
  for (const s of c.lspServers) if (inWorkspace(s.path)) add(lspServerItem(s, s.plugin ? 'plugin' : 'claude', s.id));
  for (const p of c.plugins) {
    if (!inWorkspace(p.path)) continue;
    const root = p.path === '.' ? '' : p.path;
    coverage.pluginRoots.set(root, p.name);
    if (p.manifestPath) coverage.files.add(p.manifestPath);
    add(pluginItem(p));
    pluginHooks(p, root, coverage, out);
  }
  // a file that does not parse yields no record: it is an item of its own, so it is not missed
  const unparsed: DraftItem[] = [];
  const byPath = new Map<string, DraftItem>();
  for (const item of items) if (!byPath.has(item.path)) byPath.set(item.path, item);
  for (const w of c.warnings) {
    if (!inWorkspace(w.path)) continue;
    const kind = /(^|\/)([^/]*mcp\.json)$/.test(w.path) ? 'mcpServer' : /(^|\/)\.lsp\.json$/.test(w.path) ? 'lspServer' : null;
    if (kind && w.message.startsWith('invalid JSON') && !byPath.has(w.path)) {
      const item: DraftItem = { kind, path: w.path, line: w.line, name: path.posix.basename(w.path), summary: `${kind === 'mcpServer' ? 'MCP' : 'LSP'} server file that does not parse (line ${w.line ?? '?'}); nothing in it is loaded`, executable: true, tool: toolOfPath(w.path, null), warnings: [w], detail: {} };
      unparsed.push(item);
      byPath.set(w.path, item);
    } else {
      const owner = byPath.get(w.path);
      if (owner) owner.warnings = [...(owner.warnings ?? []), w];
      else coverage.warnings.push(w);
    }
  }
  for (const item of [...items, ...unparsed]) out.add(item);
  return coverage;
}

/**
 * Adds the item of one Markdown resource record and the hook and MCP items its frontmatter
 * declares. Used for the bundle's records and, by the tree walk, for resource files the bundle
 * does not read (parsed by the same extension parsers; `resourceId` null there).
 */
export function resourceItems(kind: MarkdownKind, r: MarkdownRecord, env: ReviewEnv, add: (item: DraftItem) => void, out: ReviewCollector, resourceId: string | null = r.id, tool: string = r.tool): void {
  const meta = 'meta' in r ? r.meta : null;
  const embeds = 'shellEmbeds' in r ? r.shellEmbeds : [];
  const warnings: TrustWarning[] = [...r.warnings];
  for (const cmd of embeds) warnings.push(...commandRiskWarnings(cmd, r.path, null));
  const allowed = 'allowedTools' in r ? r.allowedTools : [];
  if (kind !== 'subagent' && allowed.some((t) => /^Bash\b/.test(t.trim()))) warnings.push({ path: r.path, line: meta?.lines['allowed-tools'] ?? null, message: `pre-approves shell commands while it runs: ${allowed.join(', ')}`, fix: null });
  const mode = typeof meta?.data.permissionMode === 'string' ? meta.data.permissionMode : null;
  if (kind === 'subagent' && meta && isRecord(meta.data.hooks) && Object.keys(meta.data.hooks).length > 0) {
    warnings.push({ path: r.path, line: meta.lines.hooks ?? null, message: `declares hooks in its frontmatter: ${FRONTMATTER_HOOKS_NOTE.subagent}`, fix: null });
  }
  if (mode && /bypass|yolo/i.test(mode)) warnings.push({ path: r.path, line: meta?.lines.permissionMode ?? null, message: `runs with permission mode "${mode}": tools run without asking`, fix: null });
  const name = kind === 'command' ? `/${resourceId ?? r.id}` : (resourceId ?? r.id);
  const description = shownDescription(r.description);
  const runs = embeds.length ? ` · runs: ${embeds.join('; ')}` : '';
  add({
    kind,
    path: r.path,
    line: 1,
    name,
    summary: oneLine(`${name}${description ? `: ${description}` : ''}${runs}${statusNote(r)}`),
    executable: embeds.length > 0,
    tool,
    warnings,
    detail: { ...(description ? { description } : {}), ...(embeds.length ? { shellEmbeds: [...embeds] } : {}), ...(r.plugin ? { plugin: r.plugin } : {}), ...(resourceId ? { resourceId } : {}) },
  });
  if (!meta) return;
  if (meta.data.hooks !== undefined && kind !== 'outputStyle') {
    collectHooks(meta.data.hooks, { path: r.path, dialect: 'claude', tool, plugin: r.plugin, lineOf: () => null, fallbackLine: meta.lines.hooks ?? null }, out);
  }
  if (kind === 'subagent' && isRecord(meta.data.mcpServers)) {
    collectMcpServers(meta.data.mcpServers, { path: r.path, tool, plugin: r.plugin, lineOf: () => null, fallbackLine: meta.lines.mcpServers ?? null, ...env }, out);
  }
}

function pluginItem(p: PluginRecord): DraftItem {
  const c = p.contributes;
  const parts = (
    [
      [c.commands, 'command'],
      [c.skills, 'skill'],
      [c.agents, 'subagent'],
      [c.styles, 'output style'],
      [c.hooks, 'hook'],
      [c.mcpServers, 'MCP server'],
      [c.lspServers, 'LSP server'],
    ] as const
  )
    .filter(([n]) => n > 0)
    .map(([n, what]) => `${n} ${what}${n === 1 ? '' : 's'}`);
  const brings = parts.length ? parts.join(', ') : 'nothing yet';
  const state =
    p.status === 'error'
      ? 'cannot load (see warnings)'
      : p.enabled
        ? `enabled${p.enabledBy ? ` by ${p.enabledBy.file}` : ''}: adds ${brings}`
        : `off until enabled (enabledPlugins${p.marketplace ? ` "${p.name}@${p.marketplace}"` : ''}); it would add ${brings}`;
  const description = shownDescription(p.description);
  return {
    kind: 'plugin',
    path: p.manifestPath ?? p.path,
    line: p.manifestPath ? 1 : null,
    name: p.name,
    summary: oneLine(`plugin ${p.name}${p.version ? ` v${p.version}` : ''}${p.marketplace ? ` (marketplace ${p.marketplace})` : ''} · ${state}${description ? ` · ${description}` : ''}`),
    executable: false,
    tool: 'plugin',
    warnings: [...p.warnings],
    detail: { plugin: p.name, ...(description ? { description } : {}), resourceId: p.id },
  };
}

/** A plugin's hooks: inline in the manifest (or a `strict: false` marketplace entry), or in the file the manifest names. */
function pluginHooks(p: PluginRecord, root: string, coverage: CatalogCoverage, out: ReviewCollector): void {
  const def = p.manifest?.hooks;
  if (isRecord(def)) {
    collectHooks(isRecord(def.hooks) ? def.hooks : def, { path: p.manifestPath ?? '.claude-plugin/marketplace.json', dialect: 'plugin', tool: 'plugin', plugin: p.name, lineOf: () => null }, out);
  } else if (typeof def === 'string') {
    const rel = path.posix.normalize(path.posix.join(root, def));
    if (!rel.startsWith('..')) coverage.hookFiles.push({ rel, plugin: p.name });
  }
}

/** The tool a file belongs to, from its folder (`.gemini/settings.json` → gemini). */
export function toolOfPath(rel: string, plugin: string | null): string {
  if (plugin) return 'plugin';
  const m = /(?:^|\/)\.(cursor|vscode|gemini|codex|blade)\//.exec(rel);
  return m ? m[1] : 'claude';
}
