import { promises as fs } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { TrustReview, TrustState } from '../../../../shared/contract';
import { AtriumError } from '../../../../shared/errors';
import { classify, findPluginRoots, type FileRole } from './classify';
import { ReviewCollector } from './collector';
import { reviewCodexConfig } from './codexConfig';
import { reviewHooksFile, reviewLspFile, reviewMcpFile } from './jsonFiles';
import { reviewGeminiCommand, reviewInstruction, reviewMarkdownResource } from './markdown';
import { reviewMarketplace, reviewPluginManifest, type PluginFileRef } from './plugins';
import { reviewSettingsFile } from './settings';
import { collectReviewFiles, mapLimit, readSource, type LinkInfo, type ReviewFileSet, type SourceText } from './sources';

/** What the review reports about the folder's trust (computed by the caller from the TrustService). */
export interface ReviewContext {
  trustRoot: string;
  state: TrustState;
}

const CONFIG_DIR_NAMES = new Set(['.claude', '.blade', '.gemini', '.codex', '.cursor', '.agents', '.windsurf', '.cline', '.clinerules', '.github', '.vscode']);

/**
 * The trust review of a folder (issue 3 "Trust review"): walks the whole tree (tracked and
 * untracked files, not what `.gitignore` ignores, never `.git`/`node_modules`; ignored well-known
 * config files are still probed), and lists every item trusting would activate: instruction and
 * rule files of every format in formats.md §0, hooks with event/matcher/literal command, MCP and
 * LSP servers, skills, commands (shell embeds → executable), subagents, plugins, output styles,
 * settings and `env` names. Parse problems are warnings (file, line, fix), never exceptions.
 * Reads files only; runs nothing.
 *
 * @param dir absolute path of the folder (a workspace folder; canonical on-disk path)
 * @throws AtriumError PATH_NOT_FOUND when `dir` does not exist or cannot be listed
 */
export async function reviewFolder(dir: string, context: ReviewContext): Promise<TrustReview> {
  const started = performance.now();
  let set: ReviewFileSet;
  let realRoot: string;
  try {
    realRoot = await fs.realpath(dir);
    set = await collectReviewFiles(dir, isCandidate);
  } catch (error) {
    throw new AtriumError('PATH_NOT_FOUND', `Cannot review "${dir}": ${(error as Error).message}. Check that the folder exists and is readable.`);
  }
  const out = new ReviewCollector();
  for (const w of set.warnings) out.warn(w);
  const read = (rel: string) => readSource(dir, realRoot, set, rel);

  // 1. plugins and marketplaces first: they decide how files below them are read
  const pluginRoots = findPluginRoots(set.files);
  const manifests = set.files.filter((rel) => classify(rel, new Map())?.role === 'pluginManifest');
  const markets = set.files.filter((rel) => classify(rel, new Map())?.role === 'marketplace');
  const refs: PluginFileRef[] = [];
  for (const src of await mapLimit(manifests, 16, read)) {
    const { root, name, refs: r } = reviewPluginManifest(src, out);
    pluginRoots.set(root, name);
    refs.push(...r);
  }
  const dirs = directoriesOf(set.files);
  for (const src of await mapLimit(markets, 16, read)) {
    for (const { root, name } of reviewMarketplace(src, dirs, out)) if (!pluginRoots.has(root)) pluginRoots.set(root, name);
  }

  // 2. every other file by its role
  const done = new Set([...manifests, ...markets]);
  const jobs: Array<{ rel: string; role: FileRole }> = [];
  for (const rel of set.files) {
    if (done.has(rel)) continue;
    const role = classify(rel, pluginRoots);
    if (role && role.role !== 'pluginManifest' && role.role !== 'marketplace') jobs.push({ rel, role });
  }
  for (const ref of refs) {
    if (done.has(ref.rel) || jobs.some((j) => j.rel === ref.rel) || !set.files.includes(ref.rel)) continue;
    const role: FileRole =
      ref.role === 'hooks'
        ? { role: 'hooksFile', tool: 'plugin', plugin: ref.plugin }
        : ref.role === 'mcp'
          ? { role: 'mcpFile', tool: 'plugin', serversKey: 'mcpServers', jsonc: false, plugin: ref.plugin }
          : { role: 'lspFile', plugin: ref.plugin };
    jobs.push({ rel: ref.rel, role });
  }
  const sources = await mapLimit(jobs, 32, (job) => read(job.rel));
  jobs.forEach((job, i) => dispatch(sources[i], job.role, out));

  // 3. links that lead out of the workspace or nowhere
  for (const info of set.links.values()) {
    if (!info.inside || !info.resolved) reportOutsideLink(info, pluginRoots, out);
  }

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

function dispatch(src: SourceText, role: FileRole, out: ReviewCollector): void {
  switch (role.role) {
    case 'instruction':
      return reviewInstruction(src, role.tool, out);
    case 'settings':
      return reviewSettingsFile(src, role.format, out);
    case 'codexConfig':
      return reviewCodexConfig(src, out);
    case 'hooksFile':
      return reviewHooksFile(src, role.tool, role.plugin, out);
    case 'mcpFile':
      return reviewMcpFile(src, role.tool, role.serversKey, role.jsonc, role.plugin, out);
    case 'lspFile':
      return reviewLspFile(src, role.plugin, out);
    case 'skill':
    case 'command':
    case 'subagent':
    case 'outputStyle':
      return reviewMarkdownResource(src, role.role, role.tool, role.plugin, out);
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

function directoriesOf(files: readonly string[]): Set<string> {
  const dirs = new Set<string>();
  for (const rel of files) {
    let d = path.posix.dirname(rel);
    while (d !== '.' && !dirs.has(d)) {
      dirs.add(d);
      d = path.posix.dirname(d);
    }
  }
  return dirs;
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
