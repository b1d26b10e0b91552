import type { ExtensionWarning } from '../../../../shared/contract/extensions';
import { warn } from '../read';

/** LSP limits (seed §14, "Numbers at a glance"). */
export const LSP_LIMITS = { maxServers: 32, maxExtensions: 64, maxArgs: 128, maxOptionsBytes: 256 * 1024 } as const;

const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const KNOWN = new Set(['command', 'args', 'extensionToLanguage', 'env', 'initializationOptions', 'settings', 'enabled', 'priority', 'startupTimeout', 'shutdownTimeout', 'requestTimeout', 'diagnosticWaitTimeout', 'maxRestarts', 'transport', 'workspaceFolder', 'restartOnCrash']);
const RANGES: Record<string, [number, number]> = {
  priority: [-1000, 1000],
  startupTimeout: [100, 60_000],
  shutdownTimeout: [100, 10_000],
  requestTimeout: [100, 60_000],
  diagnosticWaitTimeout: [0, 5_000],
  maxRestarts: [0, 10],
};

/** One validated LSP server definition. */
export interface ValidatedLsp {
  name: string;
  command: string | null;
  args: string[];
  extensions: string[];
  priority: number;
  enabled: boolean;
  line: number | null;
  /** Problems that make it unusable (status `invalid`). */
  errors: ExtensionWarning[];
  warnings: ExtensionWarning[];
}

/** Where a server map was read from. */
export interface LspContext {
  /** Path shown in warnings. */
  path: string;
  lineOf(node: unknown): number | null;
  /** Absolute plugin root: `${CLAUDE_PLUGIN_ROOT}`/`${BLADE_PLUGIN_ROOT}` are expanded in command and args. */
  pluginRoot?: string | null;
}

/**
 * Validates an LSP server map (`.lsp.json`, plugin `lspServers`; seed §14, formats.md §2.10):
 * `{name: {command, args?, extensionToLanguage (1–64), env?, initializationOptions?, settings?,
 * enabled?, priority (−1000…1000), startupTimeout (100–60 000 ms), shutdownTimeout (100–10 000),
 * requestTimeout (100–60 000), diagnosticWaitTimeout (0–5 000), maxRestarts (0–10), transport
 * (stdio|socket)}`. Names `^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$`; extensions lower-cased with a
 * leading dot. A wrong type or value makes that server invalid (error with line and fix); an
 * unknown key is a warning (Claude Code ignores it, Blade rejects it). A `lspServers` wrapper is
 * accepted. At most 32 servers. Never throws.
 */
export function validateLspServers(input: unknown, ctx: LspContext): { servers: ValidatedLsp[]; warnings: ExtensionWarning[] } {
  const warnings: ExtensionWarning[] = [];
  const map = isRecord(input) && isRecord(input.lspServers) ? input.lspServers : input;
  if (!isRecord(map)) {
    warnings.push(warn(ctx.path, ctx.lineOf(map), 'the LSP server list is not an object of named servers', 'Write { "name": { "command": "...", "extensionToLanguage": { ".ts": "typescript" } } }.'));
    return { servers: [], warnings };
  }
  const entries = Object.entries(map);
  if (entries.length > LSP_LIMITS.maxServers) warnings.push(warn(ctx.path, ctx.lineOf(map), `${entries.length} LSP servers; only the first ${LSP_LIMITS.maxServers} are read`, 'Split them across plugins.'));
  return { servers: entries.slice(0, LSP_LIMITS.maxServers).map(([name, def]) => validateOne(name, def, ctx, ctx.lineOf(def) ?? ctx.lineOf(map))), warnings };
}

