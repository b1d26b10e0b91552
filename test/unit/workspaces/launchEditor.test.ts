import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { editorCommand, findEditorTool, launchEditor } from '../../../src/main/core/process/launchEditor';

function tool(dir: string, name: string, body = '#!/bin/sh\nexit 0\n'): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  fs.writeFileSync(file, body, { mode: 0o755 });
  return file;
}

describe.skipIf(process.platform === 'win32')('opening a path in an editor', () => {
  it('finds the editor tool only in absolute PATH entries outside every workspace (a repository cannot plant one)', () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-editor-')));
    const repo = path.join(root, 'repo');
    tool(path.join(repo, 'bin'), 'code');
    const real = tool(path.join(root, 'usr-bin'), 'code');
    const env = [path.join(repo, 'bin'), 'bin', '.', path.join(root, 'usr-bin')].join(path.delimiter);
    expect(findEditorTool('code', env, [repo])).toBe(real);
    expect(findEditorTool('code', [path.join(repo, 'bin')].join(path.delimiter), [repo])).toBeNull();
    // a symlinked PATH entry that resolves into the workspace is refused as well
    fs.symlinkSync(path.join(repo, 'bin'), path.join(root, 'sneaky'));
    expect(findEditorTool('code', path.join(root, 'sneaky'), [repo])).toBeNull();
  });

  it('builds an argument vector with the path as one argument (goto line for VS Code and Cursor), never a shell line', () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-editor-')));
    const bin = path.join(root, 'bin');
    const code = tool(bin, 'code');
    const zed = tool(bin, 'zed');
    const file = path.join(root, 'a file; rm -rf ~ $(x).md');
    fs.writeFileSync(file, 'x');
    expect(editorCommand('vscode', file, 12, { path: bin, workspaceDirs: [] })).toEqual({ file: code, args: ['-g', `${file}:12`] });
    expect(editorCommand('zed', root, 3, { path: bin, workspaceDirs: [] })).toEqual({ file: zed, args: [root] });
    expect(() => editorCommand('cursor', file, undefined, { path: bin, workspaceDirs: [] })).toThrow(/`cursor` command is not on PATH/);
    expect(() => editorCommand('vscode', 'relative/x', undefined, { path: bin, workspaceDirs: [] })).toThrow(/absolute path/);
    expect(() => editorCommand('vscode', path.join(root, 'gone'), undefined, { path: bin, workspaceDirs: [] })).toThrow(/does not exist/);
    // the system default shows a file's folder on Linux (opening the file itself could run it)
    const opener = tool(bin, 'xdg-open');
    expect(editorCommand('system', file, undefined, { path: bin, workspaceDirs: [], platform: 'linux' })).toEqual({ file: opener, args: [root] });
    expect(editorCommand('system', file, undefined, { path: bin, workspaceDirs: [], platform: 'darwin' })).toEqual({ file: '/usr/bin/open', args: ['-t', file] });
  });

  it('starts the tool with exactly those arguments, in the home folder', async () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-editor-')));
    const out = path.join(root, 'args.txt');
    const code = tool(path.join(root, 'bin'), 'code', `#!/bin/sh\nprintf '%s\\n' "$PWD" "$@" > '${out}'\n`);
    const file = path.join(root, 'x $(touch pwned).md');
    fs.writeFileSync(file, 'x');
    await launchEditor({ file: code, args: ['-g', `${file}:2`] });
    await expect.poll(() => (fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : ''), { timeout: 10_000 }).toBe(`${os.homedir()}\n-g\n${file}:2\n`);
    expect(fs.existsSync(path.join(os.homedir(), 'pwned'))).toBe(false);
    expect(fs.existsSync(path.join(root, 'pwned'))).toBe(false);
  });
});
