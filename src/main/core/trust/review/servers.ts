import type { TrustWarning } from '../../../../shared/contract';
import { validateLspServers } from '../../extensions/lsp/validate';
import type { ReviewCollector } from './collector';
import { codeLoadingEnvNames, commandRiskWarnings } from './risk';
import { commandLine, isRecord, oneLine, redactUrl, str, strings } from './text';

/** Where a server map was found. */
export interface ServerSource {
  path: string;
  tool: string;
  plugin?: string | null;
  lineOf: (node: unknown) => number | null;
  fallbackLine?: number | null;
}

/**
 * Adds one `mcpServer` item per entry of an MCP server map `{name: {command, args, env} |
 * {type, url, headers}}` (Claude `.mcp.json`, Cursor, VS Code `servers`, plugin, settings
 * `mcpServers`, Codex `mcp_servers`). Shows the literal command and arguments or the URL (origin
 * + path); env and header values are never reported, only names. Returns the number of items.
 */
export function collectMcpServers(servers: unknown, src: ServerSource, out: ReviewCollector): number {
  const at = (node: unknown) => src.lineOf(node) ?? src.fallbackLine ?? null;
  if (!isRecord(servers)) {
    out.warn({ path: src.path, line: at(servers), message: 'the MCP server list is not an object of named servers', fix: 'Write { "mcpServers": { "name": { "command": "...", "args": [] } } }.' });
    return 0;
  }
  let count = 0;
  for (const [name, def] of Object.entries(servers)) {
    const line = at(def);
    if (!isRecord(def)) {
      out.warn({ path: src.path, line: at(servers), message: `MCP server "${name}" is not an object`, fix: `Write "${name}": { "command": "..." }.` });
      continue;
    }
    count++;
    const command = str(def.command);
    const args = strings(def.args);
    const url = str(def.url) ?? str(def.serverUrl) ?? str(def.httpUrl);
    const transport = str(def.type) ?? str(def.transport) ?? (command !== undefined ? 'stdio' : url !== undefined ? 'http' : 'unknown');
    const envNames = isRecord(def.env) ? Object.keys(def.env) : [];
    const headerNames = isRecord(def.headers) ? Object.keys(def.headers) : isRecord(def.http_headers) ? Object.keys(def.http_headers) : [];
    const warnings: TrustWarning[] = [];
    if (command === undefined && url === undefined) {
      warnings.push({ path: src.path, line, message: `MCP server "${name}" has neither "command" nor "url"; it cannot start`, fix: 'Add "command" (local server) or "url" (remote server).' });
    }
    if (command !== undefined) warnings.push(...commandRiskWarnings(commandLine(command, args), src.path, line));
    const risky = codeLoadingEnvNames(envNames);
    if (risky.length) warnings.push({ path: src.path, line, message: `sets ${risky.join(', ')}, which can make the server load other code (values hidden)`, fix: null });
    if (str(def.headersHelper)) warnings.push({ path: src.path, line, message: `runs a headersHelper command: ${str(def.headersHelper)}`, fix: null });
    const shown = command !== undefined ? commandLine(command, args) : url !== undefined ? `${redactUrl(url)} (${transport})` : '(no command)';
    out.add({
      kind: 'mcpServer',
      path: src.path,
      line,
      name,
      summary: oneLine(`${name}: ${shown}${envNames.length ? ` · env ${envNames.join(', ')}` : ''}`),
      executable: true,
      tool: src.tool,
      warnings,
      detail: {
        transport,
        ...(command !== undefined ? { command: commandLine(command, args) } : {}),
        ...(args.length ? { args } : {}),
        ...(url !== undefined ? { url: redactUrl(url) } : {}),
        ...(envNames.length ? { envNames } : {}),
        ...(headerNames.length ? { headerNames } : {}),
        ...(src.plugin ? { plugin: src.plugin } : {}),
      },
    });
  }
  return count;
}

/**
 * Adds one `lspServer` item per entry of an LSP server map (`.lsp.json`, plugin `lspServers`,
 * Blade `lspServers`; seed-behaviour §14): `{name: {command, args, extensionToLanguage, env}}`.
 */
export function collectLspServers(servers: unknown, src: ServerSource, out: ReviewCollector): number {
  const at = (node: unknown) => src.lineOf(node) ?? src.fallbackLine ?? null;
  if (!isRecord(servers)) {
    out.warn({ path: src.path, line: at(servers), message: 'the LSP server list is not an object of named servers', fix: 'Write { "name": { "command": "...", "extensionToLanguage": { ".ts": "typescript" } } }.' });
    return 0;
  }
  // the extensions bundle's validation (seed §14), so the review shows why a server would not start
  const validated = new Map(validateLspServers(servers, { path: src.path, lineOf: at }).servers.map((v) => [v.name, v]));
  let count = 0;
  for (const [name, def] of Object.entries(servers)) {
    const line = at(def);
    if (!isRecord(def)) {
      out.warn({ path: src.path, line: at(servers), message: `LSP server "${name}" is not an object`, fix: `Write "${name}": { "command": "...", "extensionToLanguage": { ... } }.` });
      continue;
    }
    count++;
    const command = str(def.command);
    const args = strings(def.args);
    const extensions = isRecord(def.extensionToLanguage) ? Object.keys(def.extensionToLanguage) : [];
    const envNames = isRecord(def.env) ? Object.keys(def.env) : [];
    const warnings: TrustWarning[] = [];
    if (command === undefined) warnings.push({ path: src.path, line, message: `LSP server "${name}" has no "command"`, fix: 'Add "command": "<language server executable>".' });
    else warnings.push(...commandRiskWarnings(commandLine(command, args), src.path, line));
    if (extensions.length === 0) warnings.push({ path: src.path, line, message: `LSP server "${name}" has no "extensionToLanguage", so no file starts it`, fix: 'Add "extensionToLanguage": { ".ext": "language" }.' });
    const v = validated.get(name);
    for (const w of [...(v?.errors ?? []), ...(v?.warnings ?? [])]) if (!/"command" is missing|"extensionToLanguage" is required/.test(w.message)) warnings.push(w);
    const risky = codeLoadingEnvNames(envNames);
    if (risky.length) warnings.push({ path: src.path, line, message: `sets ${risky.join(', ')}, which can make the server load other code (values hidden)`, fix: null });
    out.add({
      kind: 'lspServer',
      path: src.path,
      line,
      name,
      summary: oneLine(`${name}: ${command !== undefined ? commandLine(command, args) : '(no command)'}${extensions.length ? ` for ${extensions.join(' ')}` : ''}`),
      executable: true,
      tool: src.tool,
      warnings,
      detail: {
        ...(command !== undefined ? { command: commandLine(command, args) } : {}),
        ...(args.length ? { args } : {}),
        ...(envNames.length ? { envNames } : {}),
        ...(src.plugin ? { plugin: src.plugin } : {}),
      },
    });
  }
  return count;
}
