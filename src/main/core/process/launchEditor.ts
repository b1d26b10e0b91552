import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EditorChoice } from '../../../shared/contract';
import { AtriumError } from '../../../shared/errors';

/** One editor launch: the executable (absolute) and its argument vector, never a shell line. */
export interface EditorCommand {
  file: string;
  args: string[];
}

/** The command-line tools of the editors, as their installers put them on PATH. */
const EDITOR_TOOLS: Record<Exclude<EditorChoice, 'system'>, { bin: string; name: string; install: string }> = {
  vscode: { bin: 'code', name: 'Visual Studio Code', install: 'In VS Code run "Shell Command: Install \'code\' command in PATH"' },
  cursor: { bin: 'cursor', name: 'Cursor', install: 'In Cursor run "Shell Command: Install \'cursor\' command in PATH"' },
  zed: { bin: 'zed', name: 'Zed', install: 'In Zed run "cli: install" from the command palette' },
};

/**
 * Finds an editor's command-line tool on PATH, refusing every directory a repository could
 * control: relative PATH entries (`.`, `node_modules/.bin`: resolved against some working
 * directory), and absolute ones inside a listed workspace (`<repo>/bin` put on PATH by a direnv
 * file). Windows batch wrappers (`code.cmd`) are not used: Node can start them only through
 * `cmd.exe`, whose quoting rules would put the path back into a shell line. Never throws.
 */
export function findEditorTool(bin: string, envPath: string | undefined, workspaceDirs: readonly string[], platform: NodeJS.Platform = process.platform): string | null {
  const exts = platform === 'win32' ? ['.exe'] : [''];
  const inside = (dir: string) => workspaceDirs.some((w) => dir === w || dir.startsWith(w.endsWith(path.sep) ? w : w + path.sep));
  for (const dir of (envPath ?? '').split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue;
    const real = realpathOrNull(dir);
    if (!real || inside(real) || inside(path.resolve(dir))) continue;
    for (const ext of exts) {
      const candidate = path.join(dir, bin + ext);
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

/**
 * The command that opens `target` (absolute) with `editor`, without starting anything:
 * - `vscode`/`cursor`: `<tool> -g <path>[:<line>]` (`--goto`, so a line number is honoured);
 * - `zed`: `zed <path>[:<line>]`;
 * - `system`: macOS `open -t <file>` (the default *text* editor, so a script is shown, never run)
 *   or `open <folder>`; Linux `xdg-open <folder>` and Windows `explorer.exe <folder>`, the file's
 *   folder for a file (opening a file with its associated program could run it).
 * The path is always one argument of its own, and it is absolute, so it can never read as an option.
 *
 * @throws AtriumError `INVALID_PARAMS` when the path is not absolute or does not exist;
 *   `NOT_FOUND` when the editor's tool is not on PATH (the message says how to install it)
 */
export function editorCommand(editor: EditorChoice, target: string, line: number | undefined, env: { path: string | undefined; workspaceDirs: readonly string[]; platform?: NodeJS.Platform }): EditorCommand {
  const platform = env.platform ?? process.platform;
  if (!path.isAbsolute(target) || /[\u0000-\u001f]/.test(target)) throw new AtriumError('INVALID_PARAMS', `Only an absolute path can be opened in an editor, not "${target.slice(0, 200)}".`);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch {
    throw new AtriumError('INVALID_PARAMS', `\`${target}\` does not exist (any more), so there is nothing to open.`);
  }
  const withLine = line && stat.isFile() ? `${target}:${line}` : target;
  if (editor === 'system') {
    const folder = stat.isDirectory() ? target : path.dirname(target);
    if (platform === 'darwin') return { file: '/usr/bin/open', args: stat.isDirectory() ? [target] : ['-t', target] };
    if (platform === 'win32') return { file: path.join(process.env.SystemRoot ?? 'C:\\Windows', 'explorer.exe'), args: [folder] };
    const opener = findEditorTool('xdg-open', env.path, env.workspaceDirs, platform);
    if (!opener) throw new AtriumError('NOT_FOUND', '`xdg-open` is not installed, so the system default cannot be used; choose an editor in Settings.');
    return { file: opener, args: [folder] };
  }
  const tool = EDITOR_TOOLS[editor];
  const file = findEditorTool(tool.bin, env.path, env.workspaceDirs, platform);
  if (!file) throw new AtriumError('NOT_FOUND', `${tool.name}'s \`${tool.bin}\` command is not on PATH. ${tool.install}, or choose another editor in Settings.`);
  return { file, args: editor === 'zed' ? [withLine] : ['-g', withLine] };
}

/**
 * Starts an {@link EditorCommand} detached (it outlives Atrium), with no shell, stdio ignored and
 * the home folder as working directory (never a repository). Resolves once the process started;
 * rejects with `AtriumError('INTERNAL')` when it could not be started.
 */
export function launchEditor(command: EditorCommand): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command.file, command.args, { cwd: os.homedir(), detached: true, stdio: 'ignore', shell: false, windowsHide: true });
    child.once('error', (e) => reject(new AtriumError('INTERNAL', `Could not start ${command.file}: ${e.message}`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}

function realpathOrNull(p: string): string | null {
  try {
    return fs.realpathSync(p);
  } catch {
    return null;
  }
}
