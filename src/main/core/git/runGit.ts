import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The only way the engine runs `git` (lint-enforced: eslint.config.js forbids `node:child_process`
 * elsewhere in the engine and any spawn of a literal `git` outside this file). A folder nobody
 * trusted may carry its own `.git/config` (`core.fsmonitor`, `core.hooksPath`, filter drivers, a
 * pager or editor, aliases), an embedded bare repository, `.git/hooks/*`, or an executable named
 * `git` at its top; plain `git` in such a folder runs that code. Every invocation here neutralises
 * repository-controlled execution before git reads the repository's configuration:
 *
 * - the `git` program is an absolute path found on PATH's absolute entries, never the working
 *   directory (an empty or relative PATH entry, and Windows' current-directory-first search, would
 *   otherwise run `./git` of the repository);
 * - `core.fsmonitor=false` (an fsmonitor hook is a program that `ls-files`, `check-ignore` and
 *   `status` start), `core.hooksPath` = a path where no hook can exist (`/dev/null`; on Windows an
 *   empty private folder), so `post-checkout`, `post-index-change`, `reference-transaction` and
 *   every other hook are never found;
 * - `safe.bareRepository=explicit` (a folder that is itself a bare repository, e.g. one with
 *   `core.worktree=.` and `core.fsmonitor`, is refused instead of discovered). Git honours this key
 *   only from protected configuration, which includes `-c`;
 * - `core.pager=cat`, `--no-pager`, `core.editor=true`, `sequence.editor=true`, `core.askPass=`,
 *   `credential.helper=` and the matching environment variables (no pager, editor or credential
 *   prompt is ever started);
 * - `protocol.allow=never` (no transport, so no `ext::` URL or remote helper), `core.sshCommand=false`;
 * - `diff.external=`, `gpg.program`, `gpg.ssh.program`, `gpg.x509.program` = `false`,
 *   `gpg.ssh.defaultKeyCommand=`, `log.showSignature=false` (no external diff or signature program);
 * - `submodule.recurse=false` (a checkout never descends into submodules, whose own configuration
 *   the filter switch below does not see);
 * - filter drivers: `disableFilters` switches named drivers off; {@link repositoryFilterDrivers}
 *   finds the ones a repository's own configuration defines (callers that check out or compare
 *   file contents pass them);
 * - `GIT_OPTIONAL_LOCKS=0` (read-only commands never take the index lock), `GIT_TERMINAL_PROMPT=0`;
 * - `GIT_*` variables inherited from the parent (`GIT_DIR`, `GIT_CONFIG_PARAMETERS`,
 *   `GIT_EXTERNAL_DIFF`, `GIT_SSH_COMMAND`…) are dropped, so the repository git works on is the one
 *   `cwd` names and only this runner's `-c` pairs apply.
 *
 * Aliases need nothing: git never lets an alias shadow a built-in command, and the engine runs
 * built-ins only. Not neutralised (the engine runs none of these): `diff.<driver>.textconv` and
 * `diff.<driver>.command` (`git diff`/`log -p`/`blame`), `merge.<driver>.driver` (merges), and the
 * configuration of a submodule's own git dir when `status` recurses into an initialised submodule
 * (hooks and fsmonitor stay off there: `-c` pairs reach child gits through `GIT_CONFIG_PARAMETERS`).
 *
 * Reproduces git 2.39 behaviour (Debian 12's git; verified with 2.39.5): each `-c` given on the
 * command line beats every configuration file, including the repository's own and its includes.
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
   * checkout or status never starts them (a file then keeps its bytes as stored in the blob).
   */
  disableFilters?: readonly string[];
}

/** What one invocation returned. `code` is the exit code (null when killed or not started). */
export interface GitResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Why git could not start or was killed (`ENOENT`, `timed out`, a refused option), else null. */
  error: string | null;
}

/** Where no hook can be found: `/dev/null` is not a directory; on Windows an empty folder of our own. */
function noHooksPath(): string {
  if (process.platform !== 'win32') return '/dev/null';
  const dir = path.join(os.tmpdir(), 'atrium-git-no-hooks');
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** `-c` pairs applied to every invocation, before the caller's. */
export const HARDENING: ReadonlyArray<readonly [string, string]> = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', noHooksPath()],
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
  ['gpg.ssh.program', 'false'],
  ['gpg.x509.program', 'false'],
  ['gpg.ssh.defaultKeyCommand', ''],
  ['log.showSignature', 'false'],
  ['submodule.recurse', 'false'],
  ['core.quotePath', 'false'],
];

/** Keys the caller may not override (they are what keeps repository code from running). */
const PROTECTED = new Set(HARDENING.map(([k]) => k.toLowerCase()).filter((k) => k !== 'core.quotepath'));

/** A driver name git would accept in `filter.<name>.*` without quoting tricks. */
const DRIVER_NAME = /^[A-Za-z0-9_.-]+$/;

