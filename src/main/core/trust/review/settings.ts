import type { TrustWarning } from '../../../../shared/contract';
import { redirectsModelTraffic } from '../../credentials/modelVariables';
import type { ReviewCollector } from './collector';
import { collectHooks } from './hooks';
import { parseDotenv } from '../../formats/dotenv';
import { parseJsonText } from '../../formats/json';
import { codeLoadingEnvNames } from '../../hooks/codeLoadingEnv';
import { commandRiskWarnings } from './risk';
import type { ReviewEnv } from './resources';
import { collectLspServers, collectMcpServers } from './servers';
import type { SourceText } from './sources';
import { hiddenCharacterWarning } from './text';
import { isRecord, oneLine, str, strings } from '../../formats/text';

/** Keys handled as their own items (not summarised in the `setting` item). */
const OWN_ITEM_KEYS = new Set(['hooks', 'mcpServers', 'mcp_servers', 'lspServers', 'env', 'enabledPlugins', 'extraKnownMarketplaces', '$schema']);

/** Settings keys whose value is a command the agent runs (Claude Code settings.md). */
const HELPER_KEYS = ['apiKeyHelper', 'awsAuthRefresh', 'awsCredentialExport', 'otelHeadersHelper', 'gcpAuthRefresh'];

/** Scalar settings whose values are safe and useful to show. */
const SHOWN_VALUES = new Set(['defaultMode', 'permissionMode', 'model', 'outputStyle', 'approval_policy', 'sandbox_mode', 'default_permissions', 'disableAllHooks', 'enableAllProjectMcpServers']);

/**
 * Reviews a JSON settings file: `.claude/settings(.local).json`, `.blade/settings*.json` /
 * `config.json`, `.gemini/settings.json` (JSON with comments). Emits hook, MCP (only for files the
 * extensions bundle does not read: `bundleReadsMcp` false) and LSP server,
 * env (names only), helper-command, plugin and one summary `setting` item. A file that does not
 * parse becomes one executable `setting` item with a warning naming the line and the fix.
 */
export function reviewSettingsFile(src: SourceText, format: 'claude' | 'blade' | 'gemini', env: ReviewEnv & { bundleReadsMcp: boolean }, out: ReviewCollector): void {
  const path = src.rel;
  if (src.text === null) {
    out.add({ kind: 'setting', path, name: fileName(path), summary: `${label(format)} settings (not inspected)`, executable: true, tool: format, warnings: src.warnings, detail: linkDetail(src) });
    return;
  }
  const hidden = hiddenCharacterWarning(src.text, path);
  const parsed = parseJsonText(src.text, { jsonc: format === 'gemini' });
  if (!parsed.ok) {
    out.add({
      kind: 'setting',
      path,
      line: parsed.line,
      name: fileName(path),
      summary: `${label(format)} settings that do not parse (line ${parsed.line}); agents reject or partly ignore this file`,
      executable: true,
      tool: format,
      warnings: [...src.warnings, { path, line: parsed.line, message: `invalid JSON at line ${parsed.line}, column ${parsed.column}: ${parsed.message}`, fix: parsed.fix }],
      detail: linkDetail(src),
    });
    return;
  }
  const root = parsed.value;
  if (!isRecord(root)) {
    out.add({ kind: 'setting', path, line: 1, name: fileName(path), summary: `${label(format)} settings that are not a JSON object`, executable: false, tool: format, warnings: [...src.warnings, { path, line: 1, message: 'the file is not a JSON object; agents ignore it', fix: 'Wrap the settings in { }.' }] });
    return;
  }
  const lineOf = parsed.lineOf;
  const fileWarnings = [...src.warnings, ...(hidden ? [hidden] : [])];
  if (root.hooks !== undefined) collectHooks(root.hooks, { path, dialect: format, tool: format, lineOf }, out);
  // the workspace's own settings servers are listed from the extensions bundle (one parse, one precedence)
  if (root.mcpServers !== undefined && !env.bundleReadsMcp) collectMcpServers(root.mcpServers, { path, tool: format, lineOf, dir: env.dir, homeDir: env.homeDir }, out);
  if (root.lspServers !== undefined) collectLspServers(root.lspServers, { path, tool: format, lineOf, dir: env.dir, homeDir: env.homeDir }, out);
  if (root.env !== undefined) collectEnv(root.env, path, format, lineOf(root.env) ?? lineOf(root), out);
  if (format === 'gemini' && root.model !== undefined) {
    const line = lineOf(root.model) ?? lineOf(root);
    out.add({ kind: 'setting', path, line, name: 'model', summary: oneLine(`Redirects model traffic: ${describeKey('model', root.model)}`), executable: false, tool: format, warnings: [modelTrafficWarning(path, line, ['model'])] });
  }
  collectHelpers(root, path, format, lineOf, out);
  collectPluginRefs(root, path, format, lineOf, env.projectPlugins ?? new Set(), out);
  collectOtherSettings(root, path, format, lineOf(root), fileWarnings, out, src);
}

