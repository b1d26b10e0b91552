import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { TrustReview, TrustState, TrustWarning } from '../../../../shared/contract';
import { AtriumError } from '../../../../shared/errors';
import { discoverProjectExtensions } from '../../extensions/build';
import { WorkspaceScan, type FileAccess } from '../../files/scan';
import { classify, findPluginRoots, type FileRole } from '../../files/classify';
import { ReviewCollector, type DraftItem } from './collector';
import { reviewCodexConfig } from './codexConfig';
import { reviewHooksFile, reviewLspFile, reviewMcpFile } from './jsonFiles';
import { reviewGeminiCommand, reviewInstruction, reviewResourceFile } from './markdown';
import { markPluginOffItems } from './pluginOff';
import { reviewStrayPlugin } from './plugins';
import { reviewCatalog, type ReviewEnv } from './resources';
import { reviewDotenv, reviewSettingsFile } from './settings';
import { collectReviewFiles, mapLimit, readSource, type LinkInfo, type ReviewFileSet, type SourceText } from './sources';

/** What the review reports about the folder's trust (computed by the caller from the TrustService). */
export interface ReviewContext {
  trustRoot: string;
  state: TrustState;
  /** The user's home folder (settings that decide plugin state; `~/…` paths). Default: the process's. */
  homeDir?: string;
  /**
   * The review's scan (default: a new {@link WorkspaceScan} of `dir` keeping tracked files deleted
   * from disk out, as the walk always did): the tree is listed once for the walk and the extension
   * discovery, and each file read once. Tests pass one with counting lister and reader.
   */
  files?: FileAccess;
}

/** Dotenv files an agent loads into its own environment (Gemini CLI: `.gemini/.env`, then `.env`). */
const DOTENV_FILES = ['.env', '.gemini/.env'];

const CONFIG_DIR_NAMES = new Set(['.claude', '.blade', '.gemini', '.codex', '.cursor', '.agents', '.windsurf', '.cline', '.clinerules', '.github', '.vscode']);

/**
 * The trust review of a folder: everything trusting would activate.
 *
 * 1. The extension kinds come from the extensions bundle's own discovery
 *    (`discoverProjectExtensions`: the project as if trusted, user sources left out), so the review
 *    and the Extensions tab after trusting list the same skills, commands, subagents, output
 *    styles, plugins (with their enabled state), MCP and LSP servers, under the same names and with
 *    the same warnings (`resources.ts`).
 * 2. A walk of the whole tree (tracked and untracked files, not what `.gitignore` ignores, never
 *    `.git`/`node_modules`; ignored well-known config files are still probed) covers what the
 *    bundle does not read: instruction and rule files of every format in formats.md §0, settings
 *    and `env` names, hook files, other tools' files (Gemini, Cursor, Codex, Copilot, Windsurf,
 *    Cline), config folders nested in subfolders (parsed by the same extension parsers), and
 *    plugin folders the bundle does not load.
 *
 * Parse problems are warnings (file, line, fix), never exceptions. Reads files only; runs nothing.
 *
 * @param dir absolute path of the folder (a workspace folder; canonical on-disk path)
 * @throws AtriumError PATH_NOT_FOUND when `dir` does not exist or cannot be listed
 */
