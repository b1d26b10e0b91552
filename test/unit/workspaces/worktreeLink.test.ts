import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../../src/main/core/dispatcher';
import { resolveFolder } from '../../../src/main/core/workspaces/paths';
import { inspectGit, trustRootOf } from '../../../src/main/core/workspaces/identity';
import { runCli } from '../../support/cli';
import { sessionEngine, testDispatcher, waitFor } from '../../support/sessions';
import { tempDir } from '../../support/tempDir';
import { git, trustWorld, type TrustWorld } from '../trust/helpers';

/** A hook both repositories carry byte for byte, so an approval keyed by trust root would match. */
const HOOK_SETTINGS = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/h.sh' }] }] } };
const HOOK_SCRIPT = '#!/bin/bash\necho "{}"\n';
const MCP = { mcpServers: { tools: { command: 'node', args: ['server.js'] } } };

function writeProject(dir: string): void {
  fs.mkdirSync(path.join(dir, '.claude', 'hooks'), { recursive: true });
  fs.writeFileSync(path.join(dir, '.claude', 'settings.json'), JSON.stringify(HOOK_SETTINGS));
  fs.writeFileSync(path.join(dir, '.claude', 'hooks', 'h.sh'), HOOK_SCRIPT, { mode: 0o755 });
  fs.writeFileSync(path.join(dir, '.mcp.json'), JSON.stringify(MCP));
  fs.writeFileSync(path.join(dir, 'server.js'), '');
}

/** `~/src/trusted`: a real repository with a commit, trusted, its hook and MCP server approved. */
async function trustedRepo(w: TrustWorld): Promise<string> {
  const repo = w.mkdir('trusted');
  writeProject(repo);
  git(repo, 'init', '-q');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'init');
  w.engine.trust.set(resolveFolder(repo), 'trusted');
  const listing = await w.engine.hooks.list({ path: repo });
  const items = [...listing.hooks.filter((h) => h.source.scope === 'project'), ...listing.mcpServers].map((i) => ({ id: i.id, digest: i.digest }));
  expect(items).toHaveLength(2);
  await w.engine.hooks.approve({ path: repo }, items);
  expect((await w.engine.hooks.approvedHooksFor({ path: repo })).hooks).toHaveLength(1);
  return repo;
}

/** The forged link of the report: `.git` is a file naming an admin dir the folder wrote itself. */
function forgeLink(folder: string, commonDir: string, adminRel = '.fakeadmin'): string {
  const admin = path.join(folder, adminRel);
  fs.mkdirSync(admin, { recursive: true });
  fs.writeFileSync(path.join(folder, '.git'), `gitdir: ${adminRel}\n`);
  fs.writeFileSync(path.join(admin, 'commondir'), `${commonDir}\n`);
  fs.writeFileSync(path.join(admin, 'gitdir'), `${path.join(folder, '.git')}\n`);
  fs.writeFileSync(path.join(admin, 'HEAD'), 'ref: refs/heads/main\n');
  return admin;
}

/** Writes an admin entry `<common>/worktrees/<name>` whose `gitdir` names `dotGit` (what git lists). */
function adminEntry(common: string, name: string, dotGit: string): string {
  const admin = path.join(common, 'worktrees', name);
  fs.mkdirSync(admin, { recursive: true });
  fs.writeFileSync(path.join(admin, 'commondir'), '../..\n');
  fs.writeFileSync(path.join(admin, 'gitdir'), `${dotGit}\n`);
  fs.writeFileSync(path.join(admin, 'HEAD'), 'ref: refs/heads/main\n');
  return admin;
}

