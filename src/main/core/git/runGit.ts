import { execFile, execFileSync } from 'node:child_process';

/**
 * The only way the engine runs `git`. A folder nobody trusted may carry its own `.git/config`
 * (`core.fsmonitor`, `core.hooksPath`, filter drivers, a pager or editor), an embedded bare
 * repository, or `.git/hooks/*`; plain `git` in such a folder runs that code. Every invocation here
 * neutralises repository-controlled execution before git reads the repository's configuration:
 *
 * - `core.fsmonitor=false` (an fsmonitor hook is a program), `core.hooksPath=/dev/null` (no hook
 *   can be found there, so `post-checkout` and friends never run);
 * - `safe.bareRepository=explicit` (an embedded bare repository is never discovered implicitly);
 * - `core.pager=cat`, `core.editor=true`, `core.askPass=`, `credential.helper=` and the matching
 *   environment variables (no pager, editor or credential prompt is ever started);
 * - `protocol.allow=never` (no transport, so no `ext::` or ssh command), `core.sshCommand=false`;
 * - `GIT_OPTIONAL_LOCKS=0` (read-only commands never take the index lock), `GIT_TERMINAL_PROMPT=0`;
 * - `GIT_*` variables inherited from the parent (e.g. `GIT_DIR`, `GIT_CONFIG_PARAMETERS`) are
 *   dropped, so the repository git works on is the one `cwd` names.
 *
 * Reproduces git 2.39+ behaviour (Debian 12's git): each `-c` given on the command line beats every
 * configuration file, including the repository's own.
 */

/** Options of one git invocation. */
export interface GitOptions {
  /** Working directory (the repository or a folder inside it). */
  cwd: string;
  /** Kill the process after this many milliseconds (default 60 000). */
  timeoutMs?: number;
  /** Most bytes of stdout accepted (default 64 MiB). */
  maxBuffer?: number;
  /** Extra `-c key=value` pairs, placed after the hardening ones (they cannot undo it: see {@link HARDENING}). */
  config?: Record<string, string>;
  /**
   * Filter drivers to switch off for this invocation (names from `.gitattributes`, e.g. `lfs`):
   * their `clean`, `smudge` and `process` commands are set empty and `required` false, so a
   * checkout or status never starts them.
   */
  disableFilters?: readonly string[];
}

/** What one invocation returned. `code` is the exit code (null when killed or not started). */
export interface GitResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Why git could not start or was killed (ENOENT, timeout), else null. */
  error: string | null;
}

/** `-c` pairs applied to every invocation, before the caller's. */
export const HARDENING: ReadonlyArray<readonly [string, string]> = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['safe.bareRepository', 'explicit'],
  ['core.pager', 'cat'],
  ['core.editor', 'true'],
  ['sequence.editor', 'true'],
  ['core.askPass', ''],
  ['credential.helper', ''],
  ['core.sshCommand', 'false'],
  ['protocol.allow', 'never'],
  ['diff.external', ''],
  ['gpg.program', 'false'],
  ['core.quotePath', 'false'],
];

/** Keys the caller may not override (they are what keeps repository code from running). */
const PROTECTED = new Set(HARDENING.map(([k]) => k.toLowerCase()).filter((k) => k !== 'core.quotepath'));

/** The argument vector for `git` (hardening `-c` pairs, the caller's, then `args`). Exposed for tests. */
export function gitArgv(args: readonly string[], options: Pick<GitOptions, 'config' | 'disableFilters'> = {}): string[] {
  const pairs: Array<readonly [string, string]> = [...HARDENING];
  for (const driver of options.disableFilters ?? []) {
    if (!/^[A-Za-z0-9_.-]+$/.test(driver)) continue;
    pairs.push([`filter.${driver}.clean`, ''], [`filter.${driver}.smudge`, ''], [`filter.${driver}.process`, ''], [`filter.${driver}.required`, 'false']);
  }
  for (const [key, value] of Object.entries(options.config ?? {})) {
    if (PROTECTED.has(key.toLowerCase())) throw new Error(`git option ${key} is fixed by the git runner`);
    pairs.push([key, value]);
  }
  return [...pairs.flatMap(([k, v]) => ['-c', `${k}=${v}`]), '--no-pager', ...args];
}

/** The environment git runs with: the parent's minus every `GIT_*` variable, plus the hardening ones. */
export function gitEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) {
    if (v === undefined || k.startsWith('GIT_') || k === 'SSH_ASKPASS' || k === 'PAGER' || k === 'EDITOR' || k === 'VISUAL') continue;
    env[k] = v;
  }
  return {
    ...env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_PAGER: 'cat',
    GIT_EDITOR: 'true',
    GIT_ASKPASS: '',
    GIT_PROTOCOL_FROM_USER: '0',
    LC_ALL: 'C',
  };
}

/** Runs `git args…` hardened (see the module comment). Never throws; inspect `code`/`error`. */
export function runGit(args: readonly string[], options: GitOptions): Promise<GitResult> {
  return new Promise((resolve) => {
    let argv: string[];
    try {
      argv = gitArgv(args, options);
    } catch (error) {
      resolve({ code: null, stdout: '', stderr: '', error: (error as Error).message });
      return;
    }
    execFile(
      'git',
      argv,
      { cwd: options.cwd, env: gitEnv(), encoding: 'utf8', timeout: options.timeoutMs ?? 60_000, maxBuffer: options.maxBuffer ?? 64 * 1024 * 1024, windowsHide: true },
      (error, stdout, stderr) => {
        if (!error) return resolve({ code: 0, stdout, stderr, error: null });
        const e = error as NodeJS.ErrnoException & { code?: number | string; killed?: boolean };
        const code = typeof e.code === 'number' ? e.code : null;
        resolve({ code, stdout: stdout ?? '', stderr: stderr ?? '', error: code === null ? (e.killed ? 'timed out' : String(e.code ?? e.message)) : null });
      },
    );
  });
}

/**
 * Synchronous {@link runGit}, for the few callers that must not yield (session worktree setup).
 * Never throws; inspect `code`/`error`.
 */
export function runGitSync(args: readonly string[], options: GitOptions): GitResult {
  let argv: string[];
  try {
    argv = gitArgv(args, options);
  } catch (error) {
    return { code: null, stdout: '', stderr: '', error: (error as Error).message };
  }
  try {
    const stdout = execFileSync('git', argv, {
      cwd: options.cwd,
      env: gitEnv(),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: options.timeoutMs ?? 60_000,
      maxBuffer: options.maxBuffer ?? 64 * 1024 * 1024,
      windowsHide: true,
    });
    return { code: 0, stdout, stderr: '', error: null };
  } catch (error) {
    const e = error as { status?: number | null; stdout?: string; stderr?: string; code?: string; message?: string };
    const code = typeof e.status === 'number' ? e.status : null;
    return { code, stdout: e.stdout ?? '', stderr: e.stderr ?? '', error: code === null ? (e.code ?? e.message ?? 'failed') : null };
  }
}
