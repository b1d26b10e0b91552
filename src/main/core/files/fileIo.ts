import fs from 'node:fs';
import { promisify } from 'node:util';

/**
 * The few file-system calls a rule catalog build makes per file (`lstat`, `stat`, `readlink`,
 * `realpath`, `readFile`), with promises, made one of two ways:
 *
 * - **queued** (the default): Node's callback API on libuv's thread pool, so a long-lived process
 *   (the app, `atrium serve`) never blocks its event loop on a slow disk; the callback API costs
 *   about half the CPU of `fs.promises` per call (no FileHandle);
 * - **blocking** ({@link setBlockingFileIo}): the synchronous calls, wrapped in settled promises.
 *   For one-shot CLI commands, where nothing else waits on the event loop: on Node 20 a queued
 *   request costs 3–4x the CPU of its synchronous twin on a file in the page cache (500 rule files:
 *   about 30 ms against 8 ms), and CPU is what a command on a 2-core machine waits for.
 *
 * Results and errors are the same either way (`ENOENT`, `EACCES`, `EISDIR`… with their `code`).
 */
export interface FileIo {
  lstat(p: string): Promise<fs.Stats>;
  stat(p: string): Promise<fs.Stats>;
  readlink(p: string): Promise<string>;
  /** `fs.realpath.native`, as `fs.promises.realpath` is. */
  realpath(p: string): Promise<string>;
  readFile(p: string): Promise<Buffer>;
}

const queued: FileIo = {
  lstat: promisify(fs.lstat) as (p: string) => Promise<fs.Stats>,
  stat: promisify(fs.stat) as (p: string) => Promise<fs.Stats>,
  readlink: promisify(fs.readlink) as (p: string) => Promise<string>,
  realpath: promisify(fs.realpath.native) as (p: string) => Promise<string>,
  readFile: promisify(fs.readFile) as (p: string) => Promise<Buffer>,
};

function settled<T>(call: () => T): Promise<T> {
  try {
    return Promise.resolve(call());
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

const blocking: FileIo = {
  lstat: (p) => settled(() => fs.lstatSync(p)),
  stat: (p) => settled(() => fs.statSync(p)),
  readlink: (p) => settled(() => fs.readlinkSync(p)),
  realpath: (p) => settled(() => fs.realpathSync.native(p)),
  readFile: (p) => settled(() => fs.readFileSync(p)),
};

let current: FileIo = queued;

/** The calls as currently configured (see {@link FileIo}); read it at each use, not once. */
export function fileIo(): FileIo {
  return current;
}

/**
 * Switches this process to blocking (true) or queued (false) file calls; see {@link FileIo}. Only a
 * one-shot command that does nothing else meanwhile should switch to blocking.
 */
export function setBlockingFileIo(on: boolean): void {
  current = on ? blocking : queued;
}