/** Everything a surface can say about `dir`'s trust; all of it must say "own root, undecided, restricted". */
async function expectOwnRootRestricted(w: TrustWorld, dir: string, trusted: string): Promise<void> {
  expect(inspectGit(dir)).toMatchObject({ kind: 'repo', workTree: dir, mainCheckout: null });
  expect(trustRootOf(dir)).toBe(dir);
  expect(w.engine.trust.status(dir)).toMatchObject({ path: dir, trustRoot: dir, state: 'undecided', decidedBy: null });
  expect(w.engine.trust.mayActivateProjectResources(dir)).toBe(false);
  expect(w.engine.trustGate.mayActivateProjectResources(dir)).toBe(false);
  expect(await w.engine.hooks.list({ path: dir })).toMatchObject({ trustRoot: dir, restricted: true, hooks: [], mcpServers: [] });
  // what a session's snapshot reads: the held-back project items carry no approval of the trusted repository
  const listing = await w.engine.hooks.list({ path: dir }, { includeHeldBack: true });
  expect(listing).toMatchObject({ trustRoot: dir, restricted: true });
  expect(listing.hooks.filter((h) => h.state === 'approved' || h.approval !== null)).toEqual([]);
  expect(listing.mcpServers.filter((s) => s.state === 'approved' || s.approval !== null)).toEqual([]);
  expect((await w.engine.hooks.approvedHooksFor({ path: dir })).hooks).toEqual([]);
  expect(await w.engine.hooks.approvedMcpServers({ path: dir })).toEqual([]);
  expect(w.engine.hooks.history({ path: dir }).filter((e) => e.trustRoot === trusted)).toEqual([]);
}

