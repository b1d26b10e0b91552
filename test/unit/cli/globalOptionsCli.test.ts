import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli';
import { tempDir } from '../../support/tempDir';

describe('--data-dir and --json before the subcommand (real child process)', { timeout: 180_000 }, () => {
  it('are accepted on the program and on a command group, and reach the subcommand', () => {
    const dataDir = tempDir('atrium-cli-');
    const folder = tempDir();
    // no ATRIUM_DATA_DIR fallback: the flag alone must choose the data directory
    const env = { ATRIUM_DATA_DIR: path.join(tempDir(), 'elsewhere') };
    const added = runCli(['--data-dir', dataDir, 'workspace', 'add', folder, '--name', 'early'], env);
    expect(added.stderr).toBe('');
    expect(added.status).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'atrium.db'))).toBe(true);
    expect(fs.existsSync(env.ATRIUM_DATA_DIR)).toBe(false);

    const listed = runCli(['--data-dir', dataDir, '--json', 'workspace', 'list'], env);
    expect(listed.status).toBe(0);
    expect((listed.json as { workspaces: Array<{ name: string }> }).workspaces).toEqual([expect.objectContaining({ name: 'early', path: folder })]);
    expect((runCli(['workspace', '--data-dir', dataDir, 'list', '--json'], env).json as { workspaces: unknown[] }).workspaces).toHaveLength(1);
    expect((runCli(['--data-dir', dataDir, 'rules', 'list', 'early', '--json'], env).json as { root: string }).root).toBe(folder);
  });

  it("the subcommand's own --data-dir wins over an earlier one; options after the subcommand stay its own", () => {
    const dataDir = tempDir('atrium-cli-');
    const other = tempDir('atrium-cli-');
    const env = { ATRIUM_DATA_DIR: path.join(tempDir(), 'elsewhere') };
    expect(runCli(['workspace', 'add', tempDir(), '--data-dir', dataDir], env).status).toBe(0);
    const res = runCli(['--data-dir', other, 'workspace', 'list', '--data-dir', dataDir, '--json'], env);
    expect(res.status).toBe(0);
    expect((res.json as { workspaces: unknown[] }).workspaces).toHaveLength(1);
    expect(runCli(['--data-dir'], env).status).toBe(2);
  });
});