/**
 * The review's warning for settings that redirect model traffic (a base URL, a provider, a key):
 * a repository could send the user's key to its own server (CVE-2026-21852). Atrium applies such
 * a definition only after the folder is trusted and the definition approved by digest.
 */
export function modelTrafficWarning(path: string, line: number | null, names: string[]): TrustWarning {
  return {
    path,
    line,
    message: `redirects model traffic: sets ${names.join(', ')}, which would send your prompts and API key to an endpoint the repository chooses`,
    fix: 'Atrium never applies it before you trust the folder, and sends a key there only after you approve this exact definition in the workspace\'s Agent settings (or `atrium providers approve-endpoint`).',
  };
}

/**
 * Adds an `env` item for a dotenv file when it sets variables that redirect model traffic
 * (names only; values never shown). Other variables of the file are not reviewed.
 */
export function reviewDotenv(src: SourceText, out: ReviewCollector): void {
  const vars = parseDotenv(src.text ?? '');
  const names = [...vars.keys()].filter(redirectsModelTraffic);
  if (names.length === 0) return;
  const line = vars.get(names[0])?.line ?? null;
  out.add({
    kind: 'env',
    path: src.rel,
    line,
    name: 'env',
    summary: oneLine(`Redirects model traffic. Sets ${names.join(', ')} for agents that load this file (Gemini CLI)`),
    // sends data, runs nothing: approved separately in Agent settings (see modelTrafficWarning)
    executable: false,
    tool: 'dotenv',
    warnings: [...src.warnings, modelTrafficWarning(src.rel, line, names)],
    detail: { envNames: names },
  });
}

/** Adds the `env` item of a settings block: variable names only, never values. */
export function collectEnv(env: unknown, path: string, tool: string, line: number | null, out: ReviewCollector): void {
  if (!isRecord(env)) {
    out.warn({ path, line, message: '"env" is not an object of variables', fix: 'Write "env": { "NAME": "value" }.' });
    return;
  }
  const names = Object.keys(env);
  if (names.length === 0) return;
  const risky = codeLoadingEnvNames(names);
  const warnings: TrustWarning[] = risky.length
    ? [{ path, line, message: `sets ${risky.join(', ')}, which can make programs the agent starts load other code (values hidden)`, fix: null }]
    : [];
  const traffic = names.filter(redirectsModelTraffic);
  if (traffic.length) warnings.push(modelTrafficWarning(path, line, traffic));
  out.add({
    kind: 'env',
    path,
    line,
    name: 'env',
    summary: oneLine(`${traffic.length ? 'Redirects model traffic. ' : ''}Sets ${names.length} environment variable${names.length === 1 ? '' : 's'}: ${names.join(', ')}`),
    // variables run nothing by themselves; only those that make programs load other code count
    executable: risky.length > 0,
    tool,
    warnings,
    detail: { envNames: names },
  });
}

function collectHelpers(root: Record<string, unknown>, path: string, tool: string, lineOf: (n: unknown) => number | null, out: ReviewCollector): void {
  const helpers: Array<[string, string, number | null]> = [];
  for (const key of HELPER_KEYS) {
    const v = str(root[key]);
    if (v) helpers.push([key, v, lineOf(root)]);
  }
  for (const key of ['statusLine', 'fileSuggestion']) {
    const v = root[key];
    if (isRecord(v) && str(v.command)) helpers.push([key, str(v.command)!, lineOf(v)]);
  }
  for (const [key, command, line] of helpers) {
    out.add({
      kind: 'setting',
      path,
      line,
      name: key,
      summary: oneLine(`${key} runs: ${command}`),
      executable: true,
      tool,
      warnings: commandRiskWarnings(command, path, line),
      detail: { command },
    });
  }
}

/** `enabledPlugins` naming plugins installed elsewhere (those of the workspace are listed from the bundle), and extra marketplaces. */
function collectPluginRefs(root: Record<string, unknown>, path: string, tool: string, lineOf: (n: unknown) => number | null, projectPlugins: ReadonlySet<string>, out: ReviewCollector): void {
  const enabled = root.enabledPlugins;
  if (isRecord(enabled)) {
    for (const [id, on] of Object.entries(enabled)) {
      if (on === false) continue;
      const [name, marketplace] = id.split('@');
      if (projectPlugins.has(name)) continue;
      out.add({
        kind: 'plugin',
        path,
        line: lineOf(enabled),
        name,
        summary: oneLine(`enables plugin ${name}${marketplace ? ` from marketplace ${marketplace}` : ''} (installed outside this folder)`),
        executable: false,
        tool,
        warnings: [{ path, line: lineOf(enabled), message: `the plugin's own hooks and servers live outside this folder and are not listed here`, fix: null }],
        detail: { plugin: id },
      });
    }
  }
  const markets = root.extraKnownMarketplaces;
  if (isRecord(markets)) {
    for (const [name, def] of Object.entries(markets)) {
      const source = isRecord(def) && isRecord(def.source) ? def.source : {};
      const where = str(source.repo) ?? str(source.url) ?? str(source.path) ?? '';
      out.add({
        kind: 'plugin',
        path,
        line: lineOf(def) ?? lineOf(markets),
        name,
        summary: oneLine(`adds plugin marketplace ${name}${where ? ` (${str(source.source) ?? 'source'}: ${where})` : ''}`),
        executable: false,
        tool,
        detail: {},
      });
    }
  }
}

