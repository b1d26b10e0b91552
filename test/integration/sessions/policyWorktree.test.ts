import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { approveHooks, commandHook, hookSettings, lastTurnText, notices, policyWorlds, promptAndWait } from '../../support/policy';

/**
 * A session in a new git worktree. Rules are matched in the source project
 * (seed §6 path mapping), trust and approvals are shared, branch and dirty state are shown, and
 * archiving never loses uncommitted work without an explicit confirmation.
 */

const worlds = policyWorlds();

describe('worktree sessions', () => {
  it('runs in a new worktree on atrium/<slug>; writes there trigger the rules of the source project; archive protects uncommitted work', async () => {
    const world = worlds.create(
      { turns: [{ match: 'write api', steps: [{ text: 'prompt={{prompt}}' }, { write: { path: '{{cwd}}/api/handler.ts', content: '// v1\n', retry: 1 } }, { text: 'cwd={{cwd}}' }] }] },
      {
        'AGENTS.md': 'Root rule: always be kind.\n',
        'api/README.md': 'the api\n',
        '.claude/rules/api.md': '---\npaths:\n  - "api/**"\n---\nAPI rule (committed version).\n',
        '.claude/hooks/start.sh': '#!/bin/sh\ntouch "$CLAUDE_PROJECT_DIR/started-here"\n',
        '.claude/settings.json': hookSettings({ SessionStart: [{ hooks: [commandHook('sh .claude/hooks/start.sh')] }] }),
      },
    );
    world.gitInit();
    // the source project's working copy differs from HEAD: the worktree has the committed version
    world.write({ '.claude/rules/api.md': '---\npaths:\n  - "api/**"\n---\nAPI rule (source project version): version every endpoint.\n' });
    const engine = world.openTrusted();
    // approved in the source project: the worktree shares the trust root and the approval
    await approveHooks(engine, world.ws, ['start.sh']);

    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted', worktree: true, title: 'My Feature!' });
    const exec = engine.policy.execution(s.id);
    expect(exec.kind).toBe('worktree');
    expect(exec.branch).toMatch(/^atrium\/my-feature-[0-9a-f]{8}$/);
    expect(exec.sourceDir).toBe(world.ws);
    expect(exec.dir).toBe(path.join(fs.realpathSync(world.dataDir), 'worktrees', s.id));
    expect(s.cwd).toBe(exec.dir);
    expect(exec.dirty).toBe(false);
    expect(exec.baseCommit).toMatch(/^[0-9a-f]{40}$/);
    expect(fs.readFileSync(path.join(exec.dir, '.claude/rules/api.md'), 'utf8')).toContain('committed version');
    expect(execFileSync('git', ['branch', '--list', exec.branch!], { cwd: world.ws, encoding: 'utf8' })).toContain(exec.branch!);

    expect(await promptAndWait(engine, s.id, 'write api please')).toBe('end_turn');
    const text = lastTurnText(engine, s.id);
    // static rules come from the source project; the trust decision of the main checkout applies
    expect(text).toContain('Root rule: always be kind.');
    expect(text).toContain('write error: Applicable project instructions were loaded before this write.');
    expect(text).toContain('API rule (source project version): version every endpoint.');
    expect(text).not.toContain('committed version');
    expect(text).toContain('write ok');
    expect(text).toContain(`cwd=${exec.dir}`);
    expect(fs.readFileSync(path.join(exec.dir, 'api/handler.ts'), 'utf8')).toBe('// v1\n');
    expect(fs.existsSync(path.join(world.ws, 'api/handler.ts'))).toBe(false);
    // the approved hook ran, in the worktree
    expect(fs.existsSync(path.join(exec.dir, 'started-here'))).toBe(true);
    expect(fs.existsSync(path.join(world.ws, 'started-here'))).toBe(false);
    const loaded = engine.policy.view(s.id).contextualRules;
    expect(loaded).toEqual([expect.objectContaining({ relativePath: '.claude/rules/api.md', triggerPaths: ['api/handler.ts'], blockedWrite: true })]);
    expect(notices(engine, s.id, 'worktree')).toHaveLength(1);

    const dirty = engine.policy.execution(s.id);
    expect(dirty.dirty).toBe(true);
    expect(dirty.changes.join('\n')).toContain('api/handler.ts');
    expect(dirty.branch).toBe(exec.branch);

    // archive asks first: uncommitted work is never removed silently
    await expect(engine.policy.archive(s.id, { removeWorktree: true })).rejects.toMatchObject({ code: 'WORKTREE_DIRTY', message: expect.stringContaining('api/handler.ts') });
    expect(fs.existsSync(exec.dir)).toBe(true);
    expect(engine.policy.view(s.id).archivedAt).toBeNull();
    const archived = await engine.policy.archive(s.id, { removeWorktree: true, discardChanges: true });
    expect(archived.session.state).toBe('closed');
    expect(archived.execution.removedAt).toBeTruthy();
    expect(fs.existsSync(exec.dir)).toBe(false);
    expect(engine.policy.view(s.id).archivedAt).toBeTruthy();
    // the branch (and its commits) stays
    expect(execFileSync('git', ['branch', '--list', exec.branch!], { cwd: world.ws, encoding: 'utf8' })).toContain(exec.branch!);
  }, 60_000);

  it('archives a clean worktree without asking, keeps its committed work on the branch, and refuses worktrees outside git', async () => {
    const world = worlds.create(
      { turns: [{ match: '^commit', steps: [{ write: { path: '{{cwd}}/done.txt', content: 'done\n' } }, { terminal: { command: 'git add -A && git -c user.name=t -c user.email=t@example.com commit -q -m work', cwd: '{{cwd}}' } }] }] },
      { 'README.md': 'hi\n' },
    );
    world.gitInit();
    const engine = world.openTrusted();
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted', worktree: true });
    expect(await promptAndWait(engine, s.id, 'commit it')).toBe('end_turn');
    const exec = engine.policy.execution(s.id);
    expect(exec.dirty).toBe(false);
    const { execution } = await engine.policy.archive(s.id, { removeWorktree: true });
    expect(execution.removedAt).toBeTruthy();
    expect(execFileSync('git', ['show', `${exec.branch}:done.txt`], { cwd: world.ws, encoding: 'utf8' })).toBe('done\n');

    const plain = path.join(world.base, 'plain');
    fs.mkdirSync(plain);
    expect(() => engine.sessions.create({ cwd: plain, agentId: 'scripted', worktree: true })).toThrow(expect.objectContaining({ code: 'WORKTREE_FAILED' }));
  }, 60_000);
});