describe('a linked worktree is accepted only when git itself would accept it', { timeout: 60_000 }, () => {
  it('a forged `.git` file + `.fakeadmin/commondir` next to a trusted repository is its own trust root: undecided, restricted, no approvals', async () => {
    const w = trustWorld({ watchHooks: false, watchResources: false });
    const trusted = await trustedRepo(w);
    const evil = w.mkdir('evil');
    writeProject(evil);
    forgeLink(evil, path.join(trusted, '.git'));

    await expectOwnRootRestricted(w, evil, trusted);
    const { workspace } = w.engine.workspaces.add(evil);
    expect(workspace).toMatchObject({ trustRoot: evil, trust: { state: 'undecided', decidedBy: null } });
    expect(w.engine.workspaces.details(workspace.id).git).toMatchObject({ kind: 'repo', mainCheckout: null });
    // a hook run for the folder (what a session there asks) runs nothing
    const run = await w.engine.hooks.run('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } }, { path: evil });
    expect(run.results).toEqual([]);
    // trusting the forged folder decides for the folder itself, never for the repository it names
    expect(w.engine.trust.set(resolveFolder(evil), 'untrusted').decision.path).toBe(evil);
    expect(w.engine.trust.status(trusted)).toMatchObject({ state: 'trusted', decidedBy: trusted });
  });

  it('forging the link into an already listed undecided folder: list, status and the gate keep agreeing (undecided, restricted)', async () => {
    const w = trustWorld({ watchHooks: false, watchResources: false });
    const trusted = await trustedRepo(w);
    const evil = w.mkdir('evil');
    writeProject(evil);
    const { workspace } = w.engine.workspaces.add(evil);
    expect(workspace.trust.state).toBe('undecided');

    forgeLink(evil, path.join(trusted, '.git'));
    const listed = w.engine.workspaces.get(workspace.id);
    expect(listed).toMatchObject({ trustRoot: evil, trust: { state: 'undecided' } });
    expect(w.engine.workspaces.list().find((x) => x.id === workspace.id)?.trust.state).toBe('undecided');
    expect(w.engine.trust.statusOf({ path: listed.path, trustRoot: listed.trustRoot }).state).toBe('undecided');
    const dispatcher = createDispatcher(w.engine, {
      'app.info': () => ({ version: 't', host: 'browser', dataDir: w.dataDir, homeDir: w.home, capabilities: { nativeFolderPicker: false } }),
      'app.pickFolder': () => ({ path: null }),
    });
    expect((await dispatcher.call('trust.status', { workspaceId: workspace.id })).status).toMatchObject({ trustRoot: evil, state: 'undecided' });
    const { workspaces } = await dispatcher.call('workspaces.list', {});
    expect(workspaces.find((x) => x.id === workspace.id)).toMatchObject({ trustRoot: evil, trust: { state: 'undecided' } });
    await expectOwnRootRestricted(w, evil, trusted);
    expect((await w.engine.hooks.list({ workspaceId: workspace.id })).restricted).toBe(true);
  });

  it('the same through the real CLI: workspace list, trust status and hooks list agree', async () => {
    const w = trustWorld({ watchHooks: false, watchResources: false });
    const trusted = await trustedRepo(w);
    const evil = w.mkdir('evil');
    writeProject(evil);
    await w.engine.close();
    const cli = (...args: string[]) => runCli([...args, '--data-dir', w.dataDir, '--json'], { HOME: w.home, USERPROFILE: w.home });
    expect(cli('workspace', 'add', evil).status).toBe(0);
    forgeLink(evil, path.join(trusted, '.git'));

    const list = cli('workspace', 'list').json as { workspaces: Array<{ path: string; trustRoot: string; trust: { state: string } }> };
    expect(list.workspaces.find((x) => x.path === evil)).toMatchObject({ trustRoot: evil, trust: { state: 'undecided' } });
    expect(cli('trust', 'status', evil).json).toMatchObject({ trustRoot: evil, state: 'undecided' });
    const hooks = cli('hooks', 'list', evil).json as { trustRoot: string; restricted: boolean; hooks: Array<{ state: string; source: { scope: string } }> };
    expect(hooks).toMatchObject({ trustRoot: evil, restricted: true });
    expect(hooks.hooks.filter((h) => h.source.scope === 'project')).toEqual([]);
    // the genuine repository keeps its trust and approvals
    expect(cli('trust', 'status', trusted).json).toMatchObject({ state: 'trusted' });
    const own = cli('hooks', 'list', trusted).json as { hooks: Array<{ state: string; source: { scope: string } }> };
    expect(own.hooks.filter((h) => h.source.scope === 'project').map((h) => h.state)).toEqual(['approved']);
  });

  it('refuses an admin dir outside `<commondir>/worktrees` even when its gitdir points back and git lists the folder', async () => {
    const w = trustWorld({ watchHooks: false, watchResources: false });
    const trusted = await trustedRepo(w);
    const evil = w.mkdir('evil');
    forgeLink(evil, path.join(trusted, '.git'));
    adminEntry(path.join(trusted, '.git'), 'evil', path.join(evil, '.git')); // git now lists ~/src/evil
    expect(git(trusted, 'worktree', 'list', '--porcelain')).toContain(`worktree ${evil}\n`);
    await expectOwnRootRestricted(w, evil, trusted);
  });

  it("refuses an admin dir under `worktrees/` whose gitdir names another folder's `.git` (a borrowed genuine entry)", async () => {
    const w = trustWorld({ watchHooks: false, watchResources: false });
    const trusted = await trustedRepo(w);
    const evil = w.mkdir('evil');
    const genuine = path.join(w.src, 'genuine');
    git(trusted, 'worktree', 'add', '-q', '-b', 'feature', genuine);
    const genuineAdmin = path.join(trusted, '.git', 'worktrees', 'genuine');
    expect(fs.readFileSync(path.join(genuineAdmin, 'gitdir'), 'utf8').trim()).toBe(path.join(genuine, '.git'));
    fs.writeFileSync(path.join(evil, '.git'), `gitdir: ${genuineAdmin}\n`);
    adminEntry(path.join(trusted, '.git'), 'listed', path.join(evil, '.git')); // so that git does list ~/src/evil
    expect(git(trusted, 'worktree', 'list', '--porcelain')).toContain(`worktree ${evil}\n`);
    await expectOwnRootRestricted(w, evil, trusted);
    // the genuine worktree keeps sharing the repository's trust
    expect(w.engine.trust.status(genuine)).toMatchObject({ trustRoot: trusted, state: 'trusted' });
  });

  it('refuses a link git does not list (the main checkout is no repository git can open), although every file checks out', async () => {
    const w = trustWorld({ watchHooks: false, watchResources: false });
    // a trusted folder whose `.git` has the worktree layout but is not a repository git accepts
    const fake = w.mkdir('fake');
    const common = path.join(fake, '.git');
    fs.mkdirSync(common);
    w.engine.trust.set(resolveFolder(fake), 'trusted');
    const evil = w.mkdir('evil');
    fs.writeFileSync(path.join(evil, '.git'), `gitdir: ${adminEntry(common, 'evil', path.join(evil, '.git'))}\n`);
    expect(() => git(fake, 'worktree', 'list', '--porcelain')).toThrow();
    expect(inspectGit(evil)).toMatchObject({ kind: 'repo', mainCheckout: null });
    expect(w.engine.trust.status(evil)).toMatchObject({ trustRoot: evil, state: 'undecided' });
    expect(w.engine.trust.mayActivateProjectResources(evil)).toBe(false);
  });

  it('a genuine `git worktree add` worktree shares trust, also one created after its folder was listed', async () => {
    const w = trustWorld({ watchHooks: false, watchResources: false });
    const trusted = await trustedRepo(w);
    const later = w.mkdir('later');
    const { workspace } = w.engine.workspaces.add(later);
    expect(workspace).toMatchObject({ trustRoot: later, trust: { state: 'undecided' } });
    expect(w.engine.trust.mayActivateProjectResources(later)).toBe(false);

    git(trusted, 'worktree', 'add', '-q', '-b', 'later', later);
    expect(inspectGit(later)).toMatchObject({ kind: 'worktree', workTree: later, mainCheckout: trusted });
    expect(w.engine.workspaces.get(workspace.id)).toMatchObject({ trustRoot: trusted, trust: { state: 'trusted', decidedBy: trusted } });
    expect(w.engine.trust.status(later)).toMatchObject({ trustRoot: trusted, state: 'trusted' });
    expect(w.engine.trust.mayActivateProjectResources(later)).toBe(true);
    expect((await w.engine.hooks.approvedHooksFor({ workspaceId: workspace.id })).hooks.map((h) => h.state)).toEqual(['approved']);

    // and when the worktree is removed again, the folder is its own root at once
    git(trusted, 'worktree', 'remove', '--force', later);
    fs.mkdirSync(later);
    expect(w.engine.workspaces.get(workspace.id)).toMatchObject({ trustRoot: later, trust: { state: 'undecided' } });
    expect(w.engine.trust.mayActivateProjectResources(later)).toBe(false);
  });

  it('a session started in a forged folder gets none of the trusted repository\'s approved hooks or MCP servers (control: one in the repository does)', async () => {
    const root = tempDir('atrium-forged-session-');
    const engine = sessionEngine(path.join(root, 'data'), tempDir('atrium-agent-'), {});
    try {
      const trusted = path.join(root, 'trusted');
      fs.mkdirSync(trusted);
      writeProject(trusted);
      git(trusted, 'init', '-q');
      git(trusted, 'add', '.');
      git(trusted, 'commit', '-q', '-m', 'init');
      engine.trust.set(resolveFolder(trusted), 'trusted');
      const listing = await engine.hooks.list({ path: trusted });
      await engine.hooks.approve({ path: trusted }, [...listing.hooks.filter((h) => h.source.scope === 'project'), ...listing.mcpServers].map((i) => ({ id: i.id, digest: i.digest })));
      const evil = path.join(root, 'evil');
      fs.mkdirSync(evil);
      writeProject(evil);
      forgeLink(evil, path.join(trusted, '.git'));

      const dispatcher = testDispatcher(engine);
      const policyOf = async (cwd: string) => {
        const { session } = await dispatcher.call('sessions.new', { cwd, agentId: 'scripted' });
        return waitFor(() => {
          const view = engine.policy.view(session.id);
          return view.snapshot ? view : null;
        }, 'the session snapshot');
      };
      const projectHooks = (p: Awaited<ReturnType<typeof policyOf>>) => p.hooks.approved.filter((h) => !h.file.startsWith('~'));
      const inRepo = await policyOf(trusted);
      expect(projectHooks(inRepo)).toHaveLength(1);
      expect(inRepo.mcp.passed).toContain('tools');

      const inEvil = await policyOf(evil);
      expect(inEvil.snapshot?.trust).toBe('restricted');
      expect(projectHooks(inEvil)).toEqual([]);
      expect(inEvil.mcp.passed).not.toContain('tools');
    } finally {
      await engine.close();
    }
  });
});
