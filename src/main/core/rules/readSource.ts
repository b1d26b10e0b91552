import path from 'node:path';
import { fileIo } from '../files/fileIo';
import type { FileReader } from '../files/scan';
import { RULE_LIMITS } from './limits';
import { pathIdentity } from '../workspaces/identity';
import { isInside } from './paths';
import { decodeText } from '../formats/unicode';


/** A file read for the catalog, or why it could not be (code, message for a person, fix). */
export type SourceRead =
  | { ok: true; text: string; hadBom: boolean; hadCrlf: boolean; bytes: number; realPath: string; linkTarget: string | null }
  | { ok: false; code: SourceProblem; message: string; fix: string | null; bytes: number; realPath: string | null; linkTarget: string | null };

/** Why a file could not be read. `missing` means it vanished between listing and reading. */
export type SourceProblem = 'missing' | 'dangling-symlink' | 'symlink-escape' | 'not-a-file' | 'too-large' | 'binary' | 'encoding' | 'unreadable';

/** Options for {@link readRuleSource}. */
export interface ReadSourceOptions {
  /** Canonical directories the real path must stay inside (null: anywhere, for user files). */
  confineTo: readonly string[] | null;
  /** Maximum size in bytes (default 1 MiB). */
  maxBytes?: number;
  /** When false only `lstat`/`stat` run (restricted mode: names and sizes, never contents). */
  readContent?: boolean;
  /**
   * The path is known to be canonical up to its last segment (a `git ls-files` entry under a
   * realpath'd root: git never descends through symlinked folders), so a regular file needs no
   * `realpath`/`stat` round trip.
   */
  canonicalParent?: boolean;
  /** Where the bytes come from (default: `fs.readFile`); a build passes its `WorkspaceScan` so a file imported twice is read once. */
  reader?: FileReader;
}

/**
 * Reads one rule or import file defensively: a symlink is followed and its
 * target reported; a dangling one, one whose real path leaves `confineTo`, a non-file, a file
 * over `maxBytes` (not read at all), a binary file and invalid UTF-8 are refused with a reason.
 * One BOM is stripped and CRLF normalised (see `decodeText`). Never throws.
 */
export async function readRuleSource(absolute: string, options: ReadSourceOptions): Promise<SourceRead> {
  const maxBytes = options.maxBytes ?? RULE_LIMITS.maxFileBytes;
  const fail = (code: SourceProblem, message: string, fix: string | null, extra: { bytes?: number; realPath?: string | null; linkTarget?: string | null } = {}): SourceRead => ({
    ok: false,
    code,
    message,
    fix,
    bytes: extra.bytes ?? 0,
    realPath: extra.realPath ?? null,
    linkTarget: extra.linkTarget ?? null,
  });
  let linkTarget: string | null = null;
  let lst: import('node:fs').Stats;
  try {
    lst = await fileIo().lstat(absolute);
    if (lst.isSymbolicLink()) linkTarget = await fileIo().readlink(absolute);
  } catch (error) {
    return fail(errnoCode(error) === 'EACCES' ? 'unreadable' : 'missing', 'The file could not be read (it may have been deleted).', null);
  }
  let realPath: string;
  let size: number;
  if (options.canonicalParent && lst.isFile()) {
    realPath = absolute;
    size = lst.size;
  } else {
    try {
      realPath = pathIdentity(await fileIo().realpath(absolute));
    } catch {
      return fail('dangling-symlink', `The symlink points to "${linkTarget}", which does not exist.`, 'Fix or delete the symlink.', { linkTarget });
    }
    if (options.confineTo && !options.confineTo.some((dir) => isInside(dir, realPath))) {
      return fail(
        'symlink-escape',
        `The file resolves to ${realPath}, outside the workspace; Atrium never follows links out of it.`,
        'Copy the file into the repository instead of linking to it.',
        { realPath, linkTarget },
      );
    }
    try {
      const st = await fileIo().stat(realPath);
      if (!st.isFile()) return fail('not-a-file', 'This path is a directory or special file, not a text file.', null, { realPath, linkTarget });
      size = st.size;
    } catch {
      return fail('unreadable', 'The file could not be read.', 'Check its permissions.', { realPath, linkTarget });
    }
  }
  if (size > maxBytes) {
    return fail('too-large', `The file is ${formatBytes(size)}, above the ${formatBytes(maxBytes)} limit, so it is not read.`, 'Split it into smaller files or move reference material out of the rule.', {
      bytes: size,
      realPath,
      linkTarget,
    });
  }
  if (options.readContent === false) return { ok: true, text: '', hadBom: false, hadCrlf: false, bytes: size, realPath, linkTarget };
  let buffer: Buffer;
  try {
    buffer = options.reader ? await options.reader.readBytes(realPath) : await fileIo().readFile(realPath);
  } catch {
    return fail('unreadable', 'The file could not be read.', 'Check its permissions.', { bytes: size, realPath, linkTarget });
  }
  if (buffer.length > maxBytes) return fail('too-large', `The file is ${formatBytes(buffer.length)}, above the ${formatBytes(maxBytes)} limit.`, 'Split it into smaller files.', { bytes: buffer.length, realPath, linkTarget });
  const decoded = decodeText(buffer);
  if (!decoded.ok) {
    return fail(decoded.reason, decoded.message, decoded.reason === 'binary' ? 'Rule files must be UTF-8 text.' : 'Re-save the file as UTF-8.', { bytes: buffer.length, realPath, linkTarget });
  }
  return { ok: true, text: decoded.text, hadBom: decoded.hadBom, hadCrlf: decoded.hadCrlf, bytes: buffer.length, realPath, linkTarget };
}

/** Human size: "512 B", "4.0 KiB", "5.0 MiB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** Path of a link target for display: root-relative when inside `root`, else absolute. */
export function displayLinkTarget(root: string, realPath: string): string {
  return isInside(root, realPath) ? path.relative(root, realPath).split(path.sep).join('/') : realPath;
}
