import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspectGit } from '../../../src/main/core/workspaces/identity';
import { tempDir } from '../../support/tempDir';

/** Runs real git in `cwd` with a fixed identity (no global config needed). */
function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8' });
}

describe('inspectGit hasCommits (worktree option needs a commit)', () => {
  it('is false right after git init, true after a commit, also from a subfolder, a linked worktree and packed refs', () => {
    const repo = tempDir();
    git(repo, 'init', '-q');
    fs.mkdirSync(path.join(repo, 'sub'));
    expect(inspectGit(repo)).toMatchObject({ kind: 'repo', hasCommits: false });
    expect(inspectGit(path.join(repo, 'sub')).hasCommits).toBe(false);

    fs.writeFileSync(path.join(repo, 'a.txt'), 'a');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'first');
    expect(inspectGit(repo).hasCommits).toBe(true);
    expect(inspectGit(path.join(repo, 'sub')).hasCommits).toBe(true);

    const wt = path.join(tempDir(), 'wt');
    git(repo, 'worktree', 'add', '-q', '-b', 'side', wt);
    expect(inspectGit(wt)).toMatchObject({ kind: 'worktree', hasCommits: true });

    git(repo, 'pack-refs', '--all');
    expect(fs.existsSync(path.join(repo, '.git', 'refs', 'heads', 'main'))).toBe(false);
    expect(inspectGit(repo).hasCommits).toBe(true);

    git(repo, 'checkout', '-q', '--detach');
    expect(inspectGit(repo).hasCommits).toBe(true);
    git(repo, 'checkout', '-q', '--orphan', 'fresh');
    expect(inspectGit(repo).hasCommits).toBe(false);
  });

  it('leaves hasCommits out outside git and when HEAD cannot be read', () => {
    const plain = tempDir();
    expect(inspectGit(plain)).toEqual({ kind: 'none', workTree: null, mainCheckout: null });
    const broken = tempDir();
    fs.mkdirSync(path.join(broken, '.git'));
    expect(inspectGit(broken)).toEqual({ kind: 'repo', workTree: broken, mainCheckout: null });
  });
});
