import path from 'node:path';
import type { Hook, HookCounts, HookFormat, HookListing, HookState, McpServer, TrustWarning } from '../../../shared/contract';
import { commandLine, isRecord, oneLine } from '../formats/text';
import { canonicalJson, digestOf, shortId } from '../formats/canonicalJson';
import { commandDangers, envDangers, scriptBodyDangers, scriptDangers, uncoveredDangers, urlDangers } from './danger';
import { atriumEventOf } from './events';
import { hooksObjectOf, loadSource, type LoadedSource } from './load';
import { readMcpServers, type McpDefinition } from './mcp';
import { parseHooksObject, type HandlerFields, type ParsedHandler } from './parse';
import { pluginGate, type HookPluginState, type PluginOff } from './pluginGate';
import type { ApprovalRow } from './repository';
import { coverScripts, digestScripts, type HashedScript, type ScriptContext } from './scripts';
import { projectSources, userSources, type PluginDiscovery, type SourceFile } from './sources';
import { effectiveTimeoutMs } from './timeouts';
import { hostNeedingAllowance } from './http';
import type { ExpandedServer } from '../formats/envExpand';
import { expandedDefinition, withheldWarnings } from '../formats/mcpServers';
import { maskUrlSecrets } from '../formats/secrets';

/** Most handlers listed (and so approvable and run) per source file; a file with more gets a warning. Bounds listing time and memory. */
export const MAX_HANDLERS_PER_FILE = 1000;

/** A hook with what running it needs (engine-internal). */
export interface HookEntry {
  hook: Hook;
  fields: HandlerFields;
  format: HookFormat;
  matcherRaw: unknown;
  src: SourceFile;
  /** The trust root approvals of this hook are stored under (the home directory for user hooks). */
  approvalRoot: string;
  /** Absolute paths the command's coverage looked at (see `coverScripts`), for watching. */
  candidates: string[];
  scripts: HashedScript[];
  /** Short description for the audit history. */
  label: string;
  /** Why it is disabled, or null. */
  disabledBy: string | null;
}

/** An MCP server with its unmasked definition (engine-internal). */
export interface McpEntry {
  server: McpServer;
  def: McpDefinition;
  approvalRoot: string;
  label: string;
  /** Files the server command's coverage looked at, for watching. */
  candidates: string[];
  /** The definition expanded from {@link ListingInput.env} (unmasked), or null when it reads no variable. */
  expanded: ExpandedServer | null;
}

/** What {@link buildListing} needs. */
export interface ListingInput {
  /** Canonical folder (the execution directory, `$CLAUDE_PROJECT_DIR`). */
  path: string;
  trustRoot: string;
  workspaceId: string | null;
  /** Home directory user sources are read from. */
  homeDir: string;
  /** Canonical home: the trust root of user-level approvals. */
  home: string;
  /** True when the trust gate refuses project resources. */
  restricted: boolean;
  /** List project hooks even when restricted (marked `heldBack`). */
  includeHeldBack: boolean;
  approvals(roots: string[]): Map<string, ApprovalRow>;
  plugins(dir: string): Promise<PluginDiscovery>;
  /** The workspace plugins' enabled state from the extensions code (passed in by the engine): hooks and servers of plugins that are off get state `disabled`. */
  pluginStates(dir: string): Promise<readonly HookPluginState[]>;
  httpAllowedHosts: string[];
  /** The environment MCP server definitions are expanded from (the one agents inherit). */
  env: Readonly<Record<string, string | undefined>>;
}

/** A listing plus the internals the service runs and watches from. */
export interface BuiltListing {
  listing: HookListing;
  hooks: HookEntry[];
  servers: McpEntry[];
  /** Every file whose change may change the listing (sources, scripts). */
  watchFiles: string[];
}

/**
 * Builds the hook listing of a folder: reads every source (user files always; project,
 * local and plugin files only when the trust gate allows, or `includeHeldBack`), parses each format
 * faithfully, hashes the scripts each command runs, computes digests and states against the
 * approvals, resolves `disableAllHooks` (Claude: local > project > user), Blade's `hooks.enabled`
 * and Gemini's `hooksConfig`, and lists repository MCP servers. Never throws for bad input.
 */
