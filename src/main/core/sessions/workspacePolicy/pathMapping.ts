import path from 'node:path';
import { canonicalizeTarget } from '../../rules/paths';
import { isInside } from '../confine';

/**
 * How a session's execution directory relates to its source project (seed §6 path mapping). For a
 * session in the workspace folder both roots are the same; for a worktree session `execRoot` is the
 * worktree's top folder and `sourceRoot` the repository's main checkout, so a path the agent
 * touches in the worktree is matched against the rules of the same path in the source project.
 */
export interface PathMapping {
  /** Canonical folder paths are resolved against (the session's cwd). */
  cwd: string;
  /** Canonical top of the execution tree (worktree top, or the source root itself). */
  execRoot: string;
  /** Canonical top of the source tree the rule catalog covers. */
  sourceRoot: string;
}

/**
 * Maps one path the agent touched to the source project (seed §6 `resolveContextualProjectRules`):
 * relative paths resolve against the session's cwd; a path inside `execRoot` is re-based onto
 * `sourceRoot` (same relative path); a path already inside `sourceRoot` is kept; anything else is
 * dropped (null). Symlinks are resolved as far as the path exists. Never throws.
 */
export function toSourcePath(p: unknown, mapping: PathMapping): string | null {
  if (typeof p !== 'string' || !p || p.length > 4096 || p.includes('\0')) return null;
  let absolute: string;
  try {
    absolute = canonicalizeTarget(path.resolve(mapping.cwd, p));
  } catch {
    return null;
  }
  if (mapping.execRoot !== mapping.sourceRoot && isInside(absolute, mapping.execRoot)) {
    const rel = path.relative(mapping.execRoot, absolute);
    return rel ? path.join(mapping.sourceRoot, rel) : mapping.sourceRoot;
  }
  if (isInside(absolute, mapping.sourceRoot)) return absolute;
  return null;
}

/** {@link toSourcePath} over many paths: mapped, de-duplicated, in first-seen order. */
export function toSourcePaths(paths: readonly unknown[], mapping: PathMapping): string[] {
  const out = new Set<string>();
  for (const p of paths) {
    const mapped = toSourcePath(p, mapping);
    if (mapped) out.add(mapped);
  }
  return [...out];
}

/** The counterpart in the execution tree of a folder of the source tree (e.g. the workspace folder inside a worktree). */
export function toExecutionPath(sourcePath: string, mapping: PathMapping): string {
  if (mapping.execRoot === mapping.sourceRoot || !isInside(sourcePath, mapping.sourceRoot)) return sourcePath;
  const rel = path.relative(mapping.sourceRoot, sourcePath);
  return rel ? path.join(mapping.execRoot, rel) : mapping.execRoot;
}

/**
 * Paths named by a tool call or a tool input (seed §6 candidate paths): `locations[].path`, and in
 * a raw input the keys `file_path`, `notebook_path`, `path`, `filePath`, `cwd`, `source`,
 * `target`. Tolerates any shape (agents are untrusted).
 */
export function pathsOfToolCall(toolCall: unknown): string[] {
  const out: string[] = [];
  if (!toolCall || typeof toolCall !== 'object') return out;
  const tc = toolCall as { locations?: unknown; rawInput?: unknown };
  if (Array.isArray(tc.locations)) {
    for (const l of tc.locations.slice(0, 200)) if (l && typeof (l as { path?: unknown }).path === 'string') out.push((l as { path: string }).path);
  }
  out.push(...pathsOfInput(tc.rawInput));
  return out;
}

/** Path-like fields of a tool input object (see {@link pathsOfToolCall}). */
export function pathsOfInput(input: unknown): string[] {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return [];
  const r = input as Record<string, unknown>;
  return ['file_path', 'notebook_path', 'path', 'filePath', 'cwd', 'source', 'target'].map((k) => r[k]).filter((v): v is string => typeof v === 'string');
}
