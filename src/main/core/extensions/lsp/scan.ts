import { promises as fs } from 'node:fs';
import type { ExtensionSource, ExtensionWarning } from '../../../../shared/contract/extensions';
import { parseJsonText } from '../../formats/json';
import { warn } from '../read';
import type { LspRecord } from '../types';
import { validateLspServers, type ValidatedLsp } from './validate';
import { directFileAccess, type FileReader } from '../../files/scan';

/** Largest `.lsp.json` read (bytes). */
const MAX_LSP_FILE = 1024 * 1024;

/** Where an LSP map comes from. */
export interface LspOrigin {
  source: ExtensionSource;
  plugin: string | null;
  /** Path shown. */
  path: string;
  absolutePath: string;
  pluginRoot: string | null;
}

/** Reads (through `files`, a build's scan) and validates one `.lsp.json` (missing file: nothing). Never throws. */
export async function readLspFile(origin: LspOrigin, files: FileReader = directFileAccess): Promise<{ servers: LspRecord[]; warnings: ExtensionWarning[] }> {
  let text: string;
  try {
    const st = await fs.stat(origin.absolutePath);
    if (!st.isFile()) return { servers: [], warnings: [] };
    if (st.size > MAX_LSP_FILE) return { servers: [], warnings: [warn(origin.path, null, 'larger than 1 MiB; not read', 'Shorten the file.')] };
    text = await files.readText(origin.absolutePath);
  } catch {
    return { servers: [], warnings: [] };
  }
  const parsed = parseJsonText(text.replace(/^\uFEFF/, ''));
  if (!parsed.ok) return { servers: [], warnings: [warn(origin.path, parsed.line, `invalid JSON at line ${parsed.line}, column ${parsed.column}: ${parsed.message}; no LSP server from it is available`, parsed.fix)] };
  return lspFromMap(parsed.value, origin, parsed.lineOf);
}

/** LSP records from an already parsed map (a manifest's or marketplace entry's inline `lspServers`). */
export function lspFromMap(map: unknown, origin: LspOrigin, lineOf: (node: unknown) => number | null = () => null): { servers: LspRecord[]; warnings: ExtensionWarning[] } {
  const result = validateLspServers(map, { path: origin.path, lineOf, pluginRoot: origin.pluginRoot });
  return { servers: result.servers.map((s) => toRecord(s, origin)), warnings: result.warnings };
}

function toRecord(s: ValidatedLsp, origin: LspOrigin): LspRecord {
  return {
    id: origin.plugin ? `plugin:${origin.plugin}:${s.name}` : `${origin.source}:${s.name}`,
    name: s.name,
    command: s.command,
    args: s.args,
    extensions: s.extensions,
    priority: s.priority,
    source: origin.source,
    plugin: origin.plugin,
    path: origin.path,
    line: s.line,
    status: s.errors.length ? 'invalid' : s.enabled ? 'active' : 'disabled',
    warnings: [...s.errors, ...s.warnings, ...(s.enabled ? [] : [warn(origin.path, s.line, `LSP server "${s.name}" is switched off ("enabled": false)`, null)])],
    absolutePath: origin.absolutePath,
  };
}