export async function buildListing(input: ListingInput): Promise<BuiltListing> {
  const showProject = !input.restricted || input.includeHeldBack;
  const sources: SourceFile[] = userSources(input.homeDir);
  let discovery: PluginDiscovery = { plugins: [], hookSources: [] };
  let gate: (pluginRoot: string, name: string) => PluginOff | null = () => null;
  if (showProject) {
    discovery = await input.plugins(input.path);
    if (discovery.plugins.length) gate = pluginGate(await input.pluginStates(input.path));
    const userAbs = new Set(sources.map((s) => s.abs));
    for (const s of [...projectSources(input.path), ...discovery.hookSources]) if (!userAbs.has(s.abs)) sources.push(s);
  }
  const loaded = await Promise.all(sources.map(loadSource));
  const warnings: TrustWarning[] = loaded.flatMap((l) => l.warnings);
  const settings = resolveSettings(loaded);

  warnings.push(...bothCodexForms(loaded));

  const parsed: ParsedHandler[] = [];
  for (const l of loaded) {
    const hooks = hooksObjectOf(l);
    if (hooks === undefined) continue;
    const r = parseHooksObject(hooks, { src: l.src, shownPath: l.shownPath, lineOf: l.lineOf });
    for (let i = 0; i < r.handlers.length && i < MAX_HANDLERS_PER_FILE; i++) parsed.push(r.handlers[i]);
    if (r.handlers.length > MAX_HANDLERS_PER_FILE) {
      const n = r.handlers.length.toLocaleString('en-US');
      warnings.push({ path: l.shownPath, line: r.handlers[MAX_HANDLERS_PER_FILE].line, message: `defines ${n} hook handlers: Atrium lists, approves and runs only the first ${MAX_HANDLERS_PER_FILE.toLocaleString('en-US')} (in file order); the others from this line on never run`, fix: 'Remove the handlers you do not need (no real configuration has this many), or split them across plugins.' });
    }
    warnings.push(...r.warnings.slice(0, MAX_HANDLERS_PER_FILE));
  }
  const roots = [...new Set([input.home, input.trustRoot])];
  const approvals = input.approvals(roots);
  const offOf = (src: { pluginRoot: string | null; plugin: string | null }) => (src.pluginRoot ? gate(src.pluginRoot, src.plugin ?? path.basename(src.pluginRoot)) : null);
  const hooks = await Promise.all(parsed.map((p) => entryOf(p, input, settings, approvals, offOf(p.src))));

  const servers: McpEntry[] = [];
  if (showProject) {
    const mcp = await readMcpServers(input.path, input.homeDir, discovery.plugins);
    warnings.push(...mcp.warnings);
    servers.push(...(await Promise.all(mcp.servers.map((def) => mcpEntryOf(def, input, approvals, offOf({ pluginRoot: def.pluginRoot, plugin: def.source.plugin ?? null }))))));
  }
  const counts = Object.fromEntries(['approved', 'modified', 'unapproved', 'invalid', 'disabled'].map((s) => [s, 0])) as HookCounts;
  for (const h of hooks) counts[h.hook.state]++;
  for (const s of servers) counts[s.server.state]++;
  const watchFiles = [...new Set([...sources.map((s) => s.abs), ...hooks.flatMap((h) => h.candidates), ...servers.flatMap((s) => s.candidates)])];
  return {
    listing: {
      path: input.path,
      trustRoot: input.trustRoot,
      workspaceId: input.workspaceId,
      restricted: input.restricted,
      disableAllHooks: settings.disableAllHooks,
      hooks: hooks.map((h) => h.hook),
      mcpServers: servers.map((s) => s.server),
      warnings,
      counts,
      httpAllowedHosts: input.httpAllowedHosts,
    },
    hooks,
    servers,
    watchFiles,
  };
}

interface ResolvedSettings {
  /** What the listing reports: the user's `true` when set, else the repository's resolved value, else the user's `false`. */
  disableAllHooks: { value: boolean; file: string; scope: 'user' | 'project' } | null;
  /** `disableAllHooks` of the user's own `~/.claude/settings.json`: `true` switches off every Claude-format hook. */
  userDisable: { value: boolean; file: string } | null;
  /** The repository's `disableAllHooks` (local > project): `true` switches off the repository's hooks only. */
  projectDisable: { value: boolean; file: string } | null;
  bladeEnabled: boolean;
  bladeEnabledFile: string | null;
  bladeDefaultTimeout: number | undefined;
  geminiDisabled: { file: string } | null;
  geminiDisabledNames: Set<string>;
}

const SCOPE_RANK: Record<string, number> = { user: 0, project: 1, plugin: 1, local: 2 };

