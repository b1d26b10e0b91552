import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../src/main/core/engine';
import { findGitExecutable, parseRepositoryFilterDrivers, repositoryFilterDriversSync, runGit } from '../../../src/main/core/git/runGit';
import { createWorktree, checkoutStatus, removeWorktree } from '../../../src/main/core/sessions/workspacePolicy/worktree';
import { testDispatcher } from '../../support/sessions';
import { tempDir } from '../../support/tempDir';

// An attacker's repository: every way its own files can make `git` run a program, each program
// writing a marker. Atrium merely showing the folder (and creating a session worktree of it) must
// leave no marker.

/** Setup git with a fixed identity, run by the test itself (not by Atrium), kept from running the payloads it installs. */
function git(cwd: string, ...args: string[]): string {
  const quiet = ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null'];
  return execFileSync('git', [...quiet, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: process.env.HOME },
  });
}

/** A payload script: appends `<name> <args>` to `<markers>/<name>`; a clean/smudge filter passes stdin through (so it "works"). */
function payload(dir: string, markers: string, name: string): string {
  const file = path.join(dir, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\necho "${name} $*" >> '${path.join(markers, name)}'\n${name === 'clean' || name === 'smudge' ? 'cat' : 'exit 0'}\n`);
  fs.chmodSync(file, 0o755);
  return file;
}

function markersIn(markers: string): string[] {
  return fs.existsSync(markers) ? fs.readdirSync(markers).sort() : [];
}

/** Touches every tracked file so the index is stat-dirty: git must then re-read (and clean-filter) their contents. */
function makeStatDirty(repo: string): void {
  const later = new Date(Date.now() + 5_000);
  for (const rel of git(repo, 'ls-files', '-z').split('\0').filter(Boolean)) fs.utimesSync(path.join(repo, rel), later, later);
}

const HOOK_NAMES = ['post-checkout', 'post-index-change', 'reference-transaction', 'post-commit', 'pre-commit', 'post-merge', 'pre-auto-gc'];

/**
 * A committed repository with agent files (rules, a hook, an MCP server), then a `.git/config` that
 * sets core.fsmonitor, core.hooksPath (a folder of the repository), hooks in .git/hooks too,
 * aliases for the commands Atrium uses, clean/smudge and process filter drivers named by
 * `.gitattributes`, a pager and an editor.
 */
function hostileRepository(root: string, markers: string): string {
  const repo = path.join(root, 'home', 'src', 'hostile');
  fs.mkdirSync(repo, { recursive: true });
  git(repo, 'init', '-q');
  fs.writeFileSync(path.join(repo, 'AGENTS.md'), '# Rules\nBe careful.\n');
  fs.mkdirSync(path.join(repo, '.claude'), { recursive: true });
  fs.writeFileSync(path.join(repo, '.claude', 'settings.json'), JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'echo hi' }] }] } }));
  fs.writeFileSync(path.join(repo, '.mcp.json'), JSON.stringify({ mcpServers: { srv: { command: 'node', args: ['srv.js'] } } }));
  fs.writeFileSync(path.join(repo, 'data.txt'), 'plain data\n');
  fs.writeFileSync(path.join(repo, 'proc.txt'), 'process data\n');
  fs.writeFileSync(path.join(repo, '.gitattributes'), 'data.txt filter=evil\nAGENTS.md filter=evil\nproc.txt filter=evilproc\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'init');
  const bin = path.join(root, 'payloads');
  const hooksDir = path.join(repo, 'githooks');
  for (const hook of HOOK_NAMES) {
    payload(hooksDir, markers, hook);
    payload(path.join(repo, '.git', 'hooks'), markers, hook);
  }
  const set = (key: string, value: string) => git(repo, 'config', key, value);
  set('core.fsmonitor', payload(bin, markers, 'fsmonitor'));
  set('core.hooksPath', 'githooks');
  set('core.pager', payload(bin, markers, 'pager'));
  set('core.editor', payload(bin, markers, 'editor'));
  set('filter.evil.clean', payload(bin, markers, 'clean'));
  set('filter.evil.smudge', payload(bin, markers, 'smudge'));
  set('filter.evil.required', 'true');
  set('filter.evilproc.process', payload(bin, markers, 'process'));
  for (const alias of ['status', 'ls-files', 'check-ignore', 'rev-parse', 'worktree']) set(`alias.${alias}`, `!${payload(bin, markers, `alias-${alias}`)}`);
  makeStatDirty(repo);
  return repo;
}

/**
 * A folder that is itself a bare repository (HEAD, config, objects/, refs/) whose config makes the
 * folder its own work tree and names an fsmonitor program: plain git run inside it uses that config.
 */
function embeddedBareRepository(root: string, markers: string): string {
  const dir = path.join(root, 'home', 'src', 'bare');
  fs.mkdirSync(path.join(dir, 'objects'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'refs', 'heads'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'HEAD'), 'ref: refs/heads/main\n');
  const fsmonitor = payload(path.join(root, 'payloads'), markers, 'bare-fsmonitor');
  fs.writeFileSync(path.join(dir, 'config'), `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n\tfsmonitor = ${fsmonitor}\n[alias]\n\tls-files = !${fsmonitor}\n`);
  fs.writeFileSync(path.join(dir, 'AGENTS.md'), '# Rules\n');
  return dir;
}

const engines: Engine[] = [];
const savedPath = process.env.PATH;
afterEach(async () => {
  process.env.PATH = savedPath;
  for (const e of engines.splice(0)) await e.close();
});

/** Adds `dir` as a workspace (undecided) and requests what the app requests when it shows a folder. */
async function showFolder(root: string, dir: string) {
  const engine = createEngine({ dataDir: path.join(root, 'data'), homeDir: path.join(root, 'home'), watchResources: false, watchHooks: false });
  engines.push(engine);
  const d = testDispatcher(engine);
  const { workspace } = await d.call('workspaces.add', { path: dir });
  expect(workspace.trust.state).toBe('undecided');
  const [review, rules, , hooks, extensions, details] = await Promise.all([
    d.call('trust.review', { workspaceId: workspace.id }),
    d.call('rules.list', { workspaceId: workspace.id }),
    d.call('hooks.list', { workspaceId: workspace.id }),
    d.call('hooks.list', { workspaceId: workspace.id, includeHeldBack: true }),
    d.call('extensions.list', { workspaceId: workspace.id }),
    d.call('workspaces.details', { id: workspace.id }),
  ]);
  return { review, rules, hooks, extensions, details };
}

describe('showing an untrusted folder runs nothing the repository controls', () => {
  it('a repository with fsmonitor, hooksPath, .git/hooks, aliases, filters and a pager: review, rules, hooks, extensions and details leave no marker', async () => {
    const root = tempDir('atrium-hostile-');
    const markers = path.join(root, 'markers');
    fs.mkdirSync(markers);
    const repo = hostileRepository(root, markers);
    const shown = await showFolder(root, repo);
    expect(markersIn(markers)).toEqual([]);
    // and the answers are still real: the listing came from git, the repository's files are seen
    expect(shown.rules.stats.listing).toBe('git');
    expect(shown.rules.files.map((f) => f.path)).toContain('AGENTS.md');
    expect(shown.review.review.counts).toMatchObject({ hook: 1, mcpServer: 1 });
    expect(shown.hooks.hooks.map((h) => h.heldBack)).toEqual([true]);
    expect(markersIn(markers)).toEqual([]);
  });

  it('a folder that is itself a bare repository (core.worktree=., core.fsmonitor) is listed by the walk and runs nothing', async () => {
    const root = tempDir('atrium-hostile-');
    const markers = path.join(root, 'markers');
    fs.mkdirSync(markers);
    const dir = embeddedBareRepository(root, markers);
    const shown = await showFolder(root, dir);
    expect(markersIn(markers)).toEqual([]);
    expect(shown.rules.stats.listing).toBe('walk');
    expect(shown.rules.files.map((f) => f.path)).toContain('AGENTS.md');
  });

  it('an executable named git at the top of the folder never runs, even with an empty entry in PATH', async () => {
    const root = tempDir('atrium-hostile-');
    const markers = path.join(root, 'markers');
    fs.mkdirSync(markers);
    const dir = path.join(root, 'home', 'src', 'fake-git');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'AGENTS.md'), '# Rules\n');
    fs.writeFileSync(path.join(dir, 'git'), `#!/bin/sh\necho "fake git $*" >> '${path.join(markers, 'fake-git')}'\nexit 1\n`);
    fs.chmodSync(path.join(dir, 'git'), 0o755);
    process.env.PATH = `:${savedPath}`; // an empty entry is the working directory for execvp
    await showFolder(root, dir);
    expect(markersIn(markers)).toEqual([]);
    expect(findGitExecutable(`:.:relative/bin:${savedPath}`)).toMatch(/^\/.*\/git$/);
    expect(findGitExecutable(':.:relative')).toBeNull();
  });
});

