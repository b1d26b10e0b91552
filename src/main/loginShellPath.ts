import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { killProcessTree } from './core/process/processTree';

/** How long the login shell may take to print its PATH (ms); VS Code waits 10 s, a start should not. */
export const LOGIN_SHELL_TIMEOUT_MS = 5000;
/** Most of the shell's output kept (bytes): rc files may print banners; PATH is far shorter. */
const MAX_OUTPUT = 1024 * 1024;

/**
 * Why the desktop app does not read the login shell's PATH at start, or null when it should:
 * - on Windows (GUI apps get the user's PATH from the registry there);
 * - when `ATRIUM_SKIP_SHELL_ENV=1`;
 * - when stdin or stdout is a terminal: the app was started from a shell, whose PATH it already has.
 * A GUI launch (Finder, Dock, a desktop entry) has neither, and on macOS only launchd's minimal
 * PATH (`/usr/bin:/bin:/usr/sbin:/sbin`), without the Node of nvm, Homebrew or Volta.
 */
export function loginShellSkipReason(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, startedFromTerminal: boolean): string | null {
  if (platform === 'win32') return 'Windows';
  if (env.ATRIUM_SKIP_SHELL_ENV === '1') return 'ATRIUM_SKIP_SHELL_ENV=1';
  if (startedFromTerminal) return 'started from a terminal';
  return null;
}

/**
 * The text between the first two occurrences of `marker` in a shell's output, or null when there
 * are not two, or the text between is empty or spans lines. Whatever rc files print before and
 * after (banners, `motd`, prompts) is ignored.
 */
export function parseMarkedValue(output: string, marker: string): string | null {
  const start = output.indexOf(marker);
  if (start < 0) return null;
  const from = start + marker.length;
  const end = output.indexOf(marker, from);
  if (end < 0) return null;
  const value = output.slice(from, end);
  return value && !/[\r\n\0]/.test(value) ? value : null;
}

/**
 * PATH with the login shell's entries first, then the current ones it lacks; duplicates and empty
 * entries dropped, and relative login entries (`.`, `bin`) too: they would make agent lookups
 * depend on the folder a process runs in. `delimiter` is `:` (or `;` on Windows).
 */
export function mergePaths(login: string, current: string | undefined, delimiter: string = path.delimiter): string {
  const seen = new Set<string>();
  const out: string[] = [];
  const add = (entry: string) => {
    if (!entry || seen.has(entry)) return;
    seen.add(entry);
    out.push(entry);
  };
  for (const entry of login.split(delimiter)) if (path.isAbsolute(entry)) add(entry);
  for (const entry of (current ?? '').split(delimiter)) add(entry);
  return out.join(delimiter);
}

/**
 * Runs `shell` as an interactive login shell (`-ilc`; csh/tcsh `-ic`, which refuse `-l` with
 * other flags) that prints `$PATH` between two random markers, the way VS Code resolves a GUI
 * launch's shell environment. The shell runs detached (its own session: no controlling terminal,
 * so an interactive rc file cannot stop it on terminal input), with stdin ignored,
 * `ATRIUM_RESOLVING_ENVIRONMENT=1` (rc files can skip slow work) and oh-my-zsh's update prompt
 * off; after `timeoutMs` its process group is killed. Never rejects.
 * @returns the shell's PATH (fish joins its PATH list with `:` in quotes), or why none was read
 */
export function readLoginShellPath(shell: string, options: { timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<{ path: string } | { error: string }> {
  const timeoutMs = options.timeoutMs ?? LOGIN_SHELL_TIMEOUT_MS;
  // printed as two halves, so a shell that echoes its command line (xtrace) cannot fake a marker
  const [a, b] = [crypto.randomBytes(6).toString('hex'), crypto.randomBytes(6).toString('hex')];
  const command = `printf '%s%s%s%s%s' '${a}' '${b}' "$PATH" '${a}' '${b}'`;
  const flags = /^t?csh$/.test(path.basename(shell)) ? ['-ic'] : ['-ilc'];
  return new Promise((resolve) => {
    let output = '';
    let settled = false;
    const finish = (result: { path: string } | { error: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const child = spawn(shell, [...flags, command], {
      stdio: ['ignore', 'pipe', 'ignore'],
      detached: true,
      env: { ...(options.env ?? process.env), ATRIUM_RESOLVING_ENVIRONMENT: '1', DISABLE_AUTO_UPDATE: 'true' },
    });
    const timer = setTimeout(() => {
      killProcessTree(child.pid, 'SIGKILL');
      finish({ error: `${shell} did not answer within ${timeoutMs / 1000} s` });
    }, timeoutMs);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (output.length < MAX_OUTPUT) output += chunk;
    });
    child.on('error', (error) => finish({ error: `${shell} could not be started: ${error.message}` }));
    child.on('close', (code, signal) => {
      const value = parseMarkedValue(output, a + b);
      finish(value ? { path: value } : { error: `${shell} printed no PATH (${signal ? `killed by ${signal}` : `exit code ${code}`})` });
    });
  });
}

/**
 * At desktop start, before the engine: merges the login shell's PATH into `process.env.PATH`
 * ({@link mergePaths}), so agents, `node` and `npm` installed through nvm, Homebrew or Volta are
 * found in a GUI-launched app. The shell is `$SHELL`, else the account's shell, else `/bin/sh`.
 * Skipped as {@link loginShellSkipReason} says; on failure the PATH stays as it was and one line
 * is logged. Never rejects.
 */
export async function adoptLoginShellPath(env: NodeJS.ProcessEnv = process.env, log: (line: string) => void = console.warn): Promise<void> {
  const fromTerminal = Boolean(process.stdin.isTTY || process.stdout.isTTY);
  if (loginShellSkipReason(env, process.platform, fromTerminal)) return;
  const shell = env.SHELL || accountShell() || '/bin/sh';
  const result = await readLoginShellPath(shell, { env });
  if ('error' in result) {
    log(`[atrium] kept the PATH Atrium was started with: could not read the login shell's PATH (${result.error}).`);
    return;
  }
  env.PATH = mergePaths(result.path, env.PATH);
}

function accountShell(): string | null {
  try {
    return os.userInfo().shell;
  } catch {
    return null;
  }
}
