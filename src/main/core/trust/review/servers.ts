import path from 'node:path';
import type { HookSource, TrustWarning } from '../../../../shared/contract';
import { mcpServersFromMap } from '../../hooks/mcp';
import { lspFromMap } from '../../extensions/lsp/scan';
import { mcpRecord } from '../../extensions/mcp/record';
import type { LspRecord, McpRecord } from '../../extensions/types';
import type { DraftItem, ReviewCollector } from './collector';
import { codeLoadingEnvNames } from '../../hooks/codeLoadingEnv';
import { commandRiskWarnings } from './risk';
import { clip, commandLine, isRecord, oneLine } from '../../formats/text';

/** Where a server map was found (a file the extensions bundle does not read: nested config, a frontmatter, a settings block). */
export interface ServerSource {
  /** Workspace-relative path of the file. */
  path: string;
  tool: string;
  plugin?: string | null;
  lineOf: (node: unknown) => number | null;
  fallbackLine?: number | null;
  /** Absolute workspace folder (for the MCP reader's danger checks). */
  dir: string;
  homeDir: string;
}

/**
 * The review item of an MCP server record: the literal command and arguments or the URL (origin +
 * path), env and header names (never values), the variables it reads from the environment, the record's parse warnings plus risk notices.
 * Executable when it has a command (an http/sse server runs nothing on this machine). Records come from the extensions bundle (`extensions/mcp`) or, for files it does not
 * read, from {@link collectMcpServers}: one parse of every server either way.
 */
export function mcpServerItem(s: McpRecord, tool: string, resourceId: string | null): DraftItem {
  const warnings: TrustWarning[] = [...s.warnings];
  if (s.command !== null) warnings.push(...commandRiskWarnings(commandLine(s.command, s.args), s.path, s.line));
  const risky = codeLoadingEnvNames(s.envNames);
  if (risky.length) warnings.push({ path: s.path, line: s.line, message: `sets ${risky.join(', ')}, which can make the server load other code (values hidden)`, fix: null });
  const literal = s.command !== null ? commandLine(s.command, s.args) : s.url !== null ? `${s.url} (${s.transport})` : '(no command)';
  const name = resourceId ?? s.id;
  return {
    kind: 'mcpServer',
    path: s.path,
    line: s.line,
    name,
    summary: oneLine(`${name}: ${literal}${s.envNames.length ? ` · env ${s.envNames.join(', ')}` : ''}${s.variables.length ? ` · reads ${s.variables.join(' ')}` : ''}${statusNote(s)}`),
    executable: s.command !== null,
    tool,
    warnings,
    detail: {
      transport: s.transport,
      ...(s.command !== null ? { command: commandLine(s.command, s.args) } : {}),
      ...(s.args.length ? { args: s.args } : {}),
      ...(s.url !== null ? { url: s.url } : {}),
      ...(s.envNames.length ? { envNames: s.envNames } : {}),
      ...(s.headerNames.length ? { headerNames: s.headerNames } : {}),
      ...(s.variables.length ? { variables: s.variables } : {}),
      ...(s.plugin ? { plugin: s.plugin } : {}),
      ...(resourceId ? { resourceId } : {}),
    },
  };
}

/** The review item of an LSP server record (validated by `extensions/lsp/validate.ts`, seed §14). Executable. */
export function lspServerItem(s: LspRecord, tool: string, resourceId: string | null): DraftItem {
  const name = s.plugin ? s.id : s.name;
  const warnings: TrustWarning[] = [...s.warnings];
  if (s.command !== null) warnings.push(...commandRiskWarnings(commandLine(s.command, s.args), s.path, s.line));
  return {
    kind: 'lspServer',
    path: s.path,
    line: s.line,
    name,
    summary: oneLine(`${name}: ${s.command !== null ? commandLine(s.command, s.args) : '(no command)'}${s.extensions.length ? ` for ${s.extensions.join(' ')}` : ''}${statusNote(s)}`),
    executable: true,
    tool,
    warnings,
    detail: {
      ...(s.command !== null ? { command: commandLine(s.command, s.args) } : {}),
      ...(s.args.length ? { args: s.args } : {}),
      ...(s.plugin ? { plugin: s.plugin } : {}),
      ...(resourceId ? { resourceId } : {}),
    },
  };
}

/** ` · overridden by …`, ` · cannot start`, ` · switched off` for records that are not active. */
export function statusNote(r: { status: string; overriddenBy?: string | null }): string {
  if (r.status === 'overridden') return ` · overridden by ${r.overriddenBy ?? 'another definition'}`;
  if (r.status === 'invalid') return ' · cannot start';
  if (r.status === 'disabled') return ' · switched off';
  return '';
}

/**
 * Adds one `mcpServer` item per entry of an MCP server map the extensions bundle does not read
 * (nested `.mcp.json` and settings, a subagent's frontmatter `mcpServers`, Codex `mcp_servers`),
 * parsed by the same reader (`hooks/mcp.ts`: type inferred from the fields, masked values).
 * Returns the number of items.
 */
export function collectMcpServers(servers: unknown, src: ServerSource, out: ReviewCollector): number {
  const at = (node: unknown) => src.lineOf(node) ?? src.fallbackLine ?? null;
  if (!isRecord(servers)) {
    out.warn({ path: src.path, line: at(servers), message: 'the MCP server list is not an object of named servers', fix: 'Write { "mcpServers": { "name": { "command": "...", "args": [] } } }.' });
    return 0;
  }
  const source: HookSource = { scope: src.plugin ? 'plugin' : 'project', file: src.path, plugin: src.plugin ?? null, format: src.plugin ? 'plugin' : 'claude', absolutePath: path.join(src.dir, src.path) };
  const defs = mcpServersFromMap(servers, source, src.dir, src.homeDir, at);
  for (const d of defs) out.add(mcpServerItem(mcpRecord(d, { source: src.plugin ? 'plugin' : 'project', path: src.path, layer: 'project-claude', plugin: src.plugin ?? null }), src.tool, null));
  return defs.length;
}

/**
 * Adds one `lspServer` item per entry of an LSP server map the bundle does not read (nested
 * `.lsp.json`, Blade settings `lspServers`), validated like the bundle's. Returns the number of items.
 */
export function collectLspServers(servers: unknown, src: ServerSource, out: ReviewCollector): number {
  const at = (node: unknown) => src.lineOf(node) ?? src.fallbackLine ?? null;
  const r = lspFromMap(servers, { source: 'project', plugin: src.plugin ?? null, path: src.path, absolutePath: path.join(src.dir, src.path), pluginRoot: null }, at);
  for (const w of r.warnings) out.warn(w);
  for (const s of r.servers) out.add(lspServerItem(s, src.tool, null));
  return r.servers.length;
}

/** A description for an item's detail (clipped, invisible characters made visible). */
export function shownDescription(text: string | null | undefined): string | undefined {
  return text ? clip(text) : undefined;
}
