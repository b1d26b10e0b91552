import path from 'node:path';

/**
 * What a file is to an agent tool, decided from its workspace-relative path alone (formats.md §0,
 * §1.4, §2, §3; seed-behaviour §9–14). Config directories are recognised at any depth: trusting a
 * folder also trusts every folder below it, and an agent started in a subfolder reads that
 * subfolder's `.claude/`, `.gemini/`, ... too.
 */
export type FileRole =
  | { role: 'instruction'; tool: string }
  | { role: 'settings'; format: 'claude' | 'blade' | 'gemini' }
  | { role: 'codexConfig' }
  | { role: 'hooksFile'; tool: 'codex' | 'cursor' | 'plugin'; plugin: string | null }
  | { role: 'mcpFile'; tool: string; serversKey: 'mcpServers' | 'servers'; jsonc: boolean; plugin: string | null }
  | { role: 'lspFile'; plugin: string | null }
  | { role: 'pluginManifest' }
  | { role: 'marketplace' }
  | { role: 'skill'; tool: string; plugin: string | null }
  | { role: 'command'; tool: string; plugin: string | null }
  | { role: 'geminiCommand' }
  | { role: 'subagent'; tool: string; plugin: string | null }
  | { role: 'outputStyle'; tool: string; plugin: string | null };

/** Directory names of tools' project config folders, mapped to the tool that reads them. */
const CONFIG_DIRS: Record<string, string> = {
  '.claude': 'claude',
  '.blade': 'blade',
  '.cursor': 'cursor',
  '.gemini': 'gemini',
  '.codex': 'codex',
  '.agents': 'agents',
  '.windsurf': 'windsurf',
  '.cline': 'cline',
};

const INSTRUCTION_NAMES: Record<string, string> = {
  'AGENTS.md': 'agents',
  'AGENTS.override.md': 'codex',
  'CLAUDE.md': 'claude',
  'CLAUDE.local.md': 'claude',
  'GEMINI.md': 'gemini',
  'BLADE.md': 'blade',
  '.cursorrules': 'cursor',
  '.windsurfrules': 'windsurf',
  '.clinerules': 'cline',
};

/** Documentation files that sit in config folders without being resources (vendored READMEs etc.). */
const DOC_NAMES = /^(README|LICENSE|LICENCE|CONTRIBUTING|CODE_OF_CONDUCT|CHANGELOG|SECURITY|NOTICE|AUTHORS)(\.[a-z]+)?$/i;

/** Plugin names by plugin root directory (`''` = the workspace root itself). */
export type PluginRoots = ReadonlyMap<string, string>;

/** Classifies one workspace-relative POSIX path; null when no agent tool reads it as configuration. */
export function classify(rel: string, plugins: PluginRoots): FileRole | null {
  const segs = rel.split('/');
  const base = segs[segs.length - 1];
  const dirSegs = segs.slice(0, -1);

  const plugin = pluginOf(dirSegs, plugins);
  if (plugin) {
    const role = classifyInPlugin(segs.slice(plugin.depth), plugin.name);
    if (role) return role;
  }

  // .claude-plugin/plugin.json, .blade-plugin/plugin.json, marketplace.json
  const parent = dirSegs[dirSegs.length - 1];
  if ((parent === '.claude-plugin' || parent === '.blade-plugin') && base === 'plugin.json') return { role: 'pluginManifest' };
  if (parent === '.claude-plugin' && base === 'marketplace.json') return { role: 'marketplace' };

  // find the innermost known config directory among the parents
  for (let i = dirSegs.length - 1; i >= 0; i--) {
    const tool = CONFIG_DIRS[dirSegs[i]];
    if (tool) {
      const role = classifyInConfigDir(dirSegs[i], segs.slice(i + 1), tool);
      if (role) return role;
      break;
    }
  }

  if (dirSegs.includes('.clinerules') && base.endsWith('.md')) return { role: 'instruction', tool: 'cline' };
  const ghIndex = dirSegs.lastIndexOf('.github');
  if (ghIndex !== -1) {
    const inner = segs.slice(ghIndex + 1);
    if (inner.length === 1 && base === 'copilot-instructions.md') return { role: 'instruction', tool: 'copilot' };
    if (inner[0] === 'instructions' && base.endsWith('.instructions.md')) return { role: 'instruction', tool: 'copilot' };
  }
  if (base === 'SKILL.md' && dirSegs.length >= 2 && dirSegs[dirSegs.length - 2] === 'skills') return { role: 'skill', tool: 'agents', plugin: null };
  if (base === 'hooks.json' && parent === 'hooks') return { role: 'hooksFile', tool: 'plugin', plugin: dirSegs[dirSegs.length - 2] ?? null };
  if (base === '.mcp.json') return { role: 'mcpFile', tool: 'claude', serversKey: 'mcpServers', jsonc: false, plugin: null };
  if (base === '.lsp.json') return { role: 'lspFile', plugin: null };
  if (parent === '.vscode' && base === 'mcp.json') return { role: 'mcpFile', tool: 'vscode', serversKey: 'servers', jsonc: true, plugin: null };
  if (INSTRUCTION_NAMES[base]) return { role: 'instruction', tool: INSTRUCTION_NAMES[base] };
  return null;
}

