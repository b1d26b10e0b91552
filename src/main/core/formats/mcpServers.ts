import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { HookSource, TrustWarning } from '../../../shared/contract';
import { checkedText } from './checkedText';
import { parseJsonText } from './json';
import { isRecord } from './text';
import { parseTomlText } from './toml';
import { canonicalJson, digestOf, shortId } from './canonicalJson';
import { maskArgs, maskUrlSecrets, maskValues } from './secrets';
import { credentialReferences, expandServer, mcpExpansionDialect, serverReferences, type ExpandedServer, type ExpansionDialect, type VariableReference } from './envExpand';

/** Reads a whole file's bytes (structurally a build's scan, `files/scan.ts`; rejects like `fs.promises.readFile`). */
export interface BytesReader {
  readBytes(absolute: string): Promise<Uint8Array>;
}

/** Largest MCP server file read (bytes; the hook listing's source limit): a bigger one is skipped. */
export const MAX_MCP_FILE_BYTES = 4 * 1024 * 1024;

/** A plugin inside the workspace whose `.mcp.json` and manifest `mcpServers` file may declare servers. */
export interface McpPluginFiles {
  /** Plugin root, workspace-relative POSIX (`''` = the workspace itself). */
  root: string;
  name: string;
  /** The parsed manifest object, or null. */
  manifest: Record<string, unknown> | null;
}

/**
 * One MCP server definition read from a file or a server map, with its digest (secrets unmasked:
 * engine-internal). The same parse serves MCP approval (hooks/, which adds danger checks), the
 * extensions bundle and the trust review, so all three show one definition and one digest.
 */
export interface McpServerDefinition {
  id: string;
  key: string;
  name: string;
  source: HookSource;
  line: number | null;
  transport: string;
  command: string | null;
  args: string[];
  cwd: string | null;
  url: string | null;
  env: Record<string, string>;
  headers: Record<string, string>;
  digest: string;
  /** The canonical object the digest covers (secrets included). */
  definition: Record<string, unknown>;
  /** The same with secret-looking values masked, for display. */
  maskedDefinition: Record<string, unknown>;
  maskedEnv: Record<string, string>;
  maskedHeaders: Record<string, string>;
  maskedArgs: string[];
  invalid: TrustWarning[];
  warnings: TrustWarning[];
  /** Absolute folder of the plugin that declares it, or null (decides whether the plugin is on). */
  pluginRoot: string | null;
  /** Whose variable syntax the file uses (see `formats/envExpand.ts`); `none` passes values as written. */
  dialect: ExpansionDialect;
  /**
   * The variables the definition reads, as written (each reference once): shown in the trust review and
   * the Hooks tab so a server that puts `${AWS_SECRET_ACCESS_KEY}` into a URL is a visible fact. The
   * digest covers the definition as written, never the expanded values.
   */
  variables: VariableReference[];
}

/** A repository file that may declare MCP servers: where the map sits and how to parse the file. */
interface McpFileSpec {
  file: string;
  key: 'mcpServers' | 'servers' | 'mcp_servers' | 'either';
  format: 'json' | 'jsonc' | 'toml';
  plugin: McpPluginFiles | null;
}

/** MCP server files of a project (the trust review's list: Claude, Cursor, VS Code, Gemini, Blade, Codex, plugins). */
function mcpFiles(plugins: readonly McpPluginFiles[]): McpFileSpec[] {
  const files: McpFileSpec[] = [
    { file: '.mcp.json', key: 'either', format: 'json', plugin: null },
    { file: '.claude/settings.json', key: 'mcpServers', format: 'json', plugin: null },
    { file: '.claude/settings.local.json', key: 'mcpServers', format: 'json', plugin: null },
    { file: '.cursor/mcp.json', key: 'mcpServers', format: 'json', plugin: null },
    { file: '.vscode/mcp.json', key: 'servers', format: 'jsonc', plugin: null },
    { file: '.gemini/settings.json', key: 'mcpServers', format: 'jsonc', plugin: null },
    { file: '.blade/settings.json', key: 'mcpServers', format: 'json', plugin: null },
    { file: '.blade/settings.local.json', key: 'mcpServers', format: 'json', plugin: null },
    { file: '.blade/config.json', key: 'mcpServers', format: 'json', plugin: null },
    { file: '.codex/config.toml', key: 'mcp_servers', format: 'toml', plugin: null },
  ];
  for (const p of plugins) {
    if (p.root === '') continue; // the workspace's own .mcp.json is listed above
    files.push({ file: path.posix.join(p.root, '.mcp.json'), key: 'either', format: 'json', plugin: p });
    if (typeof p.manifest?.mcpServers === 'string') {
      const rel = path.posix.normalize(path.posix.join(p.root, p.manifest.mcpServers));
      if (!rel.startsWith('..')) files.push({ file: rel, key: 'either', format: 'json', plugin: p });
    }
  }
  return files;
}

/** True for MCP files the hook listing also reads as hook sources (their file warnings come from there). */
function isHookSourceFile(file: string): boolean {
  return /^\.(claude|blade)\/settings(\.local)?\.json$|^\.gemini\/settings\.json$|^\.codex\/config\.toml$/.test(file);
}

