import path from 'node:path';
import { AtriumError } from '../../../shared/errors';
import { findExecutable } from './pathLookup';

/** Where {@link nodeRuntime} looks; every field defaults to the running process. */
export interface NodeRuntimeOptions {
  /**
   * Whether the engine runs inside Electron (default: `process.versions.electron` is set). Tests
   * pass `true` to exercise the desktop app's lookup under plain Node.
   */
  electron?: boolean;
  /** PATH searched for `node` (default `env.PATH`). */
  envPath?: string;
  /** Environment read for `ATRIUM_NODE` and PATH (default `process.env`). */
  env?: NodeJS.ProcessEnv;
}

/** What to do when no Node is found: shown as the session's start failure. */
const MISSING =
  'Agents that are Node programs need Node.js 20 or newer on PATH in the desktop app (agents are installed with npm, which comes with it); install Node.js or set ATRIUM_NODE to its path.';

/**
 * The Node executable that runs Node programs (installed agents' entry scripts, the Claude hook
 * bridge), as an absolute path:
 * - under plain Node (the CLI, `atrium serve`, tests): `process.execPath`, the Node running Atrium;
 * - inside Electron: `$ATRIUM_NODE` when set (a path, or a name looked up on PATH; it must be an
 *   executable file), else `node` on PATH. Electron's own binary is never used: the packaged app
 *   has the RunAsNode fuse off, so `ELECTRON_RUN_AS_NODE` would open a second Atrium instead.
 * Looks only at the file system (no `node --version`), so it is cheap enough to call per launch;
 * a PATH change (e.g. a Node installed while Atrium runs) is seen at the next call.
 * @throws AtriumError NODE_UNAVAILABLE with what to do (install Node.js or set ATRIUM_NODE)
 */
export function nodeRuntime(options: NodeRuntimeOptions = {}): string {
  const electron = options.electron ?? Boolean(process.versions.electron);
  if (!electron) return process.execPath;
  const env = options.env ?? process.env;
  const envPath = options.envPath ?? env.PATH;
  const chosen = env.ATRIUM_NODE;
  if (chosen) {
    const found = findExecutable(chosen, envPath);
    if (!found) throw new AtriumError('NODE_UNAVAILABLE', `ATRIUM_NODE is set to "${chosen}", which is not an executable file. Set it to the path of Node.js 20 or newer (e.g. the output of \`command -v node\` in a terminal), or unset it to use node on PATH.`);
    return found;
  }
  const onPath = findExecutable('node', envPath);
  if (!onPath) throw new AtriumError('NODE_UNAVAILABLE', MISSING);
  return onPath;
}

/**
 * Whether `command` is the Node {@link nodeRuntime} would use (same absolute path), so a
 * user-defined `<that node> <entry>` is read as a Node launch even when the file is not named
 * `node` (an `ATRIUM_NODE` like `/opt/node22/bin/node22`, a test's `process.execPath`). False when
 * no Node is available. Never throws.
 */
export function isNodeRuntime(command: string, options: NodeRuntimeOptions = {}): boolean {
  try {
    return path.resolve(command) === nodeRuntime(options);
  } catch {
    return false;
  }
}
