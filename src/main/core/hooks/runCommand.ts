import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { killProcessTree } from '../sessions/processTree';

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
 * Runs a command handler as its own process group: the command line through bash (or sh when bash
 * is missing; `powershell` → pwsh) or, with `args`, the program directly without a shell. The input
 * JSON goes to stdin; stdout and stderr are captured up to {@link OUTPUT_CAP} bytes each; on timeout
 * or abort the whole process tree is killed (SIGKILL to the group). The environment is exactly
 * `spec.env`. Never throws.
 */
export function runCommand(spec: CommandSpec): Promise<CommandOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const [file, argv] = spec.args ? [spec.command, spec.args] : shellFor(spec.shell, spec.command);
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(file, argv, { cwd: spec.cwd, env: spec.env, detached: process.platform !== 'win32', stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    } catch (error) {
      resolve({ exitCode: null, timedOut: false, aborted: false, stdout: '', stderr: '', truncated: false, durationMs: performance.now() - started, spawnError: (error as Error).message });
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
    child.stdin!.on('error', () => undefined); // the hook may exit without reading its input (EPIPE)
    child.stdin!.end(spec.input);

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

function shellFor(shell: string | undefined, command: string): [string, string[]] {
  if (shell === 'powershell') return [process.platform === 'win32' ? 'powershell.exe' : 'pwsh', ['-NoProfile', '-NonInteractive', '-Command', command]];
  if (process.platform === 'win32') return [process.env.ComSpec ?? 'cmd.exe', ['/d', '/s', '/c', command]];
  return [existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh', ['-c', command]];
}