/**
 * Every MCP server the files under `dir` declare (formats.md §2.7), each with
 * the digest of `{name, transport, command, args, cwd, url, env, headers, source}` (values
 * included; masked only for display). Malformed files and entries become warnings naming the file
 * and line. `dir` is absolute (a workspace or the home directory). Files are read through `reader`
 * (a build's scan, so each file is read once per build; default: directly). Never throws.
 */
export async function readMcpServerDefinitions(dir: string, plugins: readonly McpPluginFiles[], reader: BytesReader = { readBytes: (abs) => fs.readFile(abs) }): Promise<{ servers: McpServerDefinition[]; warnings: TrustWarning[] }> {
  const servers: McpServerDefinition[] = [];
  const warnings: TrustWarning[] = [];
  const seen = new Set<string>();
  for (const spec of mcpFiles(plugins)) {
    if (seen.has(spec.file)) continue;
    seen.add(spec.file);
    const abs = path.join(dir, spec.file);
    let text: string;
    try {
      const st = await fs.stat(abs);
      if (!st.isFile() || st.size > MAX_MCP_FILE_BYTES) continue;
      const checked = checkedText(await reader.readBytes(abs), spec.format);
      text = checked.text;
      // hook source files (settings, config.toml) are checked by the hook listing already
      if (!isHookSourceFile(spec.file)) warnings.push(...checked.warnings.map((w) => ({ path: spec.file, ...w })));
    } catch {
      continue;
    }
    let root: unknown;
    let lineOf: (n: unknown) => number | null = () => null;
    if (spec.format === 'toml') {
      const parsed = parseTomlText(text);
      if (!parsed.ok) {
        warnings.push({ path: spec.file, line: null, message: `invalid TOML: ${parsed.message}; its MCP servers cannot start`, fix: 'Fix the syntax.' });
        continue;
      }
      root = parsed.value;
    } else {
      const parsed = parseJsonText(text, { jsonc: spec.format === 'jsonc' });
      if (!parsed.ok) {
        // settings files are reported by the hook listing already; report only pure MCP files here
        if (/mcp\.json$/.test(spec.file)) warnings.push({ path: spec.file, line: parsed.line, message: `invalid JSON at line ${parsed.line}, column ${parsed.column}: ${parsed.message}; its MCP servers cannot start`, fix: parsed.fix });
        continue;
      }
      root = parsed.value;
      lineOf = parsed.lineOf;
    }
    if (!isRecord(root)) continue;
    const map = spec.key === 'either' ? (root.mcpServers !== undefined ? root.mcpServers : spec.file.endsWith('.mcp.json') ? root : undefined) : root[spec.key];
    if (map === undefined) continue;
    const source: HookSource = { scope: spec.plugin ? 'plugin' : spec.file.includes('.local.') ? 'local' : 'project', file: spec.file, plugin: spec.plugin?.name ?? null, format: spec.plugin ? 'plugin' : 'claude', absolutePath: abs };
    if (!isRecord(map)) {
      warnings.push({ path: spec.file, line: lineOf(map) ?? lineOf(root), message: 'the MCP server list is not an object of named servers', fix: 'Write { "mcpServers": { "name": { "command": "...", "args": [] } } }.' });
      continue;
    }
    const pluginRoot = spec.plugin ? path.join(dir, spec.plugin.root) : null;
    for (const [name, def] of Object.entries(map)) servers.push({ ...serverOf(name, def, source, lineOf(def) ?? lineOf(map)), pluginRoot });
  }
  return { servers, warnings };
}

