import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ExtensionWarning } from '../../../shared/contract/extensions';
import { WorkspaceScan, type FileAccess } from '../files/scan';
import { sha256Hex } from '../formats/digest';
import { scanCommands } from './commands/scan';
import { readLspFile } from './lsp/scan';
import { collectMcpServers, pluginServers } from './mcp/servers';
import { displayPath } from './paths';
import { collectPluginResources, type PluginResources } from './plugins/contributes';
import { discoverPlugins } from './plugins/discover';
import { readEnabledLayers, resolveEnabled } from './plugins/enabled';
import { applyPrecedence } from './precedence';
import { nativeRoots } from './roots';
import { nestedSkillRoots, scanNestedSkills } from './skills/nested';
import { scanSkills } from './skills/scan';
import { applyStyleLimits, scanStyles } from './styles/scan';
import { scanAgents } from './subagents/scan';
import type { AgentRecord, CommandRecord, ExtensionCatalog, LspRecord, PluginRecord, SkillRecord, StyleRecord } from './types';

/**
 * The trust answer the extensions need (restricted mode's one question, answered by the trust gate
 * above and passed in): may project resources under `dir` (absolute) be activated? Never throws.
 */
export interface ExtensionsTrust {
  mayActivateProjectResources(dir: string): boolean;
}

/** What {@link buildExtensions} reads. */
export interface BuildContext {
  /** Canonical workspace folder. */
  workspaceDir: string;
  homeDir: string;
  gate: ExtensionsTrust;
  /**
   * The build's scan: the workspace listing and every file read come from it, so the bundle lists
   * the tree once and reads each file once across its members (default: a scan of its own).
   */
  files?: FileAccess;
}

/** What one discovery reads: the project only when `trusted`, the user's sources only when `includeUser`. */
interface Discovery {
  workspaceDir: string;
  homeDir: string;
  trusted: boolean;
  includeUser: boolean;
  files: FileAccess;
}

/**
 * Builds the extensions value of a workspace bundle from disk: plugins first (their
 * enabled state decides what they contribute), then skills, commands, subagents and output styles
 * from the native folders (`nativeRoots`), nested `.claude/skills` folders (`skills/nested.ts`) and
 * enabled plugins, precedence applied (`precedence.ts`), then MCP (`~/.claude.json` included) and
 * LSP servers. Project sources are read only when the trust gate allows the workspace folder;
 * otherwise only user-level sources are active and `restrictedCounts` tells what trusting would
 * activate ({@link discoverProjectExtensions}). Bad files never fail the build (they become
 * warnings); resolves a frozen catalog.
 */
export async function buildExtensions(ctx: BuildContext): Promise<ExtensionCatalog> {
  const trusted = ctx.gate.mayActivateProjectResources(ctx.workspaceDir);
  const files = ctx.files ?? new WorkspaceScan({ root: ctx.workspaceDir });
  const catalog = await discover({ workspaceDir: ctx.workspaceDir, homeDir: ctx.homeDir, trusted, includeUser: true, files });
  if (trusted) return catalog;
  // restricted mode: what trusting would activate, from the very same discovery (and the same reads)
  const counts = countActive(await discoverProjectExtensions(ctx.workspaceDir, ctx.homeDir, files));
  return freeze({ ...catalog, restrictedCounts: counts, digest: sha256Hex(JSON.stringify([catalog.digest, counts])) });
}

/**
 * The project's own extensions, as trusting the folder would activate them: the bundle build with
 * the project treated as trusted and the user's sources (`~/.claude/…`, `~/.blade/…`,
 * `~/.claude.json`, installed plugins) left out. Settings layers still decide plugin enabled state
 * (the user's `enabledPlugins` included), so the result is exactly the project part of the bundle
 * the workspace gets once trusted. The trust review lists these (`trust/review/resources.ts`) and
 * restricted mode counts them. `files` is the caller's scan (the review passes the one it listed
 * the tree with; default: a scan of its own). Never throws for bad files (warnings).
 */