export async function reviewFolder(dir: string, context: ReviewContext): Promise<TrustReview> {
  const started = performance.now();
  const files = context.files ?? new WorkspaceScan({ root: dir, verifyExistence: true });
  let set: ReviewFileSet;
  let realRoot: string;
  try {
    realRoot = await fs.realpath(dir);
    set = await collectReviewFiles(dir, isCandidate, files);
  } catch (error) {
    throw new AtriumError('PATH_NOT_FOUND', `Cannot review "${dir}": ${(error as Error).message}. Check that the folder exists and is readable.`);
  }
  const env: ReviewEnv = { dir, homeDir: context.homeDir ?? os.homedir(), projectPlugins: new Set() };
  const out = new ReviewCollector();
  for (const w of set.warnings) out.warn(w);
  const read = (rel: string) => readSource(dir, realRoot, set, rel, files);

  // 1. the extensions bundle's discovery
  const catalog = await discoverProjectExtensions(dir, env.homeDir, files);
  const staged = new ReviewCollector();
  const coverage = reviewCatalog(catalog, env, staged);
  env.projectPlugins = new Set(coverage.pluginRoots.values());
  for (const item of staged.drafts()) out.add(annotate(item, set));
  for (const w of staged.warnings) out.warn(w);
  const pluginRoots = new Map(coverage.pluginRoots);

  // 2. plugin folders the bundle does not load: listed, not activated; their hook files still reviewed
  const hookFiles = [...coverage.hookFiles];
  for (const [root] of findPluginRoots(set.files)) {
    if (pluginRoots.has(root) || [...pluginRoots.keys()].some((r) => isWithin(r, root))) continue;
    const stray = await reviewStrayPlugin(root, env, out);
    pluginRoots.set(root, stray.name);
    if (stray.hookFile) hookFiles.push({ rel: stray.hookFile, plugin: stray.name });
  }

  // 3. every other file by its role
  const jobs: Array<{ rel: string; role: FileRole }> = [];
  for (const rel of set.files) {
    if (coverage.files.has(rel)) continue;
    const role = classify(rel, pluginRoots);
    if (role && !readByBundle(rel, role, pluginRoots)) jobs.push({ rel, role });
  }
  for (const ref of hookFiles) {
    if (jobs.some((j) => j.rel === ref.rel) || !set.files.includes(ref.rel)) continue;
    jobs.push({ rel: ref.rel, role: { role: 'hooksFile', tool: 'plugin', plugin: ref.plugin } });
  }
  const sources = await mapLimit(jobs, 32, (job) => read(job.rel));
  jobs.forEach((job, i) => dispatch(sources[i], job.role, env, out));

  // 3b. dotenv files agents load by themselves (Gemini CLI, tools they start): only what redirects model traffic
  for (const rel of DOTENV_FILES) {
    const src = await read(rel).catch(() => null);
    if (src?.text) reviewDotenv(src, out);
  }

  // 4. links that lead out of the workspace or nowhere (unless the bundle read through them)
  const covered = [...coverage.files];
  for (const info of set.links.values()) {
    if ((!info.inside || !info.resolved) && !covered.some((p) => isWithin(info.link, p))) reportOutsideLink(info, pluginRoots, out);
  }

  // 5. the bundle's warnings about files no record came from (a dangling skill link, a bad settings layer)
  for (const w of coverage.warnings) {
    const owner = out.drafts().find((d) => d.path === w.path);
    if (owner) owner.warnings = [...(owner.warnings ?? []), w];
    else out.warn(w);
  }

  // 6. hooks and servers of plugins that stay off do not run after trusting
  markPluginOffItems(out, catalog.plugins);

  const { items, counts, executableCount } = out.finish();
  return {
    path: dir,
    trustRoot: context.trustRoot,
    state: context.state,
    items,
    warnings: out.warnings,
    counts,
    executableCount,
    fileCount: set.files.length,
    reviewedAt: new Date().toISOString(),
    durationMs: Math.round((performance.now() - started) * 10) / 10,
  };
}

/**
 * True for files the extensions bundle reads (listed from its records, or not activated by
 * trusting): resources inside plugin folders (enabled plugins' come from the bundle, the others
 * do not load), and the workspace's own MCP/LSP files and marketplace.
 */
function readByBundle(rel: string, role: FileRole, pluginRoots: ReadonlyMap<string, string>): boolean {
  const inPlugin = [...pluginRoots.keys()].some((root) => isWithin(root, rel));
  switch (role.role) {
    case 'skill':
    case 'command':
    case 'subagent':
    case 'outputStyle':
      return inPlugin;
    case 'mcpFile':
    case 'lspFile':
      return inPlugin || ['.mcp.json', '.cursor/mcp.json', '.vscode/mcp.json', '.lsp.json'].includes(rel);
    case 'pluginManifest':
    case 'marketplace':
      return true;
    default:
      return false;
  }
}

/** True when `rel` is `root` or inside it (workspace-relative POSIX; `''` = the workspace). */
function isWithin(root: string, rel: string): boolean {
  return root === '' || rel === root || rel.startsWith(`${root}/`);
}

