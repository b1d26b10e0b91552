import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readServerInfo, type ServerInfo } from '../../src/main/cli/remote';
import { repoRoot } from './corpus';
import { waitFor } from './waitFor';

const ENTRY = path.join(repoRoot, 'src/main/cli/entry.ts');

/** Result of one `atrium` invocation. */
export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (one document), or undefined when it is not JSON. */
  json: unknown;
}

/**
 * Runs the real CLI from source in a child process (`node --import tsx src/main/cli/entry.ts …`),
 * so unit tests need no build. `env` is merged over the current environment; `input` is written to
 * its stdin (which is then closed; empty by default).
 */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, input = ''): CliRun {
  const res = spawnSync(process.execPath, ['--import', 'tsx', ENTRY, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    input,
    timeout: 60_000,
  });
  let json: unknown;
  try {
    json = JSON.parse(res.stdout);
  } catch {
    json = undefined;
  }
  return { status: res.status, stdout: res.stdout, stderr: res.stderr, json };
}

/** A CLI process running in the background (started by {@link spawnCli}): its output so far and its exit. */
export interface Background {
  child: ChildProcess;
  /** Everything written to stdout so far. */
  stdout(): string;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** The JSON lines printed so far (with --json); lines that are not JSON objects are skipped. */
  lines(): Array<Record<string, unknown>>;
  /** Resolves once the process exited: its exit code, or the signal that ended it. */
  exited: Promise<{ status: number | null; signal: NodeJS.Signals | null }>;
}

/** How {@link spawnCli} starts the process. */
export interface SpawnCliOptions {
  /**
   * `pipe` (default): stdin stays open and writable through `child.stdin`, so a command that reads
   * stdin waits; `ignore`: stdin is /dev/null, so such a command reads end-of-file at once.
   */
  stdin?: 'pipe' | 'ignore';
}

const spawned: ChildProcess[] = [];

/**
 * Starts the real CLI from source (`node --import tsx src/main/cli/entry.ts …`, cwd the repo root)
 * without waiting for it, and tracks the child for {@link stopSpawned}. Unlike {@link runCli},
 * `env` REPLACES the environment (default: this process's environment), so a test can hand the
 * child an exact environment (e.g. from `agentTestEnv`). stdout and stderr are collected as they come.
 */
export function spawnCli(args: string[], env: NodeJS.ProcessEnv = process.env, options: SpawnCliOptions = {}): Background {
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, ...args], { cwd: repoRoot, env, stdio: [options.stdin ?? 'pipe', 'pipe', 'pipe'] });
  spawned.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ status: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (status, signal) => resolve({ status, signal })));
  const lines = () =>
    out
      .split('\n')
      .filter((l) => l.trim().startsWith('{'))
      .flatMap((l) => {
        try {
          return [JSON.parse(l) as Record<string, unknown>];
        } catch {
          return [];
        }
      });
  return { child, stdout: () => out, stderr: () => err, lines, exited };
}

/**
 * Stops every process {@link spawnCli} started that is still running (`signal`, SIGTERM by default,
 * which `atrium serve` and the session commands handle by shutting down cleanly) and resolves once
 * they all exited; forgets them. For `afterEach`.
 */
export async function stopSpawned(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  await Promise.all(
    spawned.splice(0).map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill(signal);
        }),
    ),
  );
}

/** How {@link spawnServe} and {@link startServe} start `atrium serve`. */
export interface ServeOptions extends SpawnCliOptions {
  /**
   * The `--renderer-dir` to serve (no test here loads the UI). Default: a fresh empty temp dir,
   * removed when the server exits.
   */
  rendererDir?: string;
}

/**
 * Starts `atrium serve --data-dir <dataDir> --port 0 --json --renderer-dir …` with {@link spawnCli}
 * (`env` replaces the environment) without waiting for it to listen — for a server expected to be
 * refused; use {@link startServe} otherwise.
 */
export function spawnServe(dataDir: string, env: NodeJS.ProcessEnv = process.env, options: ServeOptions = {}): Background {
  const ownDir = options.rendererDir === undefined ? fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-renderer-')) : null;
  const serve = spawnCli(['serve', '--data-dir', dataDir, '--port', '0', '--json', '--renderer-dir', options.rendererDir ?? ownDir!], env, { stdin: options.stdin });
  if (ownDir) serve.child.once('exit', () => fs.rmSync(ownDir, { recursive: true, force: true }));
  return serve;
}

/**
 * Waits (up to 60 s) until `serve` listens on `dataDir`: it printed its `{"url", …}` line and
 * `<dataDir>/server.json` (the discovery file `atrium serve` claims before printing the URL) names its pid.
 * @returns that server.json entry
 * @throws Error naming serve's stderr so far (as of the call) when it does not listen in time
 */
export function serveListening(serve: Background, dataDir: string): Promise<ServerInfo> {
  const listening = () => {
    const info = serve.lines().some((l) => typeof l.url === 'string') ? readServerInfo(dataDir) : null;
    return info?.pid === serve.child.pid ? info : null;
  };
  return waitFor(listening, `atrium serve to listen (${serve.stderr()})`, 60_000);
}

/**
 * `atrium serve` on `dataDir` (random port; {@link spawnServe}), resolved once it listens and owns
 * `<dataDir>/server.json` ({@link serveListening}): the process and that entry (origin, token, pid).
 * The process is tracked for {@link stopSpawned}.
 */
export async function startServe(dataDir: string, env: NodeJS.ProcessEnv = process.env, options: ServeOptions = {}): Promise<{ serve: Background; info: ServerInfo }> {
  const serve = spawnServe(dataDir, env, options);
  return { serve, info: await serveListening(serve, dataDir) };
}
