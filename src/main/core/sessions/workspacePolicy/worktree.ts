import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { AtriumError } from '../../../../shared/errors';
import { realpathOrSelf } from '../../rules/paths';

/** Where a worktree session runs (stored once at creation; never recomputed from names). */
export interface WorktreeInfo {
  /** The agent's cwd: the worktree counterpart of the workspace folder. */
  dir: string;
  /** Top folder of the worktree (`<dataDir>/worktrees/<sessionId>`). */
  execRoot: string;
  /** Top folder of the source repository's checkout. */
  sourceRoot: string;
  /** `atrium/<slug>`. */
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

function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: GIT_TIMEOUT_MS, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' } });
}

function gitError(error: unknown): string {
  const e = error as { stderr?: string | Buffer; message?: string };
  const stderr = typeof e.stderr === 'string' ? e.stderr : e.stderr?.toString('utf8');
  return (stderr?.trim() || e.message || String(error)).split('\n').slice(0, 5).join('\n');
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
 * Creates the execution worktree of a new session (issue 8 "Execution workspaces"): `git worktree
 * add -b atrium/<slug> <dataDir>/worktrees/<sessionId> <HEAD>`. The location depends only on the
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
    git(sourceRoot, ['worktree', 'add', '-b', branch, execRoot, head]);
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
    const lines = git(dir, ['status', '--porcelain', '--untracked-files=all']).split('\n').filter(Boolean);
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
    git(info.sourceRoot, ['worktree', 'remove', ...(discardChanges ? ['--force'] : []), info.execRoot]);
  } catch (error) {
    throw new AtriumError('WORKTREE_FAILED', `git worktree remove failed: ${gitError(error)}`);
  }
}