/** Notes the walk knows and the bundle does not: git ignores the file, or it is reached through a link leading out of the workspace. */
function annotate(item: DraftItem, set: ReviewFileSet): DraftItem {
  const notes: TrustWarning[] = [];
  if (set.ignored.has(item.path)) notes.push({ path: item.path, line: null, message: 'git ignores this file, but agents still read it', fix: null });
  for (const info of set.links.values()) {
    if (info.inside || !info.resolved || !isWithin(info.link, item.path)) continue;
    notes.push({ path: item.path, line: null, message: `reached through the symbolic link ${info.link} → "${info.target}", outside the workspace: its content is not part of this folder and can change after you trust it`, fix: 'Review the linked folder yourself, or copy it into the workspace.' });
    return { ...item, warnings: [...notes, ...(item.warnings ?? [])], detail: { ...item.detail, linkTarget: info.target } };
  }
  return notes.length ? { ...item, warnings: [...notes, ...(item.warnings ?? [])] } : item;
}

function dispatch(src: SourceText, role: FileRole, env: ReviewEnv, out: ReviewCollector): void {
  // a config file directly in a top-level config folder (`.claude/settings.json`): its MCP servers come from the bundle
  const bundleReadsMcp = src.rel.split('/').length === 2;
  switch (role.role) {
    case 'instruction':
      return reviewInstruction(src, role.tool, out);
    case 'settings':
      return reviewSettingsFile(src, role.format, { ...env, bundleReadsMcp }, out);
    case 'codexConfig':
      return reviewCodexConfig(src, { ...env, bundleReadsMcp }, out);
    case 'hooksFile':
      return reviewHooksFile(src, role.tool, role.plugin, out);
    case 'mcpFile':
      return reviewMcpFile(src, role.tool, role.serversKey, role.jsonc, role.plugin, env, out);
    case 'lspFile':
      return reviewLspFile(src, role.plugin, env, out);
    case 'skill':
    case 'command':
    case 'subagent':
    case 'outputStyle':
      return reviewResourceFile(src, role.role, role.tool, env, out);
    case 'geminiCommand':
      return reviewGeminiCommand(src, out);
    case 'pluginManifest':
    case 'marketplace':
      return;
  }
}

/** Paths worth an `lstat` when looking for links (see `collectReviewFiles`). */
function isCandidate(rel: string): boolean {
  return classify(rel, new Map()) !== null || /(^|\/)(commands|agents|skills|output-styles|hooks)\//.test(rel);
}

/**
 * A link whose target is missing or outside the workspace cannot be inspected. When it sits where
 * a resource would (a skill folder, a commands folder, a config folder), it is still listed, with
 * a warning: an agent would load whatever the link points at.
 */
function reportOutsideLink(info: LinkInfo, plugins: ReadonlyMap<string, string>, out: ReviewCollector): void {
  const rel = info.link;
  if (classify(rel, plugins)) return; // a linked file in a resource position was already listed via readSource
  const dangling = info.resolved === null;
  const where = dangling ? `"${info.target}", which does not exist (nothing is loaded from it today)` : `"${info.target}" (${info.resolved}), outside the workspace; not inspected`;
  const warning = {
    path: rel,
    line: null,
    message: `symbolic link to ${where}`,
    fix: dangling ? 'Remove the dangling link, or restore its target inside the workspace.' : 'Review the linked folder yourself, or copy it into the workspace.',
  };
  const asSkill = classify(`${rel}/SKILL.md`, plugins);
  const asFile = asSkill ?? classify(`${rel}/x.md`, plugins);
  const name = path.posix.basename(rel);
  if (asFile && (asFile.role === 'skill' || asFile.role === 'command' || asFile.role === 'subagent' || asFile.role === 'instruction' || asFile.role === 'outputStyle')) {
    const kind = asFile.role === 'skill' ? 'skill' : asFile.role;
    out.add({
      kind,
      path: rel,
      name,
      summary: `${name}: linked ${kind === 'skill' ? 'skill folder' : 'folder'} → ${info.target}${dangling ? ' (missing)' : ' (outside the workspace)'}`,
      executable: !dangling,
      tool: 'tool' in asFile ? asFile.tool : 'claude',
      warnings: [warning],
      detail: { linkTarget: info.target },
    });
    return;
  }
  if (CONFIG_DIR_NAMES.has(name) || /^(skills|commands|agents|rules|plugins|output-styles|hooks)$/.test(name)) out.warn(warning);
}
