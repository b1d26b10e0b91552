import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ExtensionCatalog } from './types';

/**
 * Restricted mode's "what would activate" counts (issue 5 UI): the project's extension files by
 * kind, from folder listings only (no file is read or parsed). Never throws.
 */
export async function countProjectExtensions(workspaceDir: string): Promise<ExtensionCatalog['restrictedCounts']> {
  const counts = { skills: 0, commands: 0, agents: 0, plugins: 0, mcp: 0, styles: 0, lsp: 0 };
  const list = async (dir: string) => fs.readdir(dir, { withFileTypes: true }).catch(() => [] as import('node:fs').Dirent[]);
  const countMd = async (dir: string, depth = 0): Promise<number> => {
    if (depth > 6) return 0;
    let n = 0;
    for (const e of await list(dir)) {
      if (e.isDirectory()) n += await countMd(path.join(dir, e.name), depth + 1);
      else if (/\.md$/i.test(e.name) && !/^readme/i.test(e.name)) n++;
    }
    return n;
  };
  const exists = (rel: string) => fs.stat(path.join(workspaceDir, rel)).then(() => 1, () => 0);
  for (const tool of ['.claude', '.blade']) {
    counts.skills += (await list(path.join(workspaceDir, tool, 'skills'))).filter((e) => !e.name.startsWith('.')).length;
    counts.commands += await countMd(path.join(workspaceDir, tool, 'commands'));
    counts.agents += await countMd(path.join(workspaceDir, tool, 'agents'));
    counts.styles += await countMd(path.join(workspaceDir, tool, 'output-styles'));
    counts.plugins += (await list(path.join(workspaceDir, tool, 'plugins'))).filter((e) => e.isDirectory()).length;
  }
  counts.plugins += await exists('.claude-plugin/marketplace.json');
  for (const f of ['.mcp.json', '.cursor/mcp.json', '.vscode/mcp.json']) counts.mcp += await exists(f);
  counts.lsp += await exists('.lsp.json');
  return counts;
}
