/**
 * Bounded file-system reads for the coverage analysis: existence checks, Node's resolution of a
 * relative specifier, the nearest file upwards, and the head of a file (never more than
 * {@link MAX_ANALYZED_BYTES}). Each answers null or false instead of throwing.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { MAX_ANALYZED_BYTES } from './types';

/** True when `abs` is a regular file (following symlinks). */
export async function isFile(abs: string): Promise<boolean> {
  try {
    return (await fs.stat(abs)).isFile();
  } catch {
    return false;
  }
}

/** True when `abs` is a directory (following symlinks). */
export async function isDir(abs: string): Promise<boolean> {
  try {
    return (await fs.stat(abs)).isDirectory();
  } catch {
    return false;
  }
}

/** Node's file resolution for a relative specifier (exact, extensions, package.json `main`, index). */
export async function resolveNode(base: string): Promise<string | null> {
  if (await isFile(base)) return base;
  for (const ext of ['.js', '.mjs', '.cjs', '.json', '.ts', '.mts', '.cts', '.node']) if (await isFile(base + ext)) return base + ext;
  if (await isDir(base)) {
    const pkg = path.join(base, 'package.json');
    if (await isFile(pkg)) {
      try {
        const main = (JSON.parse((await readHead(pkg))?.text ?? '{}') as { main?: unknown }).main;
        if (typeof main === 'string') {
          const m = await resolveNode(path.resolve(base, main));
          if (m) return m;
        }
      } catch {
        // an invalid package.json: node falls back to index.js
      }
    }
    for (const ext of ['.js', '.mjs', '.cjs', '.json', '.node']) if (await isFile(path.join(base, `index${ext}`))) return path.join(base, `index${ext}`);
  }
  return null;
}

/** The nearest `rel` from `dir` upwards, not above `stop` (the project folder) unless dir is outside it. */
export async function findUp(dir: string, rel: string, stop: string): Promise<string | null> {
  let d = dir;
  for (let i = 0; i < 64; i++) {
    const candidate = path.join(d, rel);
    if (await isFile(candidate)) return candidate;
    if (d === stop || path.dirname(d) === d) return null;
    d = path.dirname(d);
  }
  return null;
}

/** The first `max` bytes of a file as UTF-8 (never more, whatever its size), or null when unreadable. */
export async function readHead(abs: string, max = MAX_ANALYZED_BYTES): Promise<{ text: string; truncated: boolean } | null> {
  let fh: fs.FileHandle | null = null;
  try {
    fh = await fs.open(abs, 'r');
    const st = await fh.stat();
    if (!st.isFile()) return null;
    const buf = Buffer.alloc(Math.min(max, st.size));
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return { text: buf.subarray(0, bytesRead).toString('utf8'), truncated: st.size > max };
  } catch {
    return null;
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

/** Text on one line, whitespace collapsed, at most 200 characters (for `uncovered` texts). */
export function oneLine(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > 200 ? `${t.slice(0, 199)}…` : t;
}
