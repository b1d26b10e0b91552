import { spawn } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { killProcessTree } from '../process/processTree';

/** Most bytes kept of stdout and of stderr (1 MiB each). */
export const OUTPUT_CAP = 1024 * 1024;

/** How to run one command handler. */
export interface CommandSpec {
  /** Shell form: the command line. Exec form (with `args`): the program. */
  command: string;
  /** Exec form arguments (no shell). */
  args?: string[];
  /** `bash` (default) or `powershell`. */
  shell?: string;
  cwd: string;
  /** The complete environment (nothing else is inherited). */
  env: Record<string, string>;
  /** Written to stdin, then stdin is closed. */
  input: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** What happened. `exitCode` is null when the process was killed (timeout, abort) or never started. */
export interface CommandOutcome {
  exitCode: number | null;
  timedOut: boolean;
  aborted: boolean;
  stdout: string;
  stderr: string;
  truncated: boolean;
  durationMs: number;
  /** Why the process could not start, else null. */
  spawnError: string | null;
}

/**
 * Variables never passed to a hook process, whatever `spec.env` says: they make a shell run a file
 * before the command (bash reads `BASH_ENV` when non-interactive, POSIX `sh` reads `ENV` when
 * interactive), code that no digest covers.
 */
export const STRIPPED_ENV: readonly string[] = ['BASH_ENV', 'ENV'];

/**
 * Runs a command handler as its own process group: the command line through
 * `bash --norc --noprofile -c` (or `sh -c` when bash is missing; `powershell` → `pwsh -NoProfile`)
 * or, with `args`, the program directly without a shell. No startup file runs: besides `--norc`,
 * stdin is never a socket (bash 5.2 sources `~/.bashrc` for `bash -c` whose stdin is a connected
 * socket, its "run by rshd" rule, and Node's `'pipe'` stdio is a socketpair): the input JSON is
 * written to a private temporary file that is unlinked before the process starts and given to it
 * as stdin (a named pipe on Windows), and {@link STRIPPED_ENV} is removed from the environment. So
 * the user's or the repository's profile can neither run nor print into the hook's JSON answer.
 * stdout and stderr are captured up to {@link OUTPUT_CAP} bytes each; on timeout or abort the
 * whole process tree is killed (SIGKILL to the group). The environment is exactly `spec.env`
 * minus {@link STRIPPED_ENV}. Never throws.
 */
export async function runCommand(spec: CommandSpec): Promise<CommandOutcome> {
  const started = performance.now();
  const notStarted = (message: string): CommandOutcome => ({ exitCode: null, timedOut: false, aborted: false, stdout: '', stderr: '', truncated: false, durationMs: performance.now() - started, spawnError: message });
  let stdin: fs.FileHandle | null = null;
  if (process.platform !== 'win32') {
    try {
      stdin = await inputFile(spec.input);
    } catch (error) {
      return notStarted(`could not prepare the input: ${(error as Error).message}`);
    }
  }
  try {
    return await spawnCommand(spec, stdin, started, notStarted);
  } finally {
    await stdin?.close().catch(() => undefined);
  }
}

function spawnCommand(spec: CommandSpec, stdin: fs.FileHandle | null, started: number, notStarted: (message: string) => CommandOutcome): Promise<CommandOutcome> {
  return new Promise((resolve) => {
    const [file, argv] = spec.args ? [spec.command, spec.args] : shellFor(spec.shell, spec.command);
    const env = { ...spec.env };
    for (const k of STRIPPED_ENV) delete env[k];
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(file, argv, { cwd: spec.cwd, env, detached: process.platform !== 'win32', stdio: [stdin ? stdin.fd : 'pipe', 'pipe', 'pipe'], windowsHide: true });
    } catch (error) {
      resolve(notStarted((error as Error).message));
      return;
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let truncated = false;
    const collect = (chunks: Buffer[], size: () => number, add: (n: number) => void) => (chunk: Buffer) => {
      const room = OUTPUT_CAP - size();
      if (room <= 0) {
        truncated = true;
        return;
      }
      const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
      if (chunk.length > room) truncated = true;
      chunks.push(part);
      add(part.length);
    };
    child.stdout!.on('data', collect(out, () => outBytes, (n) => (outBytes += n)));
    child.stderr!.on('data', collect(err, () => errBytes, (n) => (errBytes += n)));
    if (child.stdin) {
      child.stdin.on('error', () => undefined); // the hook may exit without reading its input (EPIPE)
      child.stdin.end(spec.input);
    }

    let timedOut = false;
    let aborted = false;
    let spawnError: string | null = null;
    let settled = false;
    const kill = () => killProcessTree(child.pid, 'SIGKILL');
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, spec.timeoutMs);
    const onAbort = () => {
      aborted = true;
      kill();
    };
    spec.signal?.addEventListener('abort', onAbort, { once: true });
    if (spec.signal?.aborted) onAbort();

    const finish = (exitCode: number | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      spec.signal?.removeEventListener('abort', onAbort);
      child.stdout!.destroy();
      child.stderr!.destroy();
      resolve({
        exitCode: timedOut || aborted ? null : exitCode,
        timedOut,
        aborted,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        truncated,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        spawnError,
      });
    };
    child.on('error', (error) => {
      spawnError = error.message;
      finish(null);
    });
    child.on('close', (code) => finish(code));
    // A background child that keeps the pipes open must not hold the result: after the hook itself
    // exited, wait briefly for the pipes to drain, then finish.
    child.on('exit', (code) => {
      setTimeout(() => finish(code), 250);
    });
  });
}

/**
 * The program and arguments that run a shell-form command: `pwsh -NoProfile -NonInteractive
 * -Command` (Windows PowerShell 5.1's `powershell.exe` on Windows), `cmd.exe /d /s /c` on Windows
 * (`/d`: no AutoRun commands), else `bash --norc --noprofile -c` or, when `bash` is null (no
 * `/bin/bash`), `/bin/sh -c` (a non-interactive POSIX sh reads no startup file; dash 0.5 and bash
 * in sh mode read `ENV` only when interactive).
 */
export function shellFor(shell: string | undefined, command: string, bash: string | null = existsSync('/bin/bash') ? '/bin/bash' : null): [string, string[]] {
  if (shell === 'powershell') return [process.platform === 'win32' ? 'powershell.exe' : 'pwsh', ['-NoProfile', '-NonInteractive', '-Command', command]];
  if (process.platform === 'win32') return [process.env.ComSpec ?? 'cmd.exe', ['/d', '/s', '/c', command]];
  return bash ? [bash, ['--norc', '--noprofile', '-c', command]] : ['/bin/sh', ['-c', command]];
}

/**
 * The input as an open, already unlinked file in a fresh 0700 directory: the child reads it as
 * stdin, nobody else can open it, and nothing is left on disk.
 */
async function inputFile(input: string): Promise<fs.FileHandle> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'atrium-hook-'));
  try {
    const file = path.join(dir, 'input.json');
    await fs.writeFile(file, input, { mode: 0o600, flag: 'wx' });
    return await fs.open(file, 'r');
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
