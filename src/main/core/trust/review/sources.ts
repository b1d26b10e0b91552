import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { TrustWarning } from '../../../../shared/contract';
import { ALWAYS_SKIPPED_DIRS } from '../../files/listWorkspaceFiles';
import { directFileAccess, type FileAccess, type FileReader } from '../../files/scan';
import { isAncestorOrSelf } from '../../workspaces/paths';

/** Files larger than this are listed but not parsed (bytes). */
export const MAX_INSPECT_BYTES = 4 * 1024 * 1024;
/** At most this many files are taken from inside linked directories. */
const MAX_LINKED_FILES = 5000;

/**
 * Configuration files agents read even when git ignores them (personal files such as
 * `.claude/settings.local.json` are usually ignored); the review probes them at the top level so
 * an ignored file cannot hide a hook.
 */
const IGNORED_BUT_READ = [
  'AGENTS.md',
  'AGENTS.override.md',
  'CLAUDE.md',
  'CLAUDE.local.md',
  'GEMINI.md',
  'BLADE.md',
  '.mcp.json',
  '.lsp.json',
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.blade/settings.json',
  '.blade/settings.local.json',
  '.blade/config.json',
  '.gemini/settings.json',
  '.codex/hooks.json',
  '.codex/config.toml',
  '.cursor/mcp.json',
  '.cursor/hooks.json',
  '.vscode/mcp.json',
];

/** Where a listed path comes from when it is (or is inside) a symbolic link. */
export interface LinkInfo {
  /** The link's workspace-relative path. */
  link: string;
  /** What the link stores (readlink). */
  target: string;
  /** Resolved target (absolute) or null when dangling. */
  resolved: string | null;
  inside: boolean;
  isDirectory: boolean;
}

/** The files a review looks at. */
export interface ReviewFileSet {
  /** Workspace-relative POSIX paths: listed files plus files inside linked directories within the workspace. */
  files: string[];
  /** Symbolic links among the listed entries, by their relative path. */
  links: Map<string, LinkInfo>;
  /** Well-known configuration files that exist but git ignores (also contained in `files`). */
  ignored: Set<string>;
  warnings: TrustWarning[];
}

/**
 * Lists a workspace for review: `listWorkspaceFiles` (tracked + untracked-not-ignored, never
 * `.git`/`node_modules`), plus ignored well-known config files, plus the contents of symbolic links
 * to directories inside the workspace (links are not followed out of it). `isCandidate` says which
 * entries may matter, so only those (and extension-less names, which may be linked directories)
 * are `lstat`ed. The listing comes from `files` (the review's scan, which the extension discovery
 * then reuses instead of listing again). Throws only when `root` itself cannot be read.
 */
export async function collectReviewFiles(root: string, isCandidate: (rel: string) => boolean, files: FileAccess = directFileAccess): Promise<ReviewFileSet> {
  const listing = await files.list(root);
  const found = [...listing.files];
  const known = new Set(found);
  const warnings: TrustWarning[] = [];
  const ignored = new Set<string>();
  for (const rel of IGNORED_BUT_READ) {
    if (known.has(rel)) continue;
    try {
      const st = await fs.lstat(path.join(root, rel));
      if (st.isFile() || st.isSymbolicLink()) {
        found.push(rel);
        known.add(rel);
        ignored.add(rel);
      }
    } catch {
      // absent: nothing to review
    }
  }

  const realRoot = await fs.realpath(root);
  const links = new Map<string, LinkInfo>();
  const toCheck = found.filter((rel) => isCandidate(rel) || path.posix.extname(rel) === '');
  await mapLimit(toCheck, 64, async (rel) => {
    const abs = path.join(root, rel);
    let st;
    try {
      st = await fs.lstat(abs);
    } catch {
      return;
    }
    if (!st.isSymbolicLink()) return;
    let target = '';
    try {
      target = await fs.readlink(abs);
    } catch {
      return;
    }
    let resolved: string | null = null;
    let isDirectory = false;
    try {
      resolved = await fs.realpath(abs);
      isDirectory = (await fs.stat(resolved)).isDirectory();
    } catch {
      resolved = null;
    }
    links.set(rel, { link: rel, target, resolved, inside: resolved !== null && isAncestorOrSelf(realRoot, resolved), isDirectory });
  });

  let budget = MAX_LINKED_FILES;
  for (const info of [...links.values()].sort((a, b) => (a.link < b.link ? -1 : 1))) {
    if (!info.isDirectory || !info.inside || !info.resolved || budget <= 0) continue;
    // a link to one of its own ancestors (e.g. `a/loop -> ..`) would list the tree again: skip it
    if (isAncestorOrSelf(info.resolved, path.join(realRoot, path.posix.dirname(info.link)))) continue;
    const inner = await listDirectory(info.resolved, 8, budget);
    budget -= inner.length;
    for (const sub of inner) {
      const rel = `${info.link}/${sub}`;
      if (!known.has(rel)) {
        known.add(rel);
        found.push(rel);
      }
    }
  }
  if (budget <= 0) {
    warnings.push({ path: '.', line: null, message: `linked folders hold more than ${MAX_LINKED_FILES} files; the rest was not reviewed`, fix: 'Review the linked folders directly.' });
  }
  return { files: found, links, ignored, warnings };
}