function collectOtherSettings(
  root: Record<string, unknown>,
  path: string,
  format: string,
  line: number | null,
  fileWarnings: TrustWarning[],
  out: ReviewCollector,
  src: SourceText,
): void {
  const keys = Object.keys(root).filter((k) => !OWN_ITEM_KEYS.has(k) && !HELPER_KEYS.includes(k) && k !== 'statusLine' && k !== 'fileSuggestion');
  if (keys.length === 0 && fileWarnings.length === 0) return;
  const warnings = [...fileWarnings, ...settingRisks(root, path, line)];
  out.add({
    kind: 'setting',
    path,
    line,
    name: fileName(path),
    summary: oneLine(keys.length ? `${label(format)} settings: ${keys.map((k) => describeKey(k, root[k])).join(', ')}` : `${label(format)} settings`),
    executable: false,
    tool: format,
    warnings,
    detail: linkDetail(src),
  });
}

/** Describes a key by name, with its value only when it is known to be safe to show. */
export function describeKey(key: string, value: unknown): string {
  if (SHOWN_VALUES.has(key) && (typeof value === 'string' || typeof value === 'boolean')) return `${key}=${String(value)}`;
  if (key === 'permissions' && isRecord(value)) {
    const parts = ['allow', 'deny', 'ask', 'additionalDirectories']
      .filter((k) => Array.isArray(value[k]) && (value[k] as unknown[]).length > 0)
      .map((k) => `${k} ${(value[k] as unknown[]).length}`);
    const mode = str(value.defaultMode);
    if (mode) parts.push(`defaultMode=${mode}`);
    return parts.length ? `permissions (${parts.join(', ')})` : 'permissions';
  }
  return key;
}

/** Risky settings values (permission bypass, blanket approvals, disabled sandbox), as notices. */
export function settingRisks(root: Record<string, unknown>, path: string, line: number | null): TrustWarning[] {
  const out: TrustWarning[] = [];
  const notice = (message: string) => out.push({ path, line, message, fix: null });
  if (root.disableAllHooks === true && /(^|\/)\.claude\/settings(\.local)?\.json$/.test(path)) {
    notice("disableAllHooks: true disables this repository's hooks; your own hooks keep running (in Atrium; Claude Code on its own switches off every hook)");
  }
  const perms = isRecord(root.permissions) ? root.permissions : {};
  const mode = str(perms.defaultMode) ?? str(root.permissionMode);
  if (mode && /bypass|yolo|dangerous/i.test(mode)) notice(`sets permission mode "${mode}": tools run without asking`);
  const allow = strings(perms.allow);
  const broad = allow.filter((r) => /^(Bash|Bash\(\*\)|Bash\(:\*\)|\*|Write|Edit)$/.test(r));
  if (broad.length) notice(`allows ${broad.join(', ')} without asking`);
  if (allow.length) notice(`pre-approves ${allow.length} permission rule${allow.length === 1 ? '' : 's'}: ${allow.slice(0, 5).join(', ')}${allow.length > 5 ? ', ...' : ''}`);
  const dirs = strings(perms.additionalDirectories);
  if (dirs.length) notice(`gives agents access to folders outside the workspace: ${dirs.join(', ')}`);
  if (root.enableAllProjectMcpServers === true) notice('approves every MCP server in .mcp.json without asking');
  const approved = strings(root.enabledMcpjsonServers);
  if (approved.length) notice(`pre-approves MCP servers ${approved.join(', ')}`);
  if (isRecord(root.sandbox) && root.sandbox.enabled === false) notice('turns the sandbox off');
  if (isRecord(root.tools) && root.tools.autoAccept === true) notice('auto-accepts tool calls (tools.autoAccept)');
  return out;
}

/** Display label of a settings dialect. */
export function label(format: string): string {
  return { claude: 'Claude Code', blade: 'Blade', gemini: 'Gemini CLI', codex: 'Codex' }[format] ?? format;
}

function fileName(path: string): string {
  return path.split('/').slice(-2).join('/');
}

function linkDetail(src: SourceText) {
  return src.linkTarget ? { linkTarget: src.linkTarget } : {};
}
