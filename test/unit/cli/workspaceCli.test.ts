import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli';
import { tempDir } from '../../support/tempDir';

describe('atrium workspace (real child process)', { timeout: 120_000 }, () => {
  it('add, list, rename and remove print the documented JSON and exit 0', () => {
    const dataDir = tempDir('atrium-cli-');
    const folder = path.join(tempDir(), 'proj');
    fs.mkdirSync(folder);

    const added = runCli(['workspace', 'add', folder, '--data-dir', dataDir, '--json']);
    expect(added.status).toBe(0);
    const { workspace } = added.json as { workspace: Record<string, unknown> };
    for (const key of ['id', 'name', 'path', 'trustRoot', 'missing']) expect(workspace).toHaveProperty(key);
    expect(workspace).toMatchObject({ name: 'proj', path: folder, trustRoot: folder, missing: false });

    const again = runCli(['workspace', 'add', `${folder}/`, '--data-dir', dataDir, '--json']);
    expect((again.json as { workspace: { id: string }; created: boolean })).toMatchObject({ workspace: { id: workspace.id }, created: false });

    const listed = runCli(['workspace', 'list', '--data-dir', dataDir, '--json']);
    expect(listed.status).toBe(0);
    expect((listed.json as { workspaces: unknown[] }).workspaces).toEqual([expect.objectContaining({ id: workspace.id })]);

    const renamed = runCli(['workspace', 'rename', String(workspace.id), 'Nice', '--data-dir', dataDir, '--json']);
    expect((renamed.json as { workspace: { name: string } }).workspace.name).toBe('Nice');

    const removed = runCli(['workspace', 'remove', folder, '--data-dir', dataDir, '--json']);
    expect(removed.status).toBe(0);
    expect(fs.existsSync(folder)).toBe(true);
    expect((runCli(['workspace', 'list', '--data-dir', dataDir, '--json']).json as { workspaces: unknown[] }).workspaces).toEqual([]);
  });

  it('rename and remove also take the display name when it is unique; an ambiguous name lists the ids', () => {
    const dataDir = tempDir('atrium-cli-');
    const cli = (...args: string[]) => runCli([...args, '--data-dir', dataDir, '--json']);
    const a = (cli('workspace', 'add', tempDir(), '--name', 'web').json as { workspace: { id: string } }).workspace;
    const b = (cli('workspace', 'add', tempDir(), '--name', 'api').json as { workspace: { id: string } }).workspace;
    expect((cli('workspace', 'rename', 'WEB', 'site').json as { workspace: { id: string; name: string } }).workspace).toMatchObject({ id: a.id, name: 'site' });
    expect(cli('workspace', 'rename', 'api', 'site').status).toBe(0);
    const ambiguous = runCli(['workspace', 'remove', 'site', '--data-dir', dataDir]);
    expect(ambiguous.status).toBe(1);
    expect(ambiguous.stderr).toContain('2 workspaces are named "site"; use an id or folder instead:');
    expect(ambiguous.stderr).toContain(b.id);
    expect(cli('workspace', 'remove', b.id).status).toBe(0);
    expect((cli('workspace', 'remove', 'site').json as { removed: { id: string } }).removed.id).toBe(a.id);
  });

  it('honours ATRIUM_DATA_DIR when --data-dir is absent', () => {
    const dataDir = tempDir('atrium-cli-');
    const folder = tempDir();
    expect(runCli(['workspace', 'add', folder, '--json'], { ATRIUM_DATA_DIR: dataDir }).status).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'atrium.db'))).toBe(true);
  });

  it('exits 1 with the message on stderr for a failure, and 2 for bad usage', () => {
    const dataDir = tempDir('atrium-cli-');
    const missing = runCli(['workspace', 'add', '/no/such/folder', '--data-dir', dataDir, '--json']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('does not exist');
    expect(missing.json).toEqual({ error: { code: 'PATH_NOT_FOUND', message: expect.any(String) } });

    const unknownWs = runCli(['workspace', 'remove', 'nope', '--data-dir', dataDir]);
    expect(unknownWs.status).toBe(1);
    expect(unknownWs.stderr).toContain('No workspace has the id, folder or name "nope". See the ids, folders and names with: atrium workspace list');

    expect(runCli(['workspace', 'frobnicate']).status).toBe(2);
    expect(runCli(['workspace', 'add']).status).toBe(2);
    expect(runCli(['serve', '--port', 'abc', '--data-dir', dataDir]).status).toBe(2);
    expect(runCli(['--help']).status).toBe(0);
  });
});

