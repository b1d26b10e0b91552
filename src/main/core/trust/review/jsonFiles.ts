import type { TrustItemKind } from '../../../../shared/contract';
import type { ReviewCollector } from './collector';
import { collectHooks } from './hooks';
import { parseJsonText, type JsonOk } from '../../formats/json';
import type { ReviewEnv } from './resources';
import { collectLspServers, collectMcpServers } from './servers';
import type { SourceText } from './sources';
import { hiddenCharacterWarning } from './text';
import { isRecord } from '../../formats/text';

/**
 * Parses a JSON config file for review. On failure (or when the file could not be read) adds one
 * executable item of `kind` carrying a warning with the line, column and fix, and returns null:
 * a malformed file is an item, never an exception.
 */
export function parseOrReport(src: SourceText, kind: TrustItemKind, tool: string, what: string, out: ReviewCollector, jsonc = false): (JsonOk & { root: Record<string, unknown> }) | null {
  const path = src.rel;
  const detail = src.linkTarget ? { linkTarget: src.linkTarget } : {};
  if (src.text === null) {
    out.add({ kind, path, name: baseName(path), summary: `${what} (not inspected)`, executable: true, tool, warnings: src.warnings, detail });
    return null;
  }
  const parsed = parseJsonText(src.text, { jsonc });
  if (!parsed.ok) {
    out.add({
      kind,
      path,
      line: parsed.line,
      name: baseName(path),
      summary: `${what} that does not parse (line ${parsed.line}); nothing in it is loaded`,
      executable: true,
      tool,
      warnings: [...src.warnings, { path, line: parsed.line, message: `invalid JSON at line ${parsed.line}, column ${parsed.column}: ${parsed.message}`, fix: parsed.fix }],
      detail,
    });
    return null;
  }
  if (!isRecord(parsed.value)) {
    out.add({ kind, path, line: 1, name: baseName(path), summary: `${what} that is not a JSON object`, executable: false, tool, warnings: [...src.warnings, { path, line: 1, message: 'the file is not a JSON object; it is ignored', fix: 'Wrap the content in { }.' }], detail });
    return null;
  }
  for (const w of src.warnings) out.warn(w);
  const hidden = hiddenCharacterWarning(src.text, path);
  if (hidden) out.warn(hidden);
  return { ...parsed, root: parsed.value };
}

/** `.codex/hooks.json`, `.cursor/hooks.json`, plugin `hooks/hooks.json` (`{hooks: {...}}` or a bare event map). */
export function reviewHooksFile(src: SourceText, tool: 'codex' | 'cursor' | 'plugin', plugin: string | null, out: ReviewCollector): void {
  const parsed = parseOrReport(src, 'hook', tool, 'hooks file', out);
  if (!parsed) return;
  const hooks = parsed.root.hooks !== undefined ? parsed.root.hooks : parsed.root;
  const n = collectHooks(hooks, { path: src.rel, dialect: tool, tool, plugin, lineOf: parsed.lineOf }, out);
  if (n === 0) out.warn({ path: src.rel, line: 1, message: 'hooks file without any hook', fix: null });
}

/** A nested `.mcp.json` (`{mcpServers}` or a bare map), `.cursor/mcp.json`, `.vscode/mcp.json` (`{servers}`, JSON with comments): the workspace's own are listed from the extensions bundle. */
export function reviewMcpFile(src: SourceText, tool: string, serversKey: 'mcpServers' | 'servers', jsonc: boolean, plugin: string | null, env: ReviewEnv, out: ReviewCollector): void {
  const parsed = parseOrReport(src, 'mcpServer', tool, 'MCP server file', out, jsonc);
  if (!parsed) return;
  const servers = parsed.root[serversKey] !== undefined ? parsed.root[serversKey] : serversKey === 'mcpServers' ? parsed.root : {};
  collectMcpServers(servers, { path: src.rel, tool, plugin, lineOf: parsed.lineOf, ...env }, out);
}

/** A nested `.lsp.json`: `{<name>: {command, args, extensionToLanguage}}` (formats.md §2.10; `lspServers` wrapper accepted). */
export function reviewLspFile(src: SourceText, plugin: string | null, env: ReviewEnv, out: ReviewCollector): void {
  const parsed = parseOrReport(src, 'lspServer', plugin ? 'plugin' : 'claude', 'LSP server file', out);
  if (!parsed) return;
  const servers = isRecord(parsed.root.lspServers) ? parsed.root.lspServers : parsed.root;
  collectLspServers(servers, { path: src.rel, tool: plugin ? 'plugin' : 'claude', plugin, lineOf: parsed.lineOf, ...env }, out);
}

function baseName(path: string): string {
  return path.split('/').pop() ?? path;
}