function classifyInConfigDir(dir: string, inner: string[], tool: string): FileRole | null {
  const base = inner[inner.length - 1];
  const first = inner[0];
  const md = base.endsWith('.md');
  const doc = DOC_NAMES.test(base);
  if (inner.length === 1) {
    if (dir === '.claude' && (base === 'settings.json' || base === 'settings.local.json')) return { role: 'settings', format: 'claude' };
    if (dir === '.blade' && (/^settings(\.[\w-]+)?\.json$/.test(base) || base === 'config.json')) return { role: 'settings', format: 'blade' };
    if (dir === '.gemini' && base === 'settings.json') return { role: 'settings', format: 'gemini' };
    if (dir === '.codex' && base === 'hooks.json') return { role: 'hooksFile', tool: 'codex', plugin: null };
    if (dir === '.codex' && base === 'config.toml') return { role: 'codexConfig' };
    if (dir === '.cursor' && base === 'hooks.json') return { role: 'hooksFile', tool: 'cursor', plugin: null };
    if (dir === '.cursor' && base === 'mcp.json') return { role: 'mcpFile', tool: 'cursor', serversKey: 'mcpServers', jsonc: false, plugin: null };
    if (dir === '.claude' && base === 'CLAUDE.md') return { role: 'instruction', tool: 'claude' };
    return null;
  }
  if (first === 'rules' && (md || (dir === '.cursor' && base.endsWith('.mdc')))) return { role: 'instruction', tool };
  if (first === 'skills' && base === 'SKILL.md' && inner.length === 3) return { role: 'skill', tool, plugin: null };
  if (first === 'commands' && md && !doc && (dir === '.claude' || dir === '.blade' || dir === '.cursor')) return { role: 'command', tool, plugin: null };
  if (first === 'commands' && dir === '.gemini' && base.endsWith('.toml')) return { role: 'geminiCommand' };
  if (first === 'agents' && md && !doc && (dir === '.claude' || dir === '.blade')) return { role: 'subagent', tool, plugin: null };
  if (first === 'output-styles' && md && inner.length === 2 && (dir === '.claude' || dir === '.blade')) return { role: 'outputStyle', tool, plugin: null };
  return null;
}

function classifyInPlugin(inner: string[], plugin: string): FileRole | null {
  const base = inner[inner.length - 1];
  const first = inner[0];
  const md = base.endsWith('.md') && !DOC_NAMES.test(base);
  if (inner.length === 1 && base === '.mcp.json') return { role: 'mcpFile', tool: 'plugin', serversKey: 'mcpServers', jsonc: false, plugin };
  if (inner.length === 1 && base === '.lsp.json') return { role: 'lspFile', plugin };
  if (inner.length === 1 && base === 'SKILL.md') return { role: 'skill', tool: 'plugin', plugin };
  if (inner.length === 2 && first === 'hooks' && base === 'hooks.json') return { role: 'hooksFile', tool: 'plugin', plugin };
  if (first === 'commands' && md) return { role: 'command', tool: 'plugin', plugin };
  if (first === 'agents' && md) return { role: 'subagent', tool: 'plugin', plugin };
  if (first === 'skills' && inner.length === 3 && base === 'SKILL.md') return { role: 'skill', tool: 'plugin', plugin };
  if (first === 'output-styles' && md && inner.length === 2) return { role: 'outputStyle', tool: 'plugin', plugin };
  return null;
}

function pluginOf(dirSegs: string[], plugins: PluginRoots): { depth: number; name: string } | null {
  for (let depth = dirSegs.length; depth >= 0; depth--) {
    const name = plugins.get(dirSegs.slice(0, depth).join('/'));
    if (name !== undefined) return { depth, name };
  }
  return null;
}

/**
 * Plugin roots of a file list: every directory holding `.claude-plugin/plugin.json` or
 * `.blade-plugin/plugin.json` (named by the directory until the manifest is read).
 */
export function findPluginRoots(files: readonly string[]): Map<string, string> {
  const roots = new Map<string, string>();
  for (const rel of files) {
    const m = /^(?:(.*)\/)?\.(?:claude|blade)-plugin\/plugin\.json$/.exec(rel);
    if (m) {
      const root = m[1] ?? '';
      roots.set(root, root ? path.posix.basename(root) : '');
    }
  }
  return roots;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * The plugin folders inside the workspace that a parsed `.claude-plugin/marketplace.json` lists
 * (formats.md §2.10): entries whose `source` is a relative path (`./x`, `../x`, or a bare name under
 * `metadata.pluginRoot`) resolving to a directory of `dirs` (every directory of the workspace
 * listing, relative POSIX). `marketRel` is the marketplace file's relative path. Remote sources
 * (`github:`, `https:`…) and folders outside the workspace are left out. Root `''` = the workspace.
 */
export function marketplaceLocalPlugins(market: Record<string, unknown>, marketRel: string, dirs: ReadonlySet<string>): Array<{ root: string; name: string }> {
  const marketRoot = path.posix.dirname(path.posix.dirname(marketRel));
  const base = marketRoot === '.' ? '' : marketRoot;
  const pluginRoot = isObject(market.metadata) ? text(market.metadata.pluginRoot) : undefined;
  const entries = Array.isArray(market.plugins) ? market.plugins.filter(isObject) : [];
  const local: Array<{ root: string; name: string }> = [];
  for (const entry of entries) {
    const name = text(entry.name);
    const source = text(entry.source);
    if (name && source && !/^[a-z]+:/i.test(source)) {
      const relSource = source.startsWith('./') || source.startsWith('../') ? source : pluginRoot ? `${pluginRoot}/${source}` : source;
      const rel = path.posix.normalize(path.posix.join(base, relSource));
      if (!rel.startsWith('..') && dirs.has(rel)) local.push({ root: rel === '.' ? '' : rel, name });
    }
  }
  return local;
}