function serverOf(name: string, def: unknown, source: HookSource, line: number | null): McpServerDefinition {
  const invalid: TrustWarning[] = [];
  const warnings: TrustWarning[] = [];
  const w = (message: string, fix: string | null): TrustWarning => ({ path: source.file, line, message, fix });
  const d = isRecord(def) ? def : {};
  if (!isRecord(def)) invalid.push(w(`MCP server "${name}" is not an object`, `Write "${name}": { "command": "..." }.`));
  const s = (v: unknown) => (typeof v === 'string' ? v : null);
  const stringMap = (v: unknown, field: string): Record<string, string> => {
    if (v === undefined) return {};
    if (isRecord(v) && Object.values(v).every((x) => typeof x === 'string')) return v as Record<string, string>;
    invalid.push(w(`"${field}" of MCP server "${name}" must be an object of string values`, `Write "${field}": { "NAME": "value" }.`));
    return {};
  };
  const command = s(d.command);
  let args: string[] = [];
  if (d.args !== undefined) {
    if (Array.isArray(d.args) && d.args.every((a) => typeof a === 'string')) args = d.args as string[];
    else invalid.push(w(`"args" of MCP server "${name}" must be an array of strings`, 'Write "args": ["--flag", "value"].'));
  }
  const url = s(d.url) ?? s(d.serverUrl) ?? s(d.httpUrl);
  const transport = s(d.type) ?? s(d.transport) ?? (command !== null ? 'stdio' : url !== null ? 'http' : 'unknown');
  const env = stringMap(d.env, 'env');
  const headers = stringMap(d.headers ?? d.http_headers, 'headers');
  const cwd = s(d.cwd);
  if (isRecord(def) && command === null && url === null) invalid.push(w(`MCP server "${name}" has neither "command" nor "url"; it cannot start`, 'Add "command" (local server) or "url" (remote server).'));
  if (typeof d.headersHelper === 'string') warnings.push(w(`runs a headersHelper command: ${d.headersHelper}`, null));
  const definition = { name, transport, command: command ?? undefined, args, cwd: cwd ?? undefined, url: url ?? undefined, env, headers, source: { scope: source.scope, file: source.file, plugin: source.plugin ?? undefined } };
  const key = JSON.stringify([source.scope, source.file, source.plugin, 'mcp', name]);
  const maskedEnv = maskValues(env);
  const maskedHeaders = maskValues(headers);
  const maskedArgs = maskArgs(args);
  const dialect = mcpExpansionDialect(source.file, source.format);
  for (const b of credentialReferences({ command, args, url, env, headers }, dialect))
    warnings.push(w(`MCP server "${name}" reads ${b.name}, which is passed empty: ${b.why}`, `If the server needs a credential, give it a variable of its own (not ${b.name}) and set that in the environment Atrium starts from.`));
  return {
    id: shortId('m_', key),
    key,
    name,
    source,
    line,
    transport,
    command,
    args,
    cwd,
    url,
    env,
    headers,
    digest: digestOf(definition),
    definition: JSON.parse(canonicalJson(definition)) as Record<string, unknown>,
    maskedDefinition: JSON.parse(canonicalJson({ ...definition, args: maskedArgs, env: maskedEnv, headers: maskedHeaders, ...(typeof definition.url === 'string' ? { url: maskUrlSecrets(definition.url) } : {}) })) as Record<string, unknown>,
    maskedEnv,
    maskedHeaders,
    maskedArgs,
    invalid,
    warnings,
    pluginRoot: null,
    dialect,
    variables: serverReferences({ command, args, url, env, headers }, dialect),
  };
}

/**
 * MCP server definitions from an already parsed server map (`{name: {command, args, …}}`), with the
 * same parsing and digest as {@link readMcpServerDefinitions}. For maps that are not in a file this
 * module reads (a plugin manifest's inline `mcpServers`, a marketplace entry, a subagent's
 * frontmatter). Never throws; a non-object map yields no servers.
 */
export function mcpServerDefinitionsFromMap(map: unknown, source: HookSource, lineOf: (node: unknown) => number | null = () => null): McpServerDefinition[] {
  if (!isRecord(map)) return [];
  return Object.entries(map).map(([name, def]) => serverOf(name, def, source, lineOf(def) ?? lineOf(map)));
}

/**
 * Why a server is withheld from sessions for its variables (see `envExpand.ts`): one warning per
 * unset variable without a default and per reference that can never be expanded, naming the server,
 * its file and line and the variable; empty when it can start. Atrium withholds such a server rather
 * than start it with a literal `${…}` (which Claude Code 2.1.318 would do, with "Missing environment
 * variables"). `expanded` is the server's expansion ({@link expandedDefinition}), null when it reads
 * nothing. The one decision the Hooks listing, the session filter, the trust review, the Extensions
 * tab and `atrium resources` share. Pure; never throws.
 */
export function withheldWarnings(def: Pick<McpServerDefinition, 'name' | 'source' | 'line' | 'dialect'>, expanded: Pick<ExpandedServer, 'missing' | 'unresolvable'> | null): TrustWarning[] {
  if (!expanded) return [];
  const hasDefaults = def.dialect === 'claude-code' || def.dialect === 'gemini-cli';
  return [
    ...expanded.missing.map((name) => ({
      path: def.source.file,
      line: def.line,
      message: `MCP server "${def.name}" reads the environment variable ${name}, which is not set in Atrium's environment and has no default: the server is withheld from sessions`,
      fix: hasDefaults ? `Set ${name} in the environment Atrium starts from, or give a default: \${${name}:-value}.` : `Set ${name} in the environment Atrium starts from.`,
    })),
    ...expanded.unresolvable.map((u) => ({
      path: def.source.file,
      line: def.line,
      message: `MCP server "${def.name}" uses ${u.text}, which Atrium cannot expand (${u.why}): the server is withheld from sessions`,
      fix: 'Write the value, or an environment variable reference, instead.',
    })),
  ];
}

/**
 * A definition's expansion from `env` (the environment agents inherit: Atrium's own), with
 * `workspaceFolder` and `userHome` for the Cursor/VS Code builtins; null when it reads no variable
 * or its tool does not expand. Pure; never throws.
 */
export function expandedDefinition(def: McpServerDefinition, env: Readonly<Record<string, string | undefined>>, workspaceFolder: string, userHome: string): ExpandedServer | null {
  return def.variables.length && def.dialect !== 'none' ? expandServer(def, def.dialect, { env, workspaceFolder, userHome, pluginRoot: def.pluginRoot }) : null;
}