describe('session worktrees run no repository code', () => {
  it('git worktree add, status and remove: no post-checkout hook, no repository-defined smudge/clean/process filter; a user-level filter keeps working', async () => {
    const root = tempDir('atrium-hostile-');
    const markers = path.join(root, 'markers');
    fs.mkdirSync(markers);
    // A user-level (global) filter, as `git lfs install` writes: it must keep working.
    const home = path.join(root, 'userhome');
    fs.mkdirSync(home);
    const userFilter = path.join(root, 'user-smudge.sh');
    fs.writeFileSync(userFilter, `#!/bin/sh\necho used >> '${path.join(root, 'user-filter-ran')}'\ntr a-z A-Z\n`);
    fs.chmodSync(userFilter, 0o755);
    fs.writeFileSync(path.join(home, '.gitconfig'), `[filter "upper"]\n\tsmudge = ${userFilter}\n\tclean = cat\n`);
    const savedHome = process.env.HOME;
    process.env.HOME = home;
    try {
      const repo = hostileRepository(root, markers);
      fs.writeFileSync(path.join(repo, '.gitattributes'), 'data.txt filter=evil\nAGENTS.md filter=evil\nproc.txt filter=evilproc\nuser.txt filter=upper\n');
      fs.writeFileSync(path.join(repo, 'user.txt'), 'user data\n');
      const neutral = ['-c', 'filter.evil.clean=cat', '-c', 'filter.evil.smudge=cat', '-c', 'filter.evilproc.process='];
      git(repo, ...neutral, 'add', '-A');
      git(repo, ...neutral, 'commit', '-q', '-m', 'user filter');
      fs.rmSync(markers, { recursive: true });
      fs.mkdirSync(markers);
      makeStatDirty(repo);

      let info: ReturnType<typeof createWorktree> | undefined;
      let failure: unknown;
      try {
        info = createWorktree({ sourceDir: repo, dataDir: path.join(root, 'data'), sessionId: 'S1', title: 'hostile' });
      } catch (error) {
        failure = error; // git dies when a process filter does not speak its protocol: still, what ran is the question
      }
      expect(markersIn(markers)).toEqual([]);
      expect(failure).toBeUndefined();
      if (!info) return;
      // the repository's drivers were off: the files are the blob's bytes; the user's driver ran
      expect(fs.readFileSync(path.join(info.execRoot, 'data.txt'), 'utf8')).toBe('plain data\n');
      expect(fs.readFileSync(path.join(info.execRoot, 'proc.txt'), 'utf8')).toBe('process data\n');
      expect(fs.readFileSync(path.join(info.execRoot, 'user.txt'), 'utf8')).toBe('USER DATA\n');
      expect(fs.existsSync(path.join(root, 'user-filter-ran'))).toBe(true);

      makeStatDirty(info.execRoot);
      fs.appendFileSync(path.join(info.execRoot, 'data.txt'), 'changed\n');
      const status = checkoutStatus(info.execRoot);
      expect(status).toMatchObject({ branch: info.branch, dirty: true });
      expect(status.changes).toContain(' M data.txt');
      expect(() => removeWorktree(info, false)).toThrow(/uncommitted changes/);
      removeWorktree(info, true);
      expect(fs.existsSync(info.execRoot)).toBe(false);
      expect(markersIn(markers)).toEqual([]);
    } finally {
      process.env.HOME = savedHome;
    }
  });
});

