import fs from 'node:fs';
import path from 'node:path';
import { AtriumError } from '../../../../shared/errors';
import { repositoryFilterDriversSync, runGitSync, type GitOptions } from '../../git/runGit';
import { realpathOrSelf } from '../../rules/paths';

/** Where a worktree session runs (stored once at creation; never recomputed from names). */
export interface WorktreeInfo {
  /** The agent's cwd: the worktree counterpart of the workspace folder. */
  dir: string;
  /** Top folder of the worktree (`<dataDir>/worktrees/<sessionId>`). */
  execRoot: string;
  /** Top folder of the source repository's checkout. */
  sourceRoot: string;
  /** `atrium/<title slug>-<first 8 characters of the session id>` (`-2`, `-3`… when taken). */
  branch: string;
  /** The commit the branch was created from (the source's HEAD). */
  baseCommit: string;
}

/** Status of a checkout: branch and uncommitted changes. */
export interface CheckoutStatus {
  branch: string | null;
  dirty: boolean | null;
  /** `git status --porcelain` lines (at most 50). */
  changes: string[];
}

const GIT_TIMEOUT_MS = 60_000;

/** A git failure: its stderr (or why it did not run) is the message. */
class GitFailure extends Error {}

/**
 * Runs git through the hardened runner (no hooks, no fsmonitor, no pager…); `options` adds e.g.
 * the repository's own filter drivers to switch off.
 * @throws GitFailure on a non-zero exit or when git could not run
 */
function git(cwd: string, args: string[], options: Omit<GitOptions, 'cwd'> = {}): string {
  const r = runGitSync(args, { cwd, timeoutMs: GIT_TIMEOUT_MS, ...options });
  if (r.code !== 0) throw new GitFailure(r.stderr.trim() || r.error || `git ${args[0]} exited with ${r.code}`);
  return r.stdout;
}

function gitError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n').slice(0, 5).join('\n');
}

/** A branch-safe slug of a title (lowercase ASCII letters, digits and `-`, at most 40 characters). */
export function slugify(text: string | null | undefined): string {
  const s = (text ?? '')
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/g, '');
  return s;
}

/**
 * Creates the execution worktree of a new session: `git worktree add -b atrium/<slug>
 * <dataDir>/worktrees/<sessionId> <HEAD>`, through the hardened runner, so no hook
 * (`post-checkout`…) runs, and with the filter drivers the repository's own configuration defines
 * switched off (their files are checked out as stored; user-level drivers such as git-lfs work). The location depends only on the
 * session id (immutable), never on the workspace or branch name. The slug is the title's slug plus
 * the first 8 characters of the session id (unique); a branch that exists already gets `-2`, `-3`….
 * @throws AtriumError WORKTREE_FAILED (not a git checkout, no commit yet, git refused) with git's message
 */
export function createWorktree(input: { sourceDir: string; dataDir: string; sessionId: string; title?: string | null }): WorktreeInfo {
  let sourceRoot: string;
  let head: string;
  try {
    sourceRoot = realpathOrSelf(git(input.sourceDir, ['rev-parse', '--show-toplevel']).trim());
  } catch (error) {
    throw new AtriumError('WORKTREE_FAILED', `"${input.sourceDir}" is not inside a git checkout, so it cannot run in a worktree: ${gitError(error)}`);
  }
  try {
    head = git(sourceRoot, ['rev-parse', '--verify', 'HEAD^{commit}']).trim();
  } catch (error) {
    throw new AtriumError('WORKTREE_FAILED', `The repository "${sourceRoot}" has no commit yet; commit something before starting a worktree session: ${gitError(error)}`);
  }
  const short = input.sessionId.replace(/[^a-zA-Z0-9]/g, '').slice(0, 8).toLowerCase() || 'session';
  const slug = [slugify(input.title), short].filter(Boolean).join('-');
  let branch = `atrium/${slug}`;
  for (let n = 2; branchExists(sourceRoot, branch); n++) branch = `atrium/${slug}-${n}`;
  const execRoot = path.join(input.dataDir, 'worktrees', input.sessionId.replace(/[^a-zA-Z0-9_-]/g, '_'));
  if (fs.existsSync(execRoot)) throw new AtriumError('WORKTREE_FAILED', `The worktree folder "${execRoot}" already exists.`);
  fs.mkdirSync(path.dirname(execRoot), { recursive: true, mode: 0o700 });
  try {
    git(sourceRoot, ['worktree', 'add', '-b', branch, execRoot, head], { disableFilters: repositoryFilterDriversSync(sourceRoot) });
  } catch (error) {
    throw new AtriumError('WORKTREE_FAILED', `git worktree add failed: ${gitError(error)}`);
  }
  const realExec = realpathOrSelf(execRoot);
  const rel = path.relative(sourceRoot, realpathOrSelf(input.sourceDir));
  const dir = rel && !rel.startsWith('..') ? path.join(realExec, rel) : realExec;
  if (!fs.existsSync(dir)) fs.mkdirSync(dir, { recursive: true }); // an untracked workspace subfolder
  return { dir, execRoot: realExec, sourceRoot, branch, baseCommit: head };
}

function branchExists(repo: string, branch: string): boolean {
  try {
    git(repo, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]);
    return true;
  } catch {
    return false;
  }
}

/** Branch and uncommitted changes of a checkout; nulls when it is not a git checkout or is gone. Never throws. */
export function checkoutStatus(dir: string): CheckoutStatus {
  if (!fs.existsSync(dir)) return { branch: null, dirty: null, changes: [] };
  let branch: string | null = null;
  try {
    const b = git(dir, ['rev-parse', '--abbrev-ref', 'HEAD']).trim();
    branch = b && b !== 'HEAD' ? b : null;
  } catch {
    return { branch: null, dirty: null, changes: [] };
  }
  try {
    // status compares file contents through clean filters: the repository's own ones stay off, as at checkout
    const lines = git(dir, ['status', '--porcelain', '--untracked-files=all'], { disableFilters: repositoryFilterDriversSync(dir) }).split('\n').filter(Boolean);
    return { branch, dirty: lines.length > 0, changes: lines.slice(0, 50) };
  } catch {
    return { branch, dirty: null, changes: [] };
  }
}

/**
 * Removes a session's worktree (the branch and its commits stay). Refuses to lose uncommitted work:
 * with changes present and `discardChanges` false it throws WORKTREE_DIRTY listing them.
 * @throws AtriumError WORKTREE_DIRTY | WORKTREE_FAILED
 */
export function removeWorktree(info: { execRoot: string; sourceRoot: string }, discardChanges: boolean): void {
  if (!fs.existsSync(info.execRoot)) {
    try {
      git(info.sourceRoot, ['worktree', 'prune']);
    } catch {
      // nothing to prune
    }
    return;
  }
  const status = checkoutStatus(info.execRoot);
  if (status.dirty && !discardChanges) {
    throw new AtriumError(
      'WORKTREE_DIRTY',
      `The worktree "${info.execRoot}" has uncommitted changes; commit them, or confirm that they may be discarded:\n${status.changes.slice(0, 20).join('\n')}`,
    );
  }
  try {
    // without --force, git runs `status` in the worktree (through the filters): the repository's own stay off
    git(info.sourceRoot, ['worktree', 'remove', ...(discardChanges ? ['--force'] : []), info.execRoot], { disableFilters: repositoryFilterDriversSync(info.sourceRoot) });
  } catch (error) {
    throw new AtriumError('WORKTREE_FAILED', `git worktree remove failed: ${gitError(error)}`);
  }
}
