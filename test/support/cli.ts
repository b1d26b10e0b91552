import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './corpus';

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
  const res = spawnSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'src/main/cli/entry.ts'), ...args], {
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