export function discoverProjectExtensions(workspaceDir: string, homeDir: string, files?: FileAccess): Promise<ExtensionCatalog> {
  return discover({ workspaceDir, homeDir, trusted: true, includeUser: false, files: files ?? new WorkspaceScan({ root: workspaceDir }) });
}

/** Restricted-mode counts: resources of each kind that would be active, plugins that would be enabled. */
function countActive(c: ExtensionCatalog): ExtensionCatalog['restrictedCounts'] {
  const active = (items: ReadonlyArray<{ status: string }>) => items.filter((i) => i.status === 'active').length;
  return { skills: active(c.skills), commands: active(c.commands), agents: active(c.agents), plugins: c.plugins.filter((p) => p.enabled).length, mcp: active(c.mcpServers), styles: active(c.styles), lsp: active(c.lspServers) };
}

async function discover(ctx: Discovery): Promise<ExtensionCatalog> {
  const started = performance.now();
  const { workspaceDir, homeDir, trusted, includeUser, files } = ctx;
  const shown = (abs: string) => displayPath(abs, workspaceDir, homeDir);
  const warnings: ExtensionWarning[] = [];

  // plugins and their enabled state
  const discovered = await discoverPlugins({ homeDir, workspaceDir, trusted, includeUser, shown, files });
  warnings.push(...discovered.warnings);
  const layers = await readEnabledLayers(homeDir, workspaceDir, trusted, shown, files);
  warnings.push(...layers.warnings);
  const plugins: PluginRecord[] = [];
  const contributions = new Map<string, PluginResources>();
  for (const c of discovered.plugins) {
    const { enabled, enabledBy } = resolveEnabled(c.name, c.marketplace, c.defaultEnabled, layers.layers, warnings);
    const error = c.check.errors.length > 0;
    const res = error ? null : await collectPluginResources({ name: c.name, root: c.root, manifest: c.manifest, entry: c.entry, source: c.source }, shown, files);
    if (res) contributions.set(c.name, res);
    plugins.push({
      id: `plugin:${c.name}`,
      name: c.name,
      version: c.check.version ?? (typeof c.entry?.version === 'string' ? c.entry.version : null),
      description: c.check.description ?? (typeof c.entry?.description === 'string' ? c.entry.description : null),
      path: shown(c.root),
      manifestPath: c.manifestPath ? shown(c.manifestPath) : null,
      marketplace: c.marketplace,
      source: c.source,
      installScope: c.installScope,
      enabled: enabled && !error,
      enabledBy,
      status: error ? 'error' : enabled ? 'enabled' : 'disabled',
      contributes: { commands: res?.commands.length ?? 0, skills: res?.skills.length ?? 0, agents: res?.agents.length ?? 0, styles: res?.styles.length ?? 0, hooks: res?.hooks ?? 0, mcpServers: 0, lspServers: res?.lspServers.length ?? 0 },
      warnings: [...c.check.errors, ...c.check.warnings, ...(res?.warnings ?? [])],
      root: c.root,
      layer: c.layer,
      manifest: c.manifest,
      entry: c.entry,
    });
  }
  plugins.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const active = plugins.filter((p) => p.enabled);
  const fromPlugins = <K extends 'skills' | 'commands' | 'agents' | 'styles' | 'lspServers'>(key: K): PluginResources[K] => {
    const out: unknown[] = [];
    for (const p of active) out.push(...(contributions.get(p.name)?.[key] ?? []));
    return out as PluginResources[K];
  };

  // native folders
  const skills: SkillRecord[] = [];
  const commands: CommandRecord[] = [];
  const agents: AgentRecord[] = [];
  const styles: StyleRecord[] = [];
  for (const root of nativeRoots('skills', homeDir, workspaceDir, trusted, includeUser)) {
    const r = await scanSkills(root, shown, files);
    skills.push(...r.skills);
    warnings.push(...r.warnings);
  }
  const watchRoots: string[] = [];
  if (trusted) {
    const roots = await nestedSkillRoots(workspaceDir, files);
    const nested = await scanNestedSkills(roots, new Set(skills.filter((s) => s.source === 'project').map((s) => s.id)), shown, files);
    skills.push(...nested.skills);
    warnings.push(...nested.warnings);
    watchRoots.push(...roots.map((r) => r.dir));
  }
  for (const root of nativeRoots('commands', homeDir, workspaceDir, trusted, includeUser)) {
    const r = await scanCommands(root, shown, files);
    commands.push(...r.commands);
    warnings.push(...r.warnings);
  }
  for (const root of nativeRoots('agents', homeDir, workspaceDir, trusted, includeUser)) {
    const r = await scanAgents(root, shown, files);
    agents.push(...r.agents);
    warnings.push(...r.warnings);
  }
  for (const root of nativeRoots('output-styles', homeDir, workspaceDir, trusted, includeUser)) {
    const r = await scanStyles(root, shown, files);
    styles.push(...r.styles);
    warnings.push(...r.warnings);
  }

  // MCP (enabled plugins' servers included) and LSP
  const mcp = await collectMcpServers({ workspaceDir, homeDir, trusted, includeUser, plugins: active, shown, files });
  warnings.push(...mcp.warnings);
  for (const p of plugins) p.contributes.mcpServers = mcp.servers.filter((s) => s.plugin === p.name).length;
  const lsp: LspRecord[] = [];
  if (trusted) {
    const abs = path.join(workspaceDir, '.lsp.json');
    const r = await readLspFile({ source: 'project', plugin: null, path: shown(abs), absolutePath: abs, pluginRoot: null }, files);
    lsp.push(...r.servers);
    warnings.push(...r.warnings);
  }
  lsp.push(...fromPlugins('lspServers'));

  // disabled plugins still show how many MCP servers they would bring
  for (const p of plugins) if (!p.enabled && p.status !== 'error') p.contributes.mcpServers = (await pluginServers(p, { homeDir, shown, files })).servers.length;

  const catalog = {
    kind: 'extensions' as const,
    root: workspaceDir,
    homeDir,
    trusted,
    restrictedCounts: { skills: 0, commands: 0, agents: 0, plugins: 0, mcp: 0, styles: 0, lsp: 0 },
    skills: applyPrecedence([...skills, ...fromPlugins('skills')]),
    commands: applyPrecedence([...commands, ...fromPlugins('commands')]),
    agents: applyPrecedence([...agents, ...fromPlugins('agents')]),
    plugins,
    mcpServers: applyPrecedence(mcp.servers),
    styles: applyStyleLimits(applyPrecedence([...styles, ...fromPlugins('styles')])),
    lspServers: dedupeLsp(lsp),
    warnings,
    watchRoots,
    digest: '',
    builtAt: new Date().toISOString(),
    buildMs: 0,
  };
  const digest = sha256Hex(
    JSON.stringify([
      catalog.trusted,
      ...(['skills', 'commands', 'agents', 'styles', 'mcpServers', 'lspServers'] as const).flatMap((k) => (catalog[k] as ReadonlyArray<{ id: string; status: string; path: string; sha256?: string | null; digest?: string; warnings: unknown[] }>).map((r) => [k, r.id, r.status, r.path, r.sha256 ?? r.digest ?? null, r.warnings.length])),
      ...plugins.map((p) => ['plugin', p.id, p.status, p.path, p.warnings.length]),
      warnings.length,
    ]),
  );
  const buildMs = Math.round((performance.now() - started) * 10) / 10;
  return freeze({ ...catalog, digest, buildMs });
}

/** The immutable catalog: every part frozen, `snapshot()` returning itself. */
function freeze(c: Omit<ExtensionCatalog, 'snapshot'>): ExtensionCatalog {
  const copy = { ...c, snapshot(this: ExtensionCatalog) { return this; } };
  return deepFreeze(copy) as ExtensionCatalog;
}

function dedupeLsp(servers: LspRecord[]): LspRecord[] {
  const seen = new Set<string>();
  return servers.filter((s) => {
    const key = `${s.id}\u0000${s.path}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as Record<string, unknown>)) deepFreeze(v);
  }
  return value;
}
