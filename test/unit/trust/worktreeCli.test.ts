import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli';
import { tempDir } from '../../support/tempDir';
import { git } from './helpers';

/**
 * A real repository `~/src/repo` with a commit and a real linked worktree `~/src/repo-wt` made by
 * `git worktree add`; every CLI run gets the temp HOME and a temp data dir (real SQLite file).
 */
function setup() {
  const root = fs.realpathSync(tempDir('atrium-trust-wt-cli-'));
  const home = path.join(root, 'home');
  const repo = path.join(home, 'src', 'repo');
  const worktree = path.join(home, 'src', 'repo-wt');
  fs.mkdirSync(repo, { recursive: true });
  fs.writeFileSync(path.join(repo, 'README.md'), '# repo\n');
  git(repo, 'init', '-q');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'init');
  git(repo, 'worktree', 'add', '-q', worktree, '-b', 'wt1');
  const dataDir = path.join(root, 'data');
  const cli = (...args: string[]) => runCli([...args, '--data-dir', dataDir], { HOME: home, USERPROFILE: home });
  return { home, repo, worktree, cli };
}

describe('trust of a linked worktree on the CLI (real git worktree, real SQLite, real child process)', { timeout: 120_000 }, () => {
  it('status and workspace JSON say the decision is inherited from the main checkout, with no decision of the worktree\'s own', () => {
    const { repo, worktree, cli } = setup();
    expect(cli('trust', 'set', repo, 'trusted').status).toBe(0);

    const status = cli('trust', 'status', worktree, '--json');
    expect(status.status).toBe(0);
    expect(status.json).toMatchObject({
      path: worktree,
      trustRoot: repo,
      state: 'trusted',
      decidedBy: repo,
      inherited: true,
      ownDecision: null,
      worktreeOf: repo,
      trustRootDecision: 'trusted',
    });
    // the main checkout itself still owns its decision
    expect(cli('trust', 'status', repo, '--json').json).toMatchObject({ decidedBy: repo, inherited: false, ownDecision: 'trusted', worktreeOf: null, trustRootDecision: 'trusted' });

    const added = cli('workspace', 'add', worktree, '--json');
    expect(added.status).toBe(0);
    expect(added.json).toMatchObject({ workspace: { path: worktree, trustRoot: repo, worktreeOf: repo, trust: { state: 'trusted', decidedBy: repo, inherited: true } } });
    const main = cli('workspace', 'add', repo, '--json');
    expect(main.json).toMatchObject({ workspace: { worktreeOf: null, trust: { decidedBy: repo, inherited: false } } });

    expect(cli('trust', 'status', worktree).stdout).toContain('a linked worktree of ~/src/repo: judged at ~/src/repo, whose decision ~/src/repo and all its worktrees share (it has none of its own)');
  });

  it('set and clear on a worktree say they recorded the main checkout\'s decision, shared by all its worktrees', () => {
    const { repo, worktree, cli } = setup();
    const set = cli('trust', 'set', worktree, 'untrusted');
    expect(set.status).toBe(0);
    expect(set.stdout).toContain(
      'Recorded: ~/src/repo is untrusted. ~/src/repo-wt is a linked worktree of ~/src/repo: the decision was recorded for the main checkout and is shared by ~/src/repo and all its worktrees.',
    );
    expect(cli('trust', 'status', repo, '--json').json).toMatchObject({ state: 'untrusted', ownDecision: 'untrusted' });

    const setJson = cli('trust', 'set', worktree, 'trusted', '--json');
    expect(setJson.json).toMatchObject({ decision: { path: repo, state: 'trusted' }, status: { path: worktree, inherited: true, ownDecision: null, worktreeOf: repo, trustRootDecision: 'trusted' } });

    const cleared = cli('trust', 'clear', worktree);
    expect(cleared.status).toBe(0);
    expect(cleared.stdout).toContain(
      'Cleared the decision for ~/src/repo. ~/src/repo-wt is a linked worktree of ~/src/repo: the decision was recorded for the main checkout and is shared by ~/src/repo and all its worktrees.',
    );
    expect(cli('trust', 'status', worktree, '--json').json).toMatchObject({ state: 'undecided', decidedBy: null, inherited: false, ownDecision: null, worktreeOf: repo, trustRootDecision: null });
  });
});
