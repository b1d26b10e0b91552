import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseTomlText } from '../../formats/toml';
import { RULE_LIMITS } from '../limits';
import { homeDisplay, isInside, relativeToRoot, scopeContains, toPosix } from '../paths';
import { formatBytes } from '../readSource';
import { ignoredRow, loadedRow, ViewContext, type AgentView, type AgentViewFile, type Probe } from './common';

const INSTRUCTION_FORMATS: ReadonlySet<string> = new Set(['claude', 'claude-local', 'gemini', 'blade', 'cursor-legacy', 'copilot']);
const OVERRIDE = 'AGENTS.override.md';
const DEFAULT = 'AGENTS.md';

/** The `config.toml` keys that decide what Codex 0.166.0 reads as project docs. */
export interface CodexDocConfig {
  /** `project_doc_max_bytes`: the byte budget shared by all project docs (0 = none read). Default 32 KiB. */
  maxBytes: number;
  /** `project_doc_fallback_filenames`: names tried after AGENTS.override.md and AGENTS.md, in order. */
  fallbackFilenames: string[];
  /** `project_root_markers`: names whose presence (file, folder or symlink) marks the project root. Default `[".git"]`; `[]` = no root. */
  rootMarkers: string[];
  /** Absolute folders the user config marks `[projects."<dir>"] trust_level = "trusted"`. */
  trustedProjects: string[];
  /** Problems reading the config, worded for the view's notes. */
  notes: string[];
}

/** The doc keys one config.toml layer sets (only the valid ones), or null when it is absent. */
interface CodexLayer {
  maxBytes?: number;
  fallbackFilenames?: string[];
  rootMarkers?: string[];
  trustedProjects: string[];
}

async function readLayer(file: string, notes: string[]): Promise<CodexLayer | null> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    return null;
  }
  const layer: CodexLayer = { trustedProjects: [] };
  const parsed = parseTomlText(text);
  if (!parsed.ok) {
    notes.push(`${toPosix(file)} is not valid TOML${parsed.line ? ` (line ${parsed.line}, column ${parsed.column})` : ''}: ${parsed.reason}. Codex refuses to start with it; this view ignores it.`);
    return layer;
  }
  const v = parsed.value;
  const max = v.project_doc_max_bytes;
  if (max !== undefined) {
    if ((typeof max === 'number' || typeof max === 'bigint') && Number.isInteger(Number(max)) && Number(max) >= 0) layer.maxBytes = Number(max);
    else notes.push(`project_doc_max_bytes in ${toPosix(file)} must be a whole number of bytes ≥ 0: Codex refuses this config; this view ignores the value.`);
  }
  const fallback = v.project_doc_fallback_filenames;
  if (fallback !== undefined) {
    if (Array.isArray(fallback) && fallback.every((x) => typeof x === 'string')) layer.fallbackFilenames = fallback as string[];
    else notes.push(`project_doc_fallback_filenames in ${toPosix(file)} must be a list of file names: Codex refuses this config; this view ignores the value.`);
  }
  const markers = v.project_root_markers;
  if (markers !== undefined) {
    if (Array.isArray(markers) && markers.every((x) => typeof x === 'string')) layer.rootMarkers = markers as string[];
    else notes.push(`project_root_markers in ${toPosix(file)} must be a list of strings: Codex warns and uses [".git"].`);
  }
  const projects = v.projects;
  if (projects && typeof projects === 'object' && !Array.isArray(projects)) {
    for (const [dir, entry] of Object.entries(projects as Record<string, unknown>)) {
      if (entry && typeof entry === 'object' && (entry as Record<string, unknown>).trust_level === 'trusted') layer.trustedProjects.push(path.resolve(dir));
    }
  }
  return layer;
}

/**
 * Reads `<codexHome>/config.toml` the way Codex 0.166.0 applies it to project docs: a missing file
 * gives the defaults; malformed TOML, or `project_doc_max_bytes` / `project_doc_fallback_filenames`
 * of the wrong type, make Codex refuse the config (the view keeps the defaults and says so); a bad
 * `project_root_markers` only makes Codex warn and use `[".git"]`. Never throws.
 */
