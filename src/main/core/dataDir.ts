import os from 'node:os';
import path from 'node:path';

/**
 * Where Atrium keeps its database. First match wins: the explicit `--data-dir` flag, the
 * `ATRIUM_DATA_DIR` environment variable, Electron's `userData` directory (when running in the
 * desktop app), `$XDG_CONFIG_HOME/atrium`, `~/.config/atrium`. Always returned absolute.
 */
export function resolveDataDir(options: { flag?: string; env?: NodeJS.ProcessEnv; electronUserData?: string } = {}): string {
  const env = options.env ?? process.env;
  const chosen =
    options.flag ||
    env.ATRIUM_DATA_DIR ||
    options.electronUserData ||
    (env.XDG_CONFIG_HOME ? path.join(env.XDG_CONFIG_HOME, 'atrium') : path.join(os.homedir(), '.config', 'atrium'));
  return path.resolve(chosen);
}