/** Codex merges a layer's `hooks.json` with inline `[hooks]` in its `config.toml`, warning about it (formats.md §1.4); so do we. */
function bothCodexForms(loaded: readonly LoadedSource[]): TrustWarning[] {
  const out: TrustWarning[] = [];
  for (const inline of loaded.filter((l) => l.src.kind === 'codexConfig' && hooksObjectOf(l) !== undefined)) {
    const file = loaded.find((l) => l.src.format === 'codex' && l.src.kind === 'hooksFile' && l.src.scope === inline.src.scope && hooksObjectOf(l) !== undefined);
    if (file) out.push({ path: inline.shownPath, line: null, message: `defines hooks inline and ${file.shownPath} defines more: Codex runs both sets`, fix: 'Keep the hooks of this layer in one place (hooks.json or config.toml).' });
  }
  return out;
}

/** `disableAllHooks` per scope (see {@link disabledReason}), Blade `hooks.enabled`/`defaultTimeout`, Gemini `hooksConfig`. */
function resolveSettings(loaded: readonly LoadedSource[]): ResolvedSettings {
  const byRank = [...loaded].filter((l) => l.root && l.src.kind === 'settings').sort((a, b) => SCOPE_RANK[a.src.scope] - SCOPE_RANK[b.src.scope]);
  const out: ResolvedSettings = { disableAllHooks: null, userDisable: null, projectDisable: null, bladeEnabled: false, bladeEnabledFile: null, bladeDefaultTimeout: undefined, geminiDisabled: null, geminiDisabledNames: new Set() };
  for (const l of byRank) {
    const root = l.root!;
    if (l.src.format === 'claude' && typeof root.disableAllHooks === 'boolean') {
      if (l.src.scope === 'user') out.userDisable = { value: root.disableAllHooks, file: l.shownPath };
      else out.projectDisable = { value: root.disableAllHooks, file: l.shownPath };
    }
    if (l.src.format === 'blade' && isRecord(root.hooks)) {
      if (typeof root.hooks.enabled === 'boolean') {
        out.bladeEnabled = root.hooks.enabled;
        out.bladeEnabledFile = l.shownPath;
      }
      if (typeof root.hooks.defaultTimeout === 'number' && root.hooks.defaultTimeout > 0) out.bladeDefaultTimeout = root.hooks.defaultTimeout;
    }
    if (l.src.format === 'gemini') {
      const cfg = isRecord(root.hooksConfig) ? root.hooksConfig : isRecord(root.hooks) ? root.hooks : {};
      if (cfg.enabled === false) out.geminiDisabled = { file: l.shownPath };
      else if (cfg.enabled === true) out.geminiDisabled = null;
      if (Array.isArray(cfg.disabled)) for (const n of cfg.disabled) if (typeof n === 'string') out.geminiDisabledNames.add(n);
    }
  }
  const u = out.userDisable;
  const p = out.projectDisable;
  out.disableAllHooks = u?.value ? { ...u, scope: 'user' } : p ? { ...p, scope: 'project' } : u ? { ...u, scope: 'user' } : null;
  return out;
}

/**
 * Why a hook is switched off by its configuration, or null. `disableAllHooks` is scoped by who
 * wrote it: the user's own `~/.claude/settings.json` switches off every Claude-format (and plugin)
 * hook, a repository's `.claude/settings(.local).json` (local > project) only the repository's
 * project, local and plugin hooks: a repository can never silence the user's own hooks (Claude Code
 * 2.x applies the merged value to all). The repository's `false` does not undo the user's `true`.
 */
function disabledReason(p: ParsedHandler, s: ResolvedSettings): string | null {
  const f = p.src.format;
  if ((f === 'claude' || f === 'plugin') && s.userDisable?.value) return `"disableAllHooks": true in ${s.userDisable.file}`;
  if ((f === 'claude' || f === 'plugin') && p.src.scope !== 'user' && s.projectDisable?.value) return `"disableAllHooks": true in ${s.projectDisable.file} (it switches off this repository's hooks; your own keep running)`;
  if (f === 'blade' && !s.bladeEnabled) return s.bladeEnabledFile ? `"hooks.enabled": false in ${s.bladeEnabledFile}` : 'Blade runs hooks only when "hooks.enabled" is true (it is not set)';
  if (f === 'gemini' && s.geminiDisabled) return `hooks are disabled in ${s.geminiDisabled.file}`;
  if (f === 'gemini' && p.fields.name && s.geminiDisabledNames.has(p.fields.name)) return `"${p.fields.name}" is listed in hooksConfig.disabled`;
  return null;
}