export async function readCodexDocConfig(codexHome: string): Promise<CodexDocConfig> {
  const notes: string[] = [];
  const layer = await readLayer(path.join(codexHome, 'config.toml'), notes);
  return {
    maxBytes: layer?.maxBytes ?? RULE_LIMITS.codexBudgetBytes,
    fallbackFilenames: layer?.fallbackFilenames ?? [],
    rootMarkers: layer?.rootMarkers ?? ['.git'],
    trustedProjects: layer?.trustedProjects ?? [],
    notes,
  };
}

/** Candidate names per folder as Codex 0.166.0 orders them: override, AGENTS.md, then the non-empty, not yet listed fallbacks. */
function candidateNames(fallbacks: readonly string[]): string[] {
  const names = [OVERRIDE, DEFAULT];
  for (const f of fallbacks) if (f && !names.includes(f)) names.push(f);
  return names;
}

/** True when `absolute` exists (following symlinks), as Rust's `fs::metadata(..).is_ok()`. */
async function exists(absolute: string): Promise<boolean> {
  try {
    await fs.stat(absolute);
    return true;
  } catch {
    return false;
  }
}

/** The first ancestor-or-self of `start` (absolute) holding one of `markers`, or null. */
async function findProjectRoot(start: string, markers: readonly string[]): Promise<string | null> {
  if (markers.length === 0) return null;
  for (let dir = start; ; dir = path.dirname(dir)) {
    for (const m of markers) if (await exists(path.join(dir, m))) return dir;
    if (path.dirname(dir) === dir) return null;
  }
}

/** Absolute folders from `root` down to `start` (both inclusive); `start` must be inside `root`. */
function foldersDown(root: string, start: string): string[] {
  const out = [start];
  for (let dir = start; dir !== root; ) {
    const parent = path.dirname(dir);
    if (parent === dir) break;
    out.push(parent);
    dir = parent;
  }
  return out.reverse();
}

/**
 * What Codex 0.166.0 (codex-acp 2.6.0) sends from `fromRel` (codex-rs/core/src/project_doc.rs and
 * config_loader): the global `$CODEX_HOME/AGENTS.override.md`, else `AGENTS.md` (first non-empty,
 * trimmed, outside the budget); then the project root = the first ancestor of the start folder with
 * a `project_root_markers` entry (default `.git`, file or folder, so a nested worktree or submodule
 * is its own root; no marker = the start folder alone); from that root down to the start folder,
 * per folder the first existing of `AGENTS.override.md`, `AGENTS.md`, then
 * `project_doc_fallback_filenames` (a whitespace-only file still wins its folder and adds nothing),
 * read root-first into one `project_doc_max_bytes` budget (default 32 KiB) that cuts silently.
 * `content` is Codex's own user message: `# AGENTS.md instructions for <cwd>\n\n<INSTRUCTIONS>\n`
 * global, `\n\n--- project-doc ---\n\n`, the docs joined by a blank line (raw bytes, not trimmed),
 * `\n</INSTRUCTIONS>`. When the user's config trusts the project (`[projects."<git root>"]
 * trust_level = "trusted"`, keyed by the git root, measured), Codex also applies the project's
 * `.codex/config.toml` files from the root down to the start folder (deeper wins) for the two
 * `project_doc_*` keys, never for `project_root_markers`. A doc that resolves outside the workspace is counted (Codex reads it) but
 * never read or shown here. Sizes come from the disk, so the cut is exact even in restricted mode.
 * `codexHome` (absolute) defaults to `<homeDir>/.codex`.
 */
