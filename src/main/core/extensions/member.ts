import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ResourceMember, ResourceMemberFactory, WatchSpec } from '../resources/types';
import { buildExtensions } from './build';
import { isInside } from './paths';
import type { ExtensionCatalog } from './types';

/** Project paths (relative to the workspace) whose changes can change the extensions. */
const PROJECT_PATHS = ['.claude', '.blade', '.claude-plugin', '.cursor', '.vscode', '.mcp.json', '.lsp.json', '.gemini', '.codex'];
/** User paths (relative to home) whose changes can change the extensions (`.claude.json`: user and local MCP servers). */
const USER_PATHS = ['.claude', '.blade', '.cursor', '.gemini', '.codex', '.mcp.json', '.claude.json'];
/** A nested skills folder anywhere below the workspace (`apps/web/.claude/skills/…`). */
const NESTED_SKILLS = /[\\/]\.(claude|blade)[\\/]skills([\\/]|$)/;
const USER_RECURSIVE = ['skills', 'commands', 'agents', 'output-styles'];

/**
 * The extensions member of every workspace bundle (issue 5): one immutable {@link ExtensionCatalog}
 * (skills, commands, subagents, plugins, MCP servers, output styles, LSP servers). A batch of
 * changed paths touching an extension location rebuilds it; `notify` is true when the catalog's
 * digest changed. Stale when the trust gate's answer changed. The snapshot is the catalog itself.
 */
export const extensionsMember: ResourceMemberFactory<'extensions'> = {
  key: 'extensions',
  async create(context): Promise<ResourceMember<ExtensionCatalog>> {
    const build = () => buildExtensions({ workspaceDir: context.workspaceDir, homeDir: context.homeDir, gate: context.trustGate });
    let value = await build();
    const relevant = (p: string): boolean =>
      PROJECT_PATHS.some((rel) => isInside(path.join(context.workspaceDir, rel), p)) ||
      USER_PATHS.some((rel) => isInside(path.join(context.homeDir, rel), p)) ||
      (isInside(context.workspaceDir, p) && NESTED_SKILLS.test(p)) ||
      value.plugins.some((pl) => isInside(pl.root, p));
    return {
      get value() {
        return value;
      },
      snapshot: () => value,
      async watchSpec(): Promise<WatchSpec> {
        const exists = async (p: string) => fs.stat(p).then(() => true, () => false);
        const recursive: string[] = [];
        // the home folder itself only for ~/.claude.json (user and local MCP servers)
        const shallow: string[] = [context.workspaceDir, context.homeDir];
        recursive.push(...value.watchRoots);
        for (const rel of ['.claude', '.blade', '.claude-plugin', '.cursor', '.vscode']) {
          const abs = path.join(context.workspaceDir, rel);
          if (await exists(abs)) recursive.push(abs);
        }
        for (const tool of ['.claude', '.blade']) {
          const base = path.join(context.homeDir, tool);
          if (!(await exists(base))) continue;
          shallow.push(base, path.join(base, 'plugins')); // installed_plugins.json lives here
          for (const sub of USER_RECURSIVE) if (await exists(path.join(base, sub))) recursive.push(path.join(base, sub));
        }
        for (const p of value.plugins) if (!isInside(context.workspaceDir, p.root)) recursive.push(p.root);
        return { recursive, shallow, ignored: (p) => /[\\/](node_modules|\.git)([\\/]|$)/.test(p) };
      },
      async applyChanges(paths) {
        if (![...paths].some(relevant)) return { replaced: false, notify: false };
        try {
          const next = await build();
          if (next.digest === value.digest) return { replaced: false, notify: false };
          value = next;
          return { replaced: true, notify: true };
        } catch (error) {
          console.error(`[atrium] extensions update failed for ${context.workspaceDir}:`, error);
          return { replaced: false, notify: false };
        }
      },
      isStale: () => context.trustGate.mayActivateProjectResources(context.workspaceDir) !== value.trusted,
      async refresh() {
        value = await build();
      },
      dispose() {},
    };
  },
};