async function entryOf(p: ParsedHandler, input: ListingInput, settings: ResolvedSettings, approvals: Map<string, ApprovalRow>, pluginOff: PluginOff | null): Promise<HookEntry> {
  const f = p.fields;
  const ctx: ScriptContext = { projectDir: input.path, homeDir: input.homeDir, pluginRoot: p.src.pluginRoot };
  const { scripts, uncovered, candidates } = await coverScripts(f, ctx);
  const source = { scope: p.src.scope, file: p.src.file, plugin: p.src.plugin ?? undefined };
  const definition = {
    event: p.event,
    matcher: p.matcher,
    type: f.type,
    command: f.command,
    url: f.url,
    prompt: f.prompt,
    args: f.args,
    timeout: f.timeout,
    if: f.if,
    shell: f.shell,
    async: f.async,
    env: f.env,
    // fields beyond the common ones that change what the handler does
    headers: f.headers,
    allowedEnvVars: f.allowedEnvVars,
    server: f.server,
    tool: f.tool,
    input: f.input,
    model: f.model,
    name: f.name,
    source,
    scripts: digestScripts(scripts),
  };
  const digest = digestOf(definition);
  const key = JSON.stringify([p.src.scope, p.src.file, p.src.plugin, p.event, canonicalJson(p.matcher ?? null), p.groupIndex, p.handlerIndex]);
  const approvalRoot = p.src.scope === 'user' ? input.home : input.trustRoot;
  const approval = approvals.get(`${approvalRoot}\0${key}`) ?? null;
  const disabledBy = disabledReason(p, settings) ?? pluginOff?.reason ?? null;
  const state: HookState = p.invalid.length ? 'invalid' : disabledBy ? 'disabled' : approval?.digest === digest ? 'approved' : approval ? 'modified' : 'unapproved';
  const literal = f.command !== undefined ? commandLine(f.command, f.args ?? []) : null;
  const runsOn = atriumEventOf(p.src.format, p.event);
  const warnings = [...p.invalid, ...p.warnings];
  if (disabledBy) warnings.push({ path: p.src.scope === 'user' ? `~/${p.src.file}` : p.src.file, line: p.line, message: `disabled: ${disabledBy}`, fix: disabledBy === pluginOff?.reason ? pluginOff.fix : null });
  if (pluginOff && disabledBy !== pluginOff.reason) warnings.push({ path: p.src.file, line: p.line, message: `disabled: ${pluginOff.reason}`, fix: pluginOff.fix });
  if (!runsOn && !p.invalid.length) warnings.push({ path: p.src.scope === 'user' ? `~/${p.src.file}` : p.src.file, line: p.line, message: `Atrium does not fire ${p.event} yet; this hook is listed and approvable but does not run`, fix: null });
  const supported = f.type === 'command' || f.type === 'http';
  const matcherText = typeof p.matcher === 'string' ? (p.matcher === '' ? null : p.matcher) : isRecord(p.matcher) ? renderObjectMatcher(p.matcher) : p.matcher === undefined ? null : JSON.stringify(p.matcher);
  const danger = [
    ...(literal ? commandDangers(literal, { projectDir: input.path, homeDir: input.homeDir }) : []),
    ...scriptDangers(scripts, p.src.scope),
    ...(await scriptBodyDangers(scripts, { projectDir: input.path, homeDir: input.homeDir })),
    ...(f.url ? urlDangers(f.url) : []),
    ...uncoveredDangers(uncovered),
    ...(f.env ? envDangers(f.env, 'hook') : []),
  ];
  const hook: Hook = {
    id: shortId('h_', key),
    key,
    source: { scope: p.src.scope, file: p.src.file, plugin: p.src.plugin, format: p.src.format, absolutePath: p.src.abs },
    line: p.line,
    event: p.event,
    runsOn,
    matcher: matcherText,
    if: f.if ?? null,
    type: f.type,
    command: literal,
    url: f.url ?? null,
    refusedHost: f.type === 'http' && f.url ? hostNeedingAllowance(f.url, input.httpAllowedHosts) : null,
    prompt: f.prompt ?? null,
    args: f.args ?? null,
    timeout: f.timeout ?? null,
    timeoutMs: effectiveTimeoutMs(p.src.format, f, p.event, settings.bladeDefaultTimeout),
    name: f.name ?? null,
    digest,
    definition: JSON.parse(canonicalJson(definition)) as Record<string, unknown>,
    scripts: scripts.map(({ abs: _abs, copy: _copy, capped: _capped, ...s }) => s),
    uncovered,
    state,
    approval: approval ? { digest: approval.digest, approvedAt: approval.approvedAt, approvedBy: approval.approvedBy } : null,
    danger,
    warnings,
    supported,
    heldBack: input.restricted && p.src.scope !== 'user',
  };
  const what = literal ?? f.url ?? f.prompt ?? (f.server ? `${f.server}/${f.tool ?? ''}` : f.type);
  const label = oneLine(`${p.event}${matcherText ? ` [${matcherText}]` : ''}: ${what}`);
  return { hook, fields: f, format: p.src.format, matcherRaw: p.matcher, src: p.src, approvalRoot, candidates, scripts, label, disabledBy };
}

