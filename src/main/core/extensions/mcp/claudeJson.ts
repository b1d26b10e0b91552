import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ExtensionWarning, HookSource } from '../../../../shared/contract';
import { mcpServerDefinitionsFromMap } from '../../formats/mcpServers';
import { parseJsonText } from '../../formats/json';
import { isRecord } from '../../formats/text';
import { inspectGit, pathIdentity, trustRootOf } from '../../workspaces/identity';
import { warn } from '../read';
import type { McpRecord } from '../types';
import { mcpRecord } from './record';
import { directFileAccess, type FileReader } from '../../files/scan';

/** `~/.claude.json` is Claude Code's own state file and can be large; above this size it is parsed without line numbers. */
const LINE_NUMBERS_UP_TO = 2 * 1024 * 1024;
/** Larger files are not read at all (bytes). */
const MAX_FILE = 64 * 1024 * 1024;
const SHOWN = '~/.claude.json';

/**
 * MCP servers Claude Code keeps in `~/.claude.json` (formats.md §2.7): user scope (top-level
 * `mcpServers`, source `user`) and local scope (`projects["<abs path>"].mcpServers`, source
 * `local`) for this workspace only. The project key is matched against the workspace's canonical
 * path and, for a linked git worktree, the matching folder of the main checkout (keys are compared
 * with `pathIdentity` after resolving links, without a trailing separator).
 *
 * Both live in the user's own file, not in the repository, so they are user-level sources: read
 * even in restricted mode. Local-scope servers rank above every project source and user-scope ones
 * with the other user files (precedence local > project > user, whole entry from the winner).
 * Never throws: a missing file is nothing, a garbled one a warning. `files` reads.
 */
export async function readClaudeJsonServers(homeDir: string, workspaceDir: string, files: FileReader = directFileAccess): Promise<{ servers: McpRecord[]; warnings: ExtensionWarning[] }> {
  const file = path.join(homeDir, '.claude.json');
  const servers: McpRecord[] = [];
  const warnings: ExtensionWarning[] = [];
  let text: string;
  try {
    const st = await fs.stat(file);
    if (!st.isFile()) return { servers, warnings };
    if (st.size > MAX_FILE) return { servers, warnings: [warn(SHOWN, null, `larger than ${MAX_FILE / 1048576} MiB; its MCP servers are not read`, 'Let Claude Code clean it up (or remove old project entries).')] };
    text = (await files.readText(file)).replace(/^\uFEFF/, '');
  } catch {
    return { servers, warnings };
  }
  let root: unknown;
  let lineOf: (node: unknown) => number | null = () => null;
  if (text.length <= LINE_NUMBERS_UP_TO) {
    const parsed = parseJsonText(text);
    if (!parsed.ok) return { servers, warnings: [warn(SHOWN, parsed.line, `invalid JSON at line ${parsed.line}, column ${parsed.column}: ${parsed.message}; its MCP servers are not read`, parsed.fix)] };
    root = parsed.value;
    lineOf = parsed.lineOf;
  } else {
    try {
      root = JSON.parse(text);
    } catch (error) {
      return { servers, warnings: [warn(SHOWN, null, `invalid JSON: ${(error as Error).message}; its MCP servers are not read`, 'Fix the file (Claude Code rewrites it on start).')] };
    }
  }
  if (!isRecord(root)) return { servers, warnings: [warn(SHOWN, 1, 'is not a JSON object; its MCP servers are not read', null)] };

  const add = (map: unknown, scope: 'user' | 'local') => {
    if (map === undefined) return;
    if (!isRecord(map)) {
      warnings.push(warn(SHOWN, lineOf(map), `${scope === 'user' ? '"mcpServers"' : `"mcpServers" of this project`} is not an object of named servers; ignored`, 'Write "mcpServers": { "name": { "command": "..." } }.'));
      return;
    }
    const source: HookSource = { scope, file: '.claude.json', plugin: null, format: 'claude', absolutePath: file };
    for (const d of mcpServerDefinitionsFromMap(map, source, lineOf)) {
      servers.push(mcpRecord(d, { source: scope, path: SHOWN, layer: scope === 'user' ? 'user-claude' : 'project-blade', plugin: null }));
    }
  };
  add(root.mcpServers, 'user');
  if (isRecord(root.projects)) {
    const key = await projectKey(root.projects, workspaceDir);
    if (key !== null) add((root.projects[key] as Record<string, unknown> | undefined)?.mcpServers, 'local');
  }
  return { servers, warnings };
}

/** The `projects` key naming this workspace (or its main checkout's folder), or null. */
async function projectKey(projects: Record<string, unknown>, workspaceDir: string): Promise<string | null> {
  const wanted = [pathIdentity(workspaceDir), pathIdentity(trustRootOf(workspaceDir, inspectGit(workspaceDir)))];
  for (const candidate of wanted) {
    for (const key of Object.keys(projects)) {
      if (!path.isAbsolute(key)) continue;
      if (pathIdentity(path.resolve(key)) === candidate) return key;
    }
  }
  // keys written through a symbolic link (or with another spelling of the same folder)
  for (const key of Object.keys(projects)) {
    if (!path.isAbsolute(key)) continue;
    const real = await fs.realpath(key).catch(() => null);
    if (real !== null && wanted.includes(pathIdentity(real))) return key;
  }
  return null;
}
