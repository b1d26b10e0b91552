import { promises as fs } from 'node:fs';
import path from 'node:path';
import { buildExtensions } from '../extensions/build';
import { isInside } from '../extensions/paths';
import type { ExtensionCatalog } from '../extensions/types';
import type { FileAccess } from '../files/scan';
import { RuleCatalogBuilder } from '../rules/builder';
import type { RuleCatalog } from '../rules/catalog';
import type { ResourceMember, ResourceMemberFactory, WatchSpec } from './types';

/**
 * The rule catalog member ("the rule catalog is the first member of the bundle").
 * Builds with `RuleCatalogBuilder` from the bundle's scan, applies file changes incrementally (only
 * the changed rule files are re-read, through the batch's scan), and reports itself stale when the
 * TrustGate's answer changed since the last build.
 */
export const rulesMember: ResourceMemberFactory<'rules'> = {
  key: 'rules',
  async create(context): Promise<ResourceMember<RuleCatalog>> {
    const builder = new RuleCatalogBuilder({ workspaceDir: context.workspaceDir, homeDir: context.homeDir, gate: context.trustGate });
    let value = await builder.build(context.files);
    return {
      get value() {
        return value;
      },
      snapshot: () => value.snapshot(),
      watchSpec: () => builder.watchSpec(),
      async applyChanges(paths, files) {
        try {
          const result = await builder.update(paths, files);
          const replaced = result.catalog !== value;
          value = result.catalog;
          return { replaced, notify: result.changed };
        } catch (error) {
          console.error(`[atrium] rule catalog update failed for ${context.workspaceDir}:`, error);
          return { replaced: false, notify: false };
        }
      },
      isStale: () => builder.trustChanged(),
      async refresh(files) {
        value = await builder.build(files);
      },
      dispose() {},
    };
  },
};

/** Project paths (relative to the workspace) whose changes can change the extensions. */
const PROJECT_PATHS = ['.claude', '.blade', '.claude-plugin', '.cursor', '.vscode', '.mcp.json', '.lsp.json', '.gemini', '.codex'];
/** User paths (relative to home) whose changes can change the extensions (`.claude.json`: user and local MCP servers). */
const USER_PATHS = ['.claude', '.blade', '.cursor', '.gemini', '.codex', '.mcp.json', '.claude.json'];
/** A nested skills folder anywhere below the workspace (`apps/web/.claude/skills/…`). */
const NESTED_SKILLS = /[\\/]\.(claude|blade)[\\/]skills([\\/]|$)/;
const USER_RECURSIVE = ['skills', 'commands', 'agents', 'output-styles'];

/**
 * The extensions member of every workspace bundle: one immutable {@link ExtensionCatalog}
 * (skills, commands, subagents, plugins, MCP servers, output styles, LSP servers). A batch of
 * changed paths touching an extension location rebuilds it; `notify` is true when the catalog's
 * digest changed (a touched batch rebuilds the whole catalog from the batch's scan). Stale when the
 * trust gate's answer changed. The snapshot is the catalog itself.
 */
export const extensionsMember: ResourceMemberFactory<'extensions'> = {
  key: 'extensions',
  async create(context): Promise<ResourceMember<ExtensionCatalog>> {
    const build = (files: FileAccess) => buildExtensions({ workspaceDir: context.workspaceDir, homeDir: context.homeDir, gate: context.trustGate, files });
    let value = await build(context.files);
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
      async applyChanges(paths, files) {
        if (![...paths].some(relevant)) return { replaced: false, notify: false };
        try {
          const next = await build(files);
          if (next.digest === value.digest) return { replaced: false, notify: false };
          value = next;
          return { replaced: true, notify: true };
        } catch (error) {
          console.error(`[atrium] extensions update failed for ${context.workspaceDir}:`, error);
          return { replaced: false, notify: false };
        }
      },
      isStale: () => context.trustGate.mayActivateProjectResources(context.workspaceDir) !== value.trusted,
      async refresh(files) {
        value = await build(files);
      },
      dispose() {},
    };
  },
};

/** Members of every bundle, in initialisation order (new members append theirs). */
export const DEFAULT_MEMBERS: readonly ResourceMemberFactory[] = [rulesMember, extensionsMember];