export async function codexView(ctx: ViewContext, fromRel: string, targetRel: string | null = null, codexHome?: string): Promise<AgentView> {
  const files: AgentViewFile[] = [];
  const notes = [
    'As Codex 0.166.0 (codex-acp 2.6.0) loads it.',
    'Codex does not expand @imports: @path lines reach the model as plain text.',
    'Codex keeps a UTF-8 BOM as an invisible U+FEFF character.',
    'Codex does not read rule folders (.claude/rules, .cursor/rules, .github/instructions).',
    'Codex reads project docs once, at start: touching a file below the start folder adds nothing.',
  ];
  const root = ctx.catalog.root;
  const home = codexHome ?? path.join(ctx.catalog.homeDir, '.codex');
  const homeShown = (abs: string) => (isInside(ctx.catalog.homeDir, abs) ? homeDisplay(ctx.catalog.homeDir, abs) : toPosix(abs));
  const config = await readCodexDocConfig(home);
  notes.push(...config.notes);

  let globalText = '';
  for (const name of [OVERRIDE, DEFAULT]) {
    const abs = path.join(home, name);
    const probe = await ctx.probeAbsolute(abs, homeShown(abs));
    if (!probe) continue;
    const text = rustTrim((await readPrefix(probe.absolute, probe.size))?.toString('utf8') ?? '');
    if (globalText) files.push(ignoredRow(probe.display, probe.size, `Codex uses only the first non-empty global file (${OVERRIDE} wins).`));
    else if (text === '') files.push({ ...ignoredRow(probe.display, probe.size, 'Empty: Codex falls back to the next global file.'), status: 'skipped' });
    else {
      globalText = text;
      files.push(loadedRow(probe.display, probe.size, 'start', 'Global instructions, loaded in full (not counted in the project budget).'));
    }
  }

  const start = fromRel ? path.join(root, ...fromRel.split('/')) : root;
  const projectRoot = await findProjectRoot(start, config.rootMarkers);
  // A project Codex trusts adds its .codex/config.toml layers (root down to the start folder, the
  // deeper one wins), except for project_root_markers, which only the user's config sets.
  const trustKey = (await findProjectRoot(start, ['.git'])) ?? start;
  if (config.trustedProjects.includes(trustKey)) {
    if (ctx.catalog.trust !== 'trusted') notes.push("The project is trusted in Codex's config.toml, so Codex also reads its .codex/config.toml files; restricted mode: Atrium does not read them.");
    else {
      for (const dir of projectRoot === null ? [start] : foldersDown(projectRoot, start)) {
        const file = path.join(dir, '.codex', 'config.toml');
        if (!isInside(root, dir)) continue;
        const layer = await readLayer(file, notes);
        if (!layer) continue;
        const applied: string[] = [];
        if (layer.maxBytes !== undefined) {
          config.maxBytes = layer.maxBytes;
          applied.push(`project_doc_max_bytes = ${layer.maxBytes}`);
        }
        if (layer.fallbackFilenames) {
          config.fallbackFilenames = layer.fallbackFilenames;
          applied.push('project_doc_fallback_filenames');
        }
        if (layer.rootMarkers) notes.push(`${relativeToRoot(root, file)} sets project_root_markers: Codex ignores it there (only the user's config.toml can).`);
        if (applied.length) notes.push(`${relativeToRoot(root, file)} applies (the project is trusted in Codex's config.toml): ${applied.join(', ')}.`);
      }
    }
  }
  if (config.maxBytes === 0) notes.push('project_doc_max_bytes = 0: Codex reads no project docs.');
  else if (projectRoot === null) notes.push(`No ${config.rootMarkers.length ? config.rootMarkers.join(' or ') : 'project root marker'} above the start folder: Codex reads only the start folder.`);
  else if (projectRoot !== root) {
    const rel = relativeToRoot(root, projectRoot);
    notes.push(rel === null ? `Codex's project root is ${toPosix(projectRoot)}, above the workspace (first folder with ${config.rootMarkers.join(' or ')}).` : `Codex's project root is ${rel} (its own ${config.rootMarkers.join(' or ')}): nothing above it is read.`);
  }
  const dirs = config.maxBytes === 0 ? [] : projectRoot === null ? [start] : foldersDown(projectRoot, start);
  const names = candidateNames(config.fallbackFilenames);

  let remaining = config.maxBytes;
  let used = 0;
  const docs: string[] = [];
  let failed = false;
  const chainRel = new Set<string>();
  for (const dir of dirs) {
    const dirRel = relativeToRoot(root, dir);
    if (dirRel !== null) chainRel.add(dirRel);
    const shown = (name: string) => (dirRel === null ? toPosix(path.join(dir, name)) : dirRel ? `${dirRel}/${name}` : name);
    let chosen: { name: string; probe: Probe | null } | null = null;
    for (const name of names) {
      const abs = path.join(dir, name);
      let lst;
      try {
        lst = await fs.lstat(abs);
      } catch {
        continue;
      }
      if (!lst.isFile() && !lst.isSymbolicLink()) continue;
      if (chosen) {
        const p = await ctx.probeAbsolute(abs, shown(name));
        files.push(ignoredRow(shown(name), p?.size ?? 0, `${shown(chosen.name)} in the same folder takes precedence; Codex reads one file per folder.`));
        continue;
      }
      chosen = { name, probe: await ctx.probeAbsolute(abs, shown(name)) };
      if (!chosen.probe) {
        const isDir = await fs.stat(abs).then((s) => s.isDirectory(), () => false);
        if (isDir) {
          failed = true;
          files.push({ ...ignoredRow(shown(name), 0, 'A symlink to a folder: Codex fails reading it and drops ALL project docs (it logs an error).'), status: 'skipped' });
        } else files.push({ ...ignoredRow(shown(name), 0, `A dangling symlink: Codex picks it for this folder, finds no file and reads nothing here (${names.filter((n) => n !== name).join(', ')} are not tried).`), status: 'skipped' });
      }
    }
    if (!chosen?.probe) continue;
    const row = await budgetRow(ctx, chosen.probe, dirRel === null ? toPosix(chosen.probe.absolute) : chosen.probe.outside ?? null, remaining, config.maxBytes, chosen.name === OVERRIDE);
    files.push(row.file);
    remaining -= row.consumed;
    used += row.consumed;
    if (row.text !== null) docs.push(row.text);
  }
  if (failed) docs.length = 0;

  for (const f of ctx.catalog.files) {
    if (f.source === 'user') continue;
    const dir = f.relativePath.includes('/') ? f.relativePath.slice(0, f.relativePath.lastIndexOf('/')) : '';
    const base = f.relativePath.slice(dir ? dir.length + 1 : 0);
    if (files.some((r) => r.path === f.relativePath)) continue;
    if (f.format === 'agents' || f.format === 'agents-override' || names.includes(base)) {
      if (chainRel.has(dir)) continue;
      if (config.maxBytes === 0) {
        if (scopeContains(dir, fromRel)) files.push(ignoredRow(f.relativePath, f.bytes, 'project_doc_max_bytes = 0: Codex reads no project docs.'));
      } else if (scopeContains(fromRel, dir)) files.push(ignoredRow(f.relativePath, f.bytes, 'Below the start folder: Codex reads only the folders from the project root down to where it starts.'));
      else if (scopeContains(dir, fromRel)) files.push(ignoredRow(f.relativePath, f.bytes, "Above Codex's project root (the nearest folder with a root marker): Codex does not read it."));
    } else if (chainRel.has(f.scope) && INSTRUCTION_FORMATS.has(f.format)) {
      // A CLAUDE.md -> AGENTS.md symlink is not missing from Codex: its text arrives as AGENTS.md.
      const twin = f.realPath ? ctx.catalog.files.find((o) => o !== f && o.realPath === f.realPath && files.some((r) => r.path === o.relativePath && r.loadedBytes > 0)) : undefined;
      files.push(ignoredRow(f.relativePath, f.bytes, twin ? `Same file as ${twin.relativePath}, which Codex reads: its text is already in.` : 'Codex reads only AGENTS.override.md or AGENTS.md (list this name in project_doc_fallback_filenames to include it).'));
    }
  }

  let body = globalText;
  if (docs.length) body += `${body ? '\n\n--- project-doc ---\n\n' : ''}${docs.join('\n\n')}`;
  return {
    agent: 'codex',
    fromDir: fromRel,
    targetPath: targetRel,
    budgetBytes: config.maxBytes,
    usedBytes: used + Buffer.byteLength(globalText),
    files,
    notes,
    content: body ? `# AGENTS.md instructions for ${toPosix(start)}\n\n<INSTRUCTIONS>\n${body}\n</INSTRUCTIONS>` : '',
  };
}

