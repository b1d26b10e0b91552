import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileIo, setBlockingFileIo } from '../../../src/main/core/files/fileIo';
import { listWorkspaceFiles, prefetchGitListing } from '../../../src/main/core/files/listWorkspaceFiles';
import { makeRepo, writeTree } from '../rules/helpers';

const git = (dir: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: dir, stdio: 'ignore' });

/** A repository with tracked, untracked and ignored files. */
function repo(): string {
  const dir = makeRepo({ 'AGENTS.md': '# a\n', 'src/a.ts': 'a\n', 'src/b.ts': 'b\n', '.gitignore': 'dist/\n', 'dist/out.js': 'x\n' });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'init');
  writeTree(dir, { 'notes/todo.md': 'untracked\n' });
  return fs.realpathSync(dir);
}

describe('prefetchGitListing', () => {
  it('the next listing of the root takes the prefetched answer, which is the answer git gives', async () => {
    const dir = repo();
    const direct = await listWorkspaceFiles(dir, { verifyExistence: false });
    prefetchGitListing(dir);
    const taken = await listWorkspaceFiles(dir, { verifyExistence: false });
    expect(taken).toEqual(direct);
    expect(taken.files).toEqual(['.gitignore', 'AGENTS.md', 'notes/todo.md', 'src/a.ts', 'src/b.ts']);
  });

  it('is taken once: the listing after it runs git again and sees what changed meanwhile', async () => {
    const dir = repo();
    await prefetchGitListing(dir);
    writeTree(dir, { 'src/c.ts': 'new\n' });
    // git answered before the file was written: the listing that takes that answer does not see it
    const first = await listWorkspaceFiles(dir, { verifyExistence: false });
    const second = await listWorkspaceFiles(dir, { verifyExistence: false });
    expect(first.files).not.toContain('src/c.ts');
    expect(second.files).toContain('src/c.ts');
  });

  it('is not used for another folder, nor by a listing that checks tracked files still exist', async () => {
    const dir = repo();
    const other = repo();
    prefetchGitListing(dir);
    expect((await listWorkspaceFiles(other, { verifyExistence: false })).files).toContain('AGENTS.md');
    // the prefetch leaves out git's per-file existence check, so a verified listing runs its own
    fs.rmSync(path.join(dir, 'src/b.ts'));
    const verified = await listWorkspaceFiles(dir, { verifyExistence: true });
    expect(verified.files).not.toContain('src/b.ts');
    expect(verified.deleted).toEqual(['src/b.ts']);
  });

  it('of another folder is not taken: a new file there is listed', async () => {
    const dir = repo();
    const other = repo();
    await prefetchGitListing(dir);
    writeTree(other, { 'late.md': 'x\n' });
    writeTree(dir, { 'late.md': 'x\n' });
    expect((await listWorkspaceFiles(other, { verifyExistence: false })).files).toContain('late.md');
    expect((await listWorkspaceFiles(dir, { verifyExistence: false })).files).not.toContain('late.md');
  });

  it('of a folder outside any repository: the listing walks it as it would have', async () => {
    const dir = fs.realpathSync(makeRepo({ 'AGENTS.md': '# a\n', 'sub/x.md': 'x\n' }, { git: false }));
    prefetchGitListing(dir);
    const listed = await listWorkspaceFiles(dir, { verifyExistence: false });
    expect(listed.strategy).toBe('walk');
    expect(listed.files).toEqual(['AGENTS.md', 'sub/x.md']);
  });
});

describe('fileIo', () => {
  afterEach(() => setBlockingFileIo(false));

  for (const blocking of [false, true]) {
    it(`${blocking ? 'blocking' : 'queued'} calls give the file system's answers and errors`, async () => {
      setBlockingFileIo(blocking);
      const dir = fs.realpathSync(makeRepo({ 'a.md': 'hello\n' }, { git: false }));
      fs.symlinkSync('a.md', path.join(dir, 'link.md'));
      const io = fileIo();
      expect((await io.readFile(path.join(dir, 'a.md'))).toString()).toBe('hello\n');
      expect((await io.lstat(path.join(dir, 'link.md'))).isSymbolicLink()).toBe(true);
      expect((await io.stat(path.join(dir, 'link.md'))).size).toBe(6);
      expect(await io.readlink(path.join(dir, 'link.md'))).toBe('a.md');
      expect(await io.realpath(path.join(dir, 'link.md'))).toBe(path.join(dir, 'a.md'));
      await expect(io.readFile(path.join(dir, 'missing.md'))).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(io.lstat(path.join(dir, 'missing.md'))).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(io.readFile(dir)).rejects.toMatchObject({ code: 'EISDIR' });
    });
  }
});