function renderObjectMatcher(m: Record<string, unknown>): string | null {
  const parts = Object.entries(m).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : typeof v === 'string' ? v : JSON.stringify(v)}`);
  return parts.length ? parts.join(' ') : null;
}

/**
 * A server's entry; a server of a plugin that is off is `disabled` (it never starts), with a warning
 * saying how to turn the plugin on. The command and args get the same coverage as a hook's command
 * (exec form, resolved from the server's `cwd`, else the project folder): the files it runs are
 * hashed into its digest (a server without such files keeps the digest of its definition alone),
 * and package runners and moving specs are listed as not covered.
 */
async function mcpEntryOf(base: McpDefinition, input: ListingInput, approvals: Map<string, ApprovalRow>, pluginOff: PluginOff | null): Promise<McpEntry> {
  const ctx: ScriptContext = { projectDir: input.path, homeDir: input.homeDir, pluginRoot: base.pluginRoot, cwd: base.cwd ? path.resolve(input.path, base.cwd) : undefined };
  const covered = base.command !== null && !base.invalid.length ? await coverScripts({ type: 'command', command: base.command, args: base.args, env: base.env }, ctx) : { scripts: [], uncovered: [], candidates: [] };
  const digest = covered.scripts.length ? digestOf({ ...base.definition, scripts: digestScripts(covered.scripts) }) : base.digest;
  const def: McpDefinition = { ...base, digest };
  const approval = approvals.get(`${input.trustRoot}\0${def.key}`) ?? null;
  const state = def.invalid.length ? 'invalid' : pluginOff ? 'disabled' : approval?.digest === def.digest ? 'approved' : approval ? 'modified' : 'unapproved';
  const off = pluginOff ? [{ path: def.source.file, line: def.line, message: `disabled: ${pluginOff.reason}`, fix: pluginOff.fix }] : [];
  const shown = def.command !== null ? commandLine(def.command, def.maskedArgs) : (def.url !== null ? maskUrlSecrets(def.url) : '(nothing to start)');
  const expanded = expandedDefinition(def, input.env, input.path, input.homeDir);
  return {
    def,
    approvalRoot: input.trustRoot,
    label: oneLine(`MCP ${def.name}: ${shown}`),
    candidates: covered.candidates,
    expanded,
    server: {
      id: def.id,
      key: def.key,
      name: def.name,
      source: def.source,
      line: def.line,
      transport: def.transport,
      command: def.command,
      args: def.maskedArgs,
      cwd: def.cwd,
      url: def.url === null ? null : maskUrlSecrets(def.url),
      env: def.maskedEnv,
      headers: def.maskedHeaders,
      digest: def.digest,
      definition: def.maskedDefinition,
      scripts: covered.scripts.map(({ abs: _abs, copy: _copy, capped: _capped, ...s }) => s),
      uncovered: covered.uncovered,
      state,
      approval: approval ? { digest: approval.digest, approvedAt: approval.approvedAt, approvedBy: approval.approvedBy } : null,
      danger: [...def.danger, ...(await scriptBodyDangers(covered.scripts, { projectDir: input.path, homeDir: input.homeDir })), ...uncoveredDangers(covered.uncovered)],
      warnings: [...def.invalid, ...off, ...def.warnings, ...withheldWarnings(def, expanded)],
      heldBack: input.restricted,
      variables: def.variables,
      expansion: expanded ? { dialect: def.dialect, ...expanded.masked, missing: expanded.missing, unresolvable: expanded.unresolvable, blanked: expanded.blanked } : null,
    },
  };
}