/**
 * One project doc against the remaining budget. `outside` = where the file really is when that is
 * outside the workspace: Codex reads it, Atrium reports its size only and never reads it.
 */
async function budgetRow(ctx: ViewContext, p: Probe, outside: string | null, remaining: number, max: number, isOverride: boolean): Promise<{ file: AgentViewFile; consumed: number; text: string | null }> {
  const base = { path: p.display, bytes: p.size, when: 'start' as const };
  if (remaining <= 0) {
    return { file: { ...base, loadedBytes: 0, status: 'cut', when: null, reason: `Not read: earlier files used up the ${formatBytes(max)} budget.`, truncatedAt: null }, consumed: 0, text: null };
  }
  const take = Math.min(p.size, remaining);
  if (outside) {
    const reason = `Codex would read ${outside} (outside the workspace), ${formatBytes(p.size)}${p.size > remaining ? `, cut at byte ${remaining}` : ''}; Atrium does not read it or show its text.`;
    return { file: { ...base, loadedBytes: take, status: 'restricted', reason, truncatedAt: p.size > remaining ? remaining : null }, consumed: take, text: null };
  }
  const readable = ctx.readable(p);
  const raw = readable ? await readPrefix(p.absolute, take) : null;
  if (raw !== null && rustTrim(raw.toString('utf8')) === '') {
    const reason = isOverride ? 'Empty, but it still wins its folder, so AGENTS.md here is not used either.' : 'Empty (whitespace only): Codex skips it and reads no other file in this folder.';
    return { file: { ...base, loadedBytes: 0, status: 'skipped', when: null, reason, truncatedAt: null }, consumed: 0, text: null };
  }
  const restricted = readable ? '' : ' (restricted mode: size only)';
  if (p.size > remaining) {
    const splitsChar = raw !== null && raw.length > 0 && isInsideCharacter(raw);
    const reason = `Truncated at byte ${remaining} of ${p.size}: Codex drops the last ${formatBytes(p.size - remaining)} silently${splitsChar ? ' and the cut splits a character (U+FFFD)' : ''}.${restricted}`;
    return { file: { ...base, loadedBytes: remaining, status: 'truncated', reason, truncatedAt: remaining }, consumed: remaining, text: raw?.toString('utf8') ?? null };
  }
  return { file: { ...loadedRow(p.display, p.size, 'start', `Project instructions, ${formatBytes(p.size)} of the shared budget.${restricted}`) }, consumed: p.size, text: raw?.toString('utf8') ?? null };
}

/** Rust's `str::trim` (Unicode White_Space; unlike JS `trim`, U+FEFF stays and U+0085 goes). */
function rustTrim(s: string): string {
  return s.replace(/^[\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g, '');
}

async function readPrefix(absolute: string, bytes: number): Promise<Buffer | null> {
  try {
    const handle = await fs.open(absolute, 'r');
    try {
      const buffer = Buffer.alloc(bytes);
      const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
}

/** True when the buffer ends inside a multi-byte UTF-8 sequence. */
function isInsideCharacter(buffer: Buffer): boolean {
  let i = buffer.length - 1;
  let continuation = 0;
  while (i >= 0 && (buffer[i] & 0xc0) === 0x80 && continuation < 4) {
    continuation++;
    i--;
  }
  if (i < 0) return false;
  const lead = buffer[i];
  const needed = lead >= 0xf0 ? 3 : lead >= 0xe0 ? 2 : lead >= 0xc0 ? 1 : 0;
  return needed > continuation;
}
