import type { HookDanger, HookSource, TrustWarning } from '../../../shared/contract';
import { mcpServerDefinitionsFromMap, readMcpServerDefinitions, type McpServerDefinition } from '../formats/mcpServers';
import { commandDangers, envDangers, urlDangers } from './danger';
import type { WorkspacePlugin } from './sources';
import { directFileAccess, type FileReader } from '../files/scan';

/** An MCP server definition (see `formats/mcpServers.ts`) with what approving it would allow to run. */
export interface McpDefinition extends McpServerDefinition {
  danger: HookDanger[];
}

/** The danger checks of a server: its command line (paths judged against `dir`), its URL, its environment. */
function withDanger(d: McpServerDefinition, dir: string, homeDir: string): McpDefinition {
  const danger = [
    ...(d.command !== null ? commandDangers([d.command, ...d.args].join(' '), { projectDir: dir, homeDir }) : []),
    ...(d.url !== null ? urlDangers(d.url, 'server') : []),
    ...envDangers(d.env),
  ];
  return { ...d, danger };
}

/**
 * Every MCP server the repository's files declare (formats.md §2.7), read by
 * `readMcpServerDefinitions` through `files` (a build's scan; default: directly), each with its
 * danger checks. Never throws.
 */
export async function readMcpServers(dir: string, homeDir: string, plugins: readonly WorkspacePlugin[], files: FileReader = directFileAccess): Promise<{ servers: McpDefinition[]; warnings: TrustWarning[] }> {
  const { servers, warnings } = await readMcpServerDefinitions(dir, plugins, files);
  return { servers: servers.map((d) => withDanger(d, dir, homeDir)), warnings };
}

/**
 * MCP server definitions from an already parsed server map, parsed by `mcpServerDefinitionsFromMap`,
 * each with its danger checks (paths judged against `dir`). Never throws.
 */
export function mcpServersFromMap(map: unknown, source: HookSource, dir: string, homeDir: string, lineOf: (node: unknown) => number | null = () => null): McpDefinition[] {
  return mcpServerDefinitionsFromMap(map, source, lineOf).map((d) => withDanger(d, dir, homeDir));
}
