import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AtriumError } from '../../../shared/errors';

/** Largest file `fs/read_text_file` reads, in bytes; bigger files are refused with an error naming them. */
export const MAX_READ_BYTES = 64 * 1024 * 1024;

/**
 * ACP `fs/read_text_file`: the file's text, or `limit` lines starting at 1-based `line`
 * (either may be absent). The path must already be confined (see `confinePath`).
 * @throws AtriumError NOT_A_FILE | PATH_NOT_FOUND | PATH_UNREADABLE
 */
export function readTextSlice(resolvedPath: string, line?: number | null, limit?: number | null): string {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(resolvedPath);
  } catch {
    throw new AtriumError('PATH_NOT_FOUND', `"${resolvedPath}" does not exist.`);
  }
  if (!stat.isFile()) throw new AtriumError('NOT_A_FILE', `"${resolvedPath}" is not a file.`);
  if (stat.size > MAX_READ_BYTES) throw new AtriumError('PATH_UNREADABLE', `"${resolvedPath}" is ${stat.size} bytes; Atrium reads text files up to ${MAX_READ_BYTES} bytes.`);
  let text: string;
  try {
    text = fs.readFileSync(resolvedPath, 'utf8');
  } catch (error) {
    throw new AtriumError('PATH_UNREADABLE', `Cannot read "${resolvedPath}": ${(error as Error).message}`);
  }
  if ((line === undefined || line === null) && (limit === undefined || limit === null)) return text;
  const lines = text.split(/(?<=\n)/);
  const start = Math.max(0, (line ?? 1) - 1);
  const end = limit === undefined || limit === null ? lines.length : start + Math.max(0, limit);
  return lines.slice(start, end).join('');
}

/**
 * ACP `fs/write_text_file`, atomically: the content goes to a temporary file in the same folder,
 * is flushed to disk, then renamed over the target, so readers never see half a file. An existing
 * file keeps its permission bits. Parent folders are created. The path must already be confined.
 * @throws AtriumError NOT_A_FILE (target is a directory) | PATH_UNREADABLE (cannot write)
 */
export function writeTextAtomic(resolvedPath: string, content: string): void {
  let mode = 0o644;
  try {
    const st = fs.statSync(resolvedPath);
    if (st.isDirectory()) throw new AtriumError('NOT_A_FILE', `"${resolvedPath}" is a folder, not a file.`);
    mode = st.mode & 0o7777;
  } catch (error) {
    if (error instanceof AtriumError) throw error;
  }
  const dir = path.dirname(resolvedPath);
  const temp = path.join(dir, `.${path.basename(resolvedPath)}.atrium-${crypto.randomBytes(4).toString('hex')}.tmp`);
  try {
    fs.mkdirSync(dir, { recursive: true });
    const fd = fs.openSync(temp, 'wx', mode);
    try {
      fs.writeFileSync(fd, content, 'utf8');
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.chmodSync(temp, mode);
    fs.renameSync(temp, resolvedPath);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw new AtriumError('PATH_UNREADABLE', `Cannot write "${resolvedPath}": ${(error as Error).message}`);
  }
}