function validateOne(name: string, def: unknown, ctx: LspContext, line: number | null): ValidatedLsp {
  const errors: ExtensionWarning[] = [];
  const warnings: ExtensionWarning[] = [];
  const err = (message: string, fix: string) => errors.push(warn(ctx.path, line, `LSP server "${name}": ${message}`, fix));
  const out: ValidatedLsp = { name, command: null, args: [], extensions: [], priority: 0, enabled: true, line, errors, warnings };
  if (!SERVER_NAME.test(name)) err('the name must start with a letter or digit and use only letters, digits, "_", ".", ":", "-" (at most 128)', 'Rename the server.');
  if (!isRecord(def)) {
    err('is not an object', `Write "${name}": { "command": "...", "extensionToLanguage": { ".ext": "language" } }.`);
    return out;
  }
  for (const key of Object.keys(def)) {
    if (!KNOWN.has(key)) warnings.push(warn(ctx.path, ctx.lineOf(def[key]) ?? line, `LSP server "${name}": unknown key "${key}" (Claude Code ignores it; Blade rejects the server)`, 'Remove the key or check its spelling.'));
  }
  const expand = (s: string) => (ctx.pluginRoot ? s.replace(/\$\{(CLAUDE|BLADE)_PLUGIN_ROOT\}/g, ctx.pluginRoot) : s);
  if (typeof def.command === 'string' && def.command.trim()) out.command = expand(def.command);
  else err('"command" is missing or empty', 'Add "command": "<language server executable>".');
  if (def.args !== undefined) {
    if (!Array.isArray(def.args) || !def.args.every((a) => typeof a === 'string')) err('"args" must be an array of strings', 'Write "args": ["--stdio"].');
    else if (def.args.length > LSP_LIMITS.maxArgs) err(`more than ${LSP_LIMITS.maxArgs} arguments`, 'Shorten "args".');
    else out.args = (def.args as string[]).map(expand);
  }
  const e2l = def.extensionToLanguage;
  if (!isRecord(e2l) || Object.keys(e2l).length === 0) err('"extensionToLanguage" is required (1 to 64 entries)', 'Add "extensionToLanguage": { ".ext": "language" }.');
  else if (Object.keys(e2l).length > LSP_LIMITS.maxExtensions) err(`"extensionToLanguage" has more than ${LSP_LIMITS.maxExtensions} entries`, 'Split the server.');
  else {
    for (const [ext, lang] of Object.entries(e2l)) {
      if (typeof lang !== 'string' || !lang) err(`the language of "${ext}" must be a non-empty string`, `Write "${ext}": "language-id".`);
      if (!ext.startsWith('.')) warnings.push(warn(ctx.path, line, `LSP server "${name}": extension "${ext}" has no leading dot; read as ".${ext.toLowerCase()}"`, `Write ".${ext.toLowerCase()}".`));
    }
    out.extensions = [...new Set(Object.keys(e2l).map((e) => (e.startsWith('.') ? e : `.${e}`).toLowerCase()))];
  }
  if (def.env !== undefined) {
    if (!isRecord(def.env) || !Object.values(def.env).every((v) => typeof v === 'string')) err('"env" must be an object of string values', 'Write "env": { "NAME": "value" }.');
    else for (const k of Object.keys(def.env)) if (!ENV_NAME.test(k)) err(`environment variable name "${k}" is invalid`, 'Use letters, digits and "_", not starting with a digit.');
  }
  for (const key of ['initializationOptions', 'settings']) {
    if (def[key] === undefined) continue;
    if (!isRecord(def[key])) err(`"${key}" must be an object`, `Write "${key}": { }.`);
    else if (Buffer.byteLength(JSON.stringify(def[key]), 'utf8') > LSP_LIMITS.maxOptionsBytes) err(`"${key}" is larger than 256 KiB`, 'Shorten it.');
  }
  if (def.enabled !== undefined && typeof def.enabled !== 'boolean') err('"enabled" must be true or false', 'Write "enabled": true.');
  else if (def.enabled === false) out.enabled = false;
  if (def.transport !== undefined && def.transport !== 'stdio' && def.transport !== 'socket') err('"transport" must be "stdio" or "socket"', 'Write "transport": "stdio".');
  for (const [key, [min, max]] of Object.entries(RANGES)) {
    const v = def[key];
    if (v === undefined) continue;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) err(`"${key}" must be a whole number from ${min} to ${max}`, `Write "${key}": ${Math.min(max, Math.max(min, typeof v === 'number' ? Math.round(v) : min))}.`);
    else if (key === 'priority') out.priority = v;
  }
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