/** Files below `dir` (relative POSIX), not following links, skipping `.git`/`node_modules`. */
async function listDirectory(dir: string, maxDepth: number, limit: number): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string, depth: number): Promise<void> => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fs.readdir(path.join(dir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (out.length >= limit) return;
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!ALWAYS_SKIPPED_DIRS.has(e.name) && depth < maxDepth) await walk(child, depth + 1);
      } else {
        out.push(child);
      }
    }
  };
  await walk('', 0);
  return out;
}

/** The text of a source file, or why there is none. */
export interface SourceText {
  rel: string;
  /** UTF-8 text, or null when the file could not (or must not) be read. */
  text: string | null;
  /** Why `text` is null, or notices about how the file was reached. */
  warnings: TrustWarning[];
  /** Set when the file itself is a symbolic link. */
  linkTarget?: string;
  /** True when git ignores the file (it is read by agents anyway). */
  ignored: boolean;
}

/**
 * Reads one file for review. Never throws. Refuses (with a warning) files whose real location is
 * outside the workspace, dangling links, non-files and files over {@link MAX_INSPECT_BYTES}.
 * The content comes from `files` (the review's scan: a file the extension discovery read already
 * is not read again).
 */
export async function readSource(root: string, realRoot: string, set: ReviewFileSet, rel: string, files: FileReader = directFileAccess): Promise<SourceText> {
  const ignored = set.ignored.has(rel);
  const link = set.links.get(rel);
  const base: SourceText = { rel, text: null, warnings: [], ignored, linkTarget: link?.target };
  if (ignored) {
    base.warnings.push({ path: rel, line: null, message: 'git ignores this file, but agents still read it', fix: null });
  }
  if (link && !link.resolved) {
    base.warnings.push({ path: rel, line: null, message: `symbolic link to "${link.target}", which does not exist; nothing is loaded from it today`, fix: 'Remove the link, or restore its target inside the workspace.' });
    return base;
  }
  if (link && !link.inside) {
    base.warnings.push({ path: rel, line: null, message: `symbolic link to "${link.target}" (${link.resolved}), outside the workspace; its content was not inspected but an agent would load it`, fix: 'Review the linked file yourself, or replace the link with a copy inside the workspace.' });
    return base;
  }
  const abs = path.join(root, rel);
  try {
    const real = await fs.realpath(abs);
    if (!isAncestorOrSelf(realRoot, real)) {
      base.warnings.push({ path: rel, line: null, message: `resolves to ${real}, outside the workspace; its content was not inspected`, fix: 'Review the linked file yourself.' });
      return base;
    }
    const st = await fs.stat(real);
    if (!st.isFile()) return base;
    if (st.size > MAX_INSPECT_BYTES) {
      base.warnings.push({ path: rel, line: null, message: `too large to inspect (${(st.size / 1048576).toFixed(1)} MiB)`, fix: 'Open the file yourself before trusting the folder.' });
      return base;
    }
    base.text = await files.readText(real);
  } catch (error) {
    base.warnings.push({ path: rel, line: null, message: `could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`, fix: 'Check the file permissions.' });
  }
  return base;
}

/** Runs `fn` over `items` with at most `limit` in flight. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