describe('atrium workspace add --name on a folder already listed', { timeout: 120_000 }, () => {
  it('renames it and says so (human and --json); the same name or no --name changes nothing', { timeout: 180_000 }, () => {
    const dataDir = tempDir('atrium-cli-');
    const folder = tempDir();
    const cli = (...args: string[]) => runCli([...args, '--data-dir', dataDir]);
    const first = cli('workspace', 'add', folder, '--name', 'old', '--json').json as { workspace: { id: string } };

    const human = cli('workspace', 'add', folder, '--name', 'new');
    expect(human.status).toBe(0);
    expect(human.stdout).toBe(`Already listed, renamed from "old": ${first.workspace.id}  new  ${folder}\n`);
    const listed = cli('workspace', 'list', '--json').json as { workspaces: Array<{ id: string; name: string }> };
    expect(listed.workspaces).toEqual([expect.objectContaining({ id: first.workspace.id, name: 'new' })]);

    expect(cli('workspace', 'add', folder, '--name', 'newer', '--json').json).toMatchObject({ workspace: { name: 'newer' }, created: false, renamed: true });
    expect(cli('workspace', 'add', folder, '--name', 'newer', '--json').json).toMatchObject({ workspace: { name: 'newer' }, created: false, renamed: false });
    expect(cli('workspace', 'add', folder).stdout).toContain('Already listed: ');
    expect((cli('workspace', 'add', folder, '--json').json as { workspace: { name: string } }).workspace.name).toBe('newer');
  });
});

describe('atrium workspace add/rename with an empty or overlong name', { timeout: 180_000 }, () => {
  it('is a usage error (exit 2) that says what to type, not the schema message, and changes nothing', () => {
    const dataDir = tempDir('atrium-cli-');
    const folder = tempDir();
    const cli = (...args: string[]) => runCli([...args, '--data-dir', dataDir]);

    for (const name of ['', '   ']) {
      const res = cli('workspace', 'add', folder, '--name', name);
      expect(res.status).toBe(2);
      expect(res.stderr).toBe('atrium: --name must not be empty: give a display name, or leave --name out to use the folder name.\n');
    }
    const json = cli('workspace', 'add', folder, '--name', '', '--json');
    expect(json.status).toBe(2);
    expect(json.json).toEqual({ error: { code: 'USAGE', message: '--name must not be empty: give a display name, or leave --name out to use the folder name.' } });
    expect((cli('workspace', 'list', '--json').json as { workspaces: unknown[] }).workspaces).toEqual([]);

    const { workspace } = cli('workspace', 'add', folder, '--name', 'kept', '--json').json as { workspace: { id: string } };
    const blankRename = cli('workspace', 'add', folder, '--name', ' ');
    expect(blankRename.status).toBe(2);
    expect(blankRename.stderr).not.toContain('Too small');
    const renamed = cli('workspace', 'rename', workspace.id, '');
    expect(renamed.status).toBe(2);
    expect(renamed.stderr).toBe('atrium: The new name must not be empty: give a display name (renaming never touches the folder).\n');
    const long = cli('workspace', 'rename', workspace.id, 'x'.repeat(201));
    expect(long.status).toBe(2);
    expect(long.stderr).toBe('atrium: The display name is 201 characters long; it may have at most 200. Give a shorter one.\n');
    expect((cli('workspace', 'list', '--json').json as { workspaces: Array<{ name: string }> }).workspaces).toEqual([expect.objectContaining({ name: 'kept' })]);
  });
});