describe('the hardened runner', () => {
  it('status, ls-files, check-ignore and rev-parse in the hostile repository run nothing of it', async () => {
    const root = tempDir('atrium-hostile-');
    const markers = path.join(root, 'markers');
    fs.mkdirSync(markers);
    const repo = hostileRepository(root, markers);
    const disableFilters = repositoryFilterDriversSync(repo);
    expect(disableFilters).toEqual(['evil', 'evilproc']);
    for (const args of [['status', '--porcelain'], ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], ['ls-files', '--deleted'], ['check-ignore', '-q', 'data.txt'], ['rev-parse', '--show-toplevel'], ['log', '-1']]) {
      const r = await runGit(args, { cwd: repo, disableFilters });
      expect(r.error, args.join(' ')).toBeNull();
    }
    expect(markersIn(markers)).toEqual([]);
  });

  it('finds drivers the repository defines, also through include.path, and not the user-level ones', () => {
    const out = ['global', 'filter.lfs.clean\ngit-lfs clean -- %f', 'local', 'filter.evil.smudge\n/x', 'local', 'filter.inc.process\n/y', 'worktree', 'filter.wt.clean\n/z', 'command', 'filter.cmd.clean\n', ''].join('\0');
    expect(parseRepositoryFilterDrivers(out)).toEqual(['evil', 'inc', 'wt']);
    const root = tempDir('atrium-hostile-');
    const repo = path.join(root, 'r');
    fs.mkdirSync(repo);
    git(repo, 'init', '-q');
    fs.writeFileSync(path.join(repo, '.git', 'extra.cfg'), '[filter "included"]\n\tsmudge = /bin/false\n');
    git(repo, 'config', 'include.path', 'extra.cfg');
    git(repo, 'config', 'filter.lfs.process', '/bin/false'); // redefines a user-level driver: off as a whole
    expect(repositoryFilterDriversSync(repo)).toEqual(['included', 'lfs']);
  });
});