/** The argument vector for `git` (hardening `-c` pairs, the caller's, then `args`). Exposed for tests. */
export function gitArgv(args: readonly string[], options: Pick<GitOptions, 'config' | 'disableFilters'> = {}): string[] {
  const pairs: Array<readonly [string, string]> = [...HARDENING];
  for (const driver of options.disableFilters ?? []) {
    if (!DRIVER_NAME.test(driver)) throw new Error(`filter driver name ${JSON.stringify(driver)} cannot be switched off safely`);
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
    const upper = k.toUpperCase(); // Windows environment names are case-insensitive
    if (v === undefined || upper.startsWith('GIT_') || upper === 'SSH_ASKPASS' || upper === 'PAGER' || upper === 'EDITOR' || upper === 'VISUAL') continue;
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

/**
 * The absolute path of the `git` program: the first executable `git` (Windows: `git.exe`,
 * `git.cmd`…) in an absolute entry of `pathVar`. Empty and relative entries are skipped, because
 * the operating system would resolve them against the working directory, i.e. inside the
 * repository being inspected. Null when none is found.
 */
export function findGitExecutable(pathVar: string | undefined = process.env.PATH ?? process.env.Path, platform: NodeJS.Platform = process.platform): string | null {
  const delimiter = platform === 'win32' ? ';' : ':';
  const names = platform === 'win32' ? (process.env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';').filter(Boolean).map((ext) => `git${ext.toLowerCase()}`) : ['git'];
  const isAbsolute = platform === 'win32' ? path.win32.isAbsolute : path.posix.isAbsolute;
  for (const entry of (pathVar ?? '').split(delimiter)) {
    if (!entry || !isAbsolute(entry)) continue;
    for (const name of names) {
      const candidate = path.join(entry, name);
      try {
        if (!fs.statSync(candidate).isFile()) continue;
        fs.accessSync(candidate, fs.constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  return null;
}

/** Cached {@link findGitExecutable} for the current PATH (re-resolved when PATH changes). */
let resolved: { pathVar: string | undefined; file: string | null } | null = null;
function gitFile(): string | null {
  const pathVar = process.env.PATH ?? process.env.Path;
  if (!resolved || resolved.pathVar !== pathVar) resolved = { pathVar, file: findGitExecutable(pathVar) };
  return resolved.file;
}

const NOT_FOUND: GitResult = { code: null, stdout: '', stderr: '', error: 'ENOENT' };

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
    const file = gitFile();
    if (!file) return resolve({ ...NOT_FOUND });
    const child = execFile(
      file,
      argv,
      { cwd: options.cwd, env: gitEnv(), encoding: 'utf8', timeout: options.timeoutMs ?? 60_000, maxBuffer: options.maxBuffer ?? 64 * 1024 * 1024, windowsHide: true },
      (error, stdout, stderr) => {
        if (!error) return resolve({ code: 0, stdout, stderr, error: null });
        const e = error as NodeJS.ErrnoException & { code?: number | string; killed?: boolean };
        const code = typeof e.code === 'number' ? e.code : null;
        resolve({ code, stdout: stdout ?? '', stderr: stderr ?? '', error: code === null ? (e.killed ? 'timed out' : String(e.code ?? e.message)) : null });
      },
    );
    child.stdin?.end(); // git never waits for input from Atrium
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
  const file = gitFile();
  if (!file) return { ...NOT_FOUND };
  const r = spawnSync(file, argv, {
    cwd: options.cwd,
    env: gitEnv(),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: options.timeoutMs ?? 60_000,
    maxBuffer: options.maxBuffer ?? 64 * 1024 * 1024,
    windowsHide: true,
  });
  const stdout = r.stdout ?? '';
  const stderr = r.stderr ?? '';
  if (r.error) {
    const code = (r.error as NodeJS.ErrnoException).code;
    return { code: null, stdout, stderr, error: code === 'ETIMEDOUT' ? 'timed out' : (code ?? r.error.message) };
  }
  if (r.status === null) return { code: null, stdout, stderr, error: `killed by ${r.signal ?? 'a signal'}` };
  return { code: r.status, stdout, stderr, error: null };
}

/**
 * Parses `git config --show-scope -z --get-regexp '^filter\.'` output into the names of the
 * filter drivers that the repository's own configuration (scope `local` or `worktree`, includes
 * of those files too) defines or changes. User-level drivers (`global`, `system`, e.g. git-lfs
 * installed with `git lfs install`) are not listed, unless the repository redefines a key of
 * theirs, in which case the whole driver is listed: its commands are no longer the user's.
 */
export function parseRepositoryFilterDrivers(zOutput: string): string[] {
  const names = new Set<string>();
  // -z with --show-scope: `scope NUL key LF value NUL` per entry (with --show-origin an origin field follows the scope).
  const fields = zOutput.split('\0');
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const scope = fields[i];
    const key = fields[i + 1].split('\n')[0];
    const m = /^filter\.(.+)\.[^.]+$/i.exec(key);
    if (m && (scope === 'local' || scope === 'worktree')) names.add(m[1]);
  }
  return [...names].sort();
}

/**
 * The filter drivers a repository's own configuration defines (see
 * {@link parseRepositoryFilterDrivers}), read through the hardened runner from `cwd`. Empty when
 * `cwd` is not in a repository or git fails. A driver name git accepts but this runner cannot pass
 * safely makes the caller's later call fail with that reason instead of running the driver.
 */
export function repositoryFilterDriversSync(cwd: string): string[] {
  const r = runGitSync(['config', '--show-scope', '-z', '--get-regexp', '^filter\\.'], { cwd, timeoutMs: 15_000 });
  return r.code === 0 ? parseRepositoryFilterDrivers(r.stdout) : [];
}
