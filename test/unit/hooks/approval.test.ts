import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMatching } from '../../../src/main/core/hooks/run';
import { hookWorld, listingWithFirstApproved, settingsWith } from './helpers';

const script = '#!/usr/bin/env bash\ninput=$(cat)\ncase "$input" in *"rm -rf"*) echo "rm -rf is blocked" >&2; exit 2;; esac\nexit 0\n';
const rmInput = { tool_name: 'Bash', tool_input: { command: 'rm -rf /' } };

describe('approve → run → edit the script → not run and modified → diff → re-approve → run', () => {
  it('follows the whole cycle, with the audit history', async () => {
    const w = hookWorld();
    w.write({ '.claude/settings.json': settingsWith('PreToolUse', { type: 'command', command: 'bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/block.sh', timeout: 10 }, 'Bash'), '.claude/hooks/block.sh': script });
    const target = { path: w.project };
    let hook = await w.hook('block.sh');
    expect(hook.state).toBe('unapproved');
    expect((await w.engine.hooks.run('PreToolUse', rmInput, target)).decision).toBe('none');

    const [approved] = await w.engine.hooks.approve(target, [{ id: hook.id, digest: hook.digest }], 'app');
    expect(approved).toMatchObject({ action: 'approve', itemId: hook.id, digest: hook.digest, previousDigest: null, by: 'user (app)', trustRoot: w.project });
    hook = await w.hook('block.sh');
    expect(hook).toMatchObject({ state: 'approved', approval: { digest: hook.digest, approvedBy: 'user (app)' } });
    expect(await w.engine.hooks.run('PreToolUse', rmInput, target)).toMatchObject({ decision: 'deny', reason: 'rm -rf is blocked' });

    // one byte in the script
    fs.writeFileSync(path.join(w.project, '.claude/hooks/block.sh'), script.replace('exit 2', 'exit 0'));
    const modified = await w.hook('block.sh');
    expect(modified.state).toBe('modified');
    expect(modified.approval!.digest).toBe(hook.digest);
    const out = await w.engine.hooks.run('PreToolUse', rmInput, target);
    expect(out).toMatchObject({ decision: 'none', results: [{ skipped: 'modified', exitCode: null }] });

    const diff = await w.engine.hooks.diff(target, hook.id);
    expect(diff.approved!.digest).toBe(hook.digest);
    expect(diff.current.digest).toBe(modified.digest);
    expect(diff.approved!.scripts[0].content).toContain('exit 2;;');
    expect(diff.current.scripts[0].content).toContain('exit 0;;');
    expect(diff.current.scripts[0].sha256).not.toBe(diff.approved!.scripts[0].sha256);

    const [again] = await w.engine.hooks.approve(target, [{ id: hook.id, digest: modified.digest }]);
    expect(again.previousDigest).toBe(hook.digest);
    expect((await w.engine.hooks.run('PreToolUse', rmInput, target)).results[0]).toMatchObject({ skipped: null, exitCode: 0 });

    const history = w.engine.hooks.history(target);
    expect(history.map((h) => [h.action, h.digest])).toEqual([
      ['approve', modified.digest],
      ['approve', hook.digest],
    ]);
    expect(() => w.engine.store.db.prepare('DELETE FROM hook_audit').run()).toThrow(/append-only/);
  });

  it('re-hashes the scripts right before running: a change after the listing was built never runs', async () => {
    const w = hookWorld();
    w.write({ '.claude/settings.json': settingsWith('Stop', { type: 'command', command: 'bash .claude/hooks/s.sh' }), '.claude/hooks/s.sh': 'touch ran.flag\n' });
    const { first, built } = await listingWithFirstApproved(w);
    expect(built.hooks[0].hook.state).toBe('approved');
    const ctx = { path: w.project, homeDir: w.home, allowedHosts: [] };
    // the snapshot says approved; the script changes afterwards
    fs.writeFileSync(path.join(w.project, '.claude/hooks/s.sh'), 'touch ran.flag; echo evil\n');
    const stale = await runMatching(built.hooks, 'Stop', {}, ctx);
    expect(stale.outcome.results[0]).toMatchObject({ skipped: 'modified', message: expect.stringMatching(/re-hashed before running/) });
    expect(stale.becameModified).toEqual([first.id]);
    expect(fs.existsSync(path.join(w.project, 'ran.flag'))).toBe(false);
    // with the original bytes back, the same snapshot runs
    fs.writeFileSync(path.join(w.project, '.claude/hooks/s.sh'), 'touch ran.flag\n');
    expect((await runMatching(built.hooks, 'Stop', {}, ctx)).outcome.results[0]).toMatchObject({ skipped: null, exitCode: 0 });
    expect(fs.existsSync(path.join(w.project, 'ran.flag'))).toBe(true);
  });
});

describe('approval rules', () => {
  it('refuses a stale digest with HOOK_DIGEST_MISMATCH and records nothing', async () => {
    const w = hookWorld();
    w.write({ '.claude/settings.json': settingsWith('Stop', { type: 'command', command: 'echo v1' }) });
    const seen = await w.hook('echo v1');
    w.write({ '.claude/settings.json': settingsWith('Stop', { type: 'command', command: 'echo v2' }) });
    await expect(w.engine.hooks.approve({ path: w.project }, [{ id: seen.id, digest: seen.digest }])).rejects.toMatchObject({ code: 'HOOK_DIGEST_MISMATCH' });
    expect(w.engine.hooks.history({ path: w.project })).toEqual([]);
    expect((await w.hook('echo v2')).state).toBe('unapproved');
    await expect(w.engine.hooks.approve({ path: w.project }, [{ id: 'h_000000000000' }])).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('revoke removes the approval (audited); revoking again fails with HOOK_NOT_APPROVED', async () => {
    const w = hookWorld();
    w.write({ '.claude/settings.json': settingsWith('Stop', { type: 'command', command: 'echo x' }) });
    const h = await w.hook('echo x');
    await w.engine.hooks.approve({ path: w.project }, [{ id: h.id }]);
    const [revoked] = await w.engine.hooks.revoke({ path: w.project }, [h.id], 'cli');
    expect(revoked).toMatchObject({ action: 'revoke', digest: h.digest, by: 'user (cli)' });
    expect((await w.hook('echo x')).state).toBe('unapproved');
    await expect(w.engine.hooks.revoke({ path: w.project }, [h.id])).rejects.toMatchObject({ code: 'HOOK_NOT_APPROVED' });
    expect(w.events.filter((e) => e.event === 'hooksChanged').map((e) => e.payload)).toEqual([{ reason: 'approval' }, { reason: 'approval' }]);
  });

  it("approves all of the user's own hooks in one action, stored under the home folder for every workspace", async () => {
    const w = hookWorld();
    w.write({ '.claude/settings.json': { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo u1' }, { type: 'command', command: 'echo u2' }] }], preToolUse: [{ hooks: [{ type: 'command', command: 'echo bad' }] }] } } }, w.home);
    w.write({ '.claude/settings.json': settingsWith('Stop', { type: 'command', command: 'echo project' }) });
    const { changes, leftUncovered } = await w.engine.hooks.approveAllUser({ path: w.project });
    expect(changes).toHaveLength(2);
    expect(leftUncovered).toEqual([]);
    expect(changes.every((c) => c.trustRoot === w.home)).toBe(true);
    const states = Object.fromEntries((await w.list()).hooks.map((h) => [h.command, h.state]));
    expect(states).toEqual({ 'echo u1': 'approved', 'echo u2': 'approved', 'echo bad': 'invalid', 'echo project': 'unapproved' });
    // another folder shares the user approvals
    const other = path.join(w.home, 'src', 'other');
    fs.mkdirSync(other, { recursive: true });
    expect((await w.engine.hooks.list({ path: other })).hooks.filter((h) => h.state === 'approved')).toHaveLength(2);
  });

  it('approvals persist across restarts (SQLite, schema version 4)', async () => {
    const w = hookWorld();
    w.write({ '.claude/settings.json': settingsWith('Stop', { type: 'command', command: 'echo keep' }) });
    const h = await w.hook('echo keep');
    await w.engine.hooks.approve({ path: w.project }, [{ id: h.id }]);
    const engine = await w.restart();
    expect(engine.store.schemaVersion).toBeGreaterThanOrEqual(4);
    expect((await w.hook('echo keep')).state).toBe('approved');
    await w.engine.close();
  });
});

describe('credential files named as scripts', () => {
  it('are hashed into the digest but their content is neither stored at approval nor shown', async () => {
    const w = hookWorld();
    w.write({ '.ssh/id_rsa': '-----BEGIN OPENSSH PRIVATE KEY-----\nsecret-key-material\n' }, w.home);
    w.write({ '.claude/settings.json': settingsWith('SessionStart', { type: 'command', command: 'bash ~/.ssh/id_rsa' }) });
    const hook = await w.hook('id_rsa');
    expect(hook.scripts).toEqual([expect.objectContaining({ path: '~/.ssh/id_rsa', outsideWorkspace: true })]);
    await expect(w.engine.hooks.readScript({ path: w.project }, hook.id, '~/.ssh/id_rsa')).rejects.toMatchObject({ code: 'PATH_UNREADABLE' });
    await w.engine.hooks.approve({ path: w.project }, [{ id: hook.id }]);
    expect(JSON.stringify(w.engine.store.db.prepare('SELECT * FROM hook_script_contents').all())).not.toContain('secret-key-material');
    expect((await w.engine.hooks.diff({ path: w.project }, hook.id)).current.scripts[0].content).toBeNull();
  });

  it('shows the content of an ordinary script, only for paths the hook runs', async () => {
    const w = hookWorld();
    w.write({ '.claude/settings.json': settingsWith('Stop', { type: 'command', command: 'bash .claude/hooks/s.sh' }), '.claude/hooks/s.sh': 'echo hi\n', 'other.txt': 'x' });
    const hook = await w.hook('s.sh');
    expect(await w.engine.hooks.readScript({ path: w.project }, hook.id, '.claude/hooks/s.sh')).toMatchObject({ content: 'echo hi\n', binary: false, truncated: false });
    await expect(w.engine.hooks.readScript({ path: w.project }, hook.id, 'other.txt')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('MCP servers share the mechanism', () => {
  it('digest covers values, secrets are masked for display, approval gates isMcpServerApproved, a change makes it modified', async () => {
    const w = hookWorld();
    const mcp = (token: string) => ({
      mcpServers: {
        docs: { type: 'http', url: 'https://docs.example.invalid/mcp', headers: { Authorization: 'Bearer ${DOCS_TOKEN}', 'X-Api-Key': token } },
        local: { command: 'node', args: ['tools/mcp.js', '--token=ghp_abcdefghijklmnopqrstuvwxyz0123456789'], env: { API_TOKEN: 'plain-secret-value', MODE: 'dev' } },
      },
    });
    w.write({ '.mcp.json': mcp('k-1234567890') });
    const target = { path: w.project };
    let { mcpServers } = await w.list();
    const docs = mcpServers.find((s) => s.name === 'docs')!;
    const local = mcpServers.find((s) => s.name === 'local')!;
    expect(docs.headers).toEqual({ Authorization: 'Bearer ${DOCS_TOKEN}', 'X-Api-Key': '••••••' });
    expect(local.env).toEqual({ API_TOKEN: '••••••', MODE: 'dev' });
    expect(local.args).toEqual(['tools/mcp.js', '--token=••••••']);
    expect(JSON.stringify(local.definition)).not.toContain('plain-secret-value');
    expect(await w.engine.hooks.isMcpServerApproved(target, 'docs')).toBe(false);

    await w.engine.hooks.approve(target, [{ id: docs.id, digest: docs.digest }]);
    expect(await w.engine.hooks.isMcpServerApproved(target, 'docs')).toBe(true);
    const approved = await w.engine.hooks.approvedMcpServers(target);
    expect(approved).toEqual([expect.objectContaining({ name: 'docs', headers: { Authorization: 'Bearer ${DOCS_TOKEN}', 'X-Api-Key': 'k-1234567890' }, cwd: w.project })]);
    expect(JSON.stringify(w.engine.store.db.prepare('SELECT * FROM hook_approvals').all())).not.toContain('k-1234567890');

    // a masked value changes: the digest still sees it
    w.write({ '.mcp.json': mcp('k-0000000000') });
    ({ mcpServers } = await w.list());
    expect(mcpServers.find((s) => s.name === 'docs')!.state).toBe('modified');
    expect(await w.engine.hooks.isMcpServerApproved(target, 'docs')).toBe(false);
  });

  it('restricted folders list no repository MCP servers and approve none', async () => {
    const w = hookWorld({ trusted: false });
    w.write({ '.mcp.json': { mcpServers: { x: { command: 'x' } } } });
    expect((await w.list()).mcpServers).toEqual([]);
    const held = await w.engine.hooks.list({ path: w.project }, { includeHeldBack: true });
    await expect(w.engine.hooks.approve({ path: w.project }, [{ id: held.mcpServers[0].id }])).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringMatching(/restricted mode/) });
  });
});

describe('hooks.readScript through the contract', () => {
  it('reads a referenced script for a workspace id (the UI call shape)', async () => {
    const { createDispatcher } = await import('../../../src/main/core/dispatcher');
    const { createEngine } = await import('../../../src/main/core/engine');
    const { tempDir } = await import('../../support/tempDir');
    const fs = await import('node:fs');
    const path = await import('node:path');
    const project = tempDir();
    fs.mkdirSync(path.join(project, '.claude/hooks'), { recursive: true });
    fs.writeFileSync(path.join(project, '.claude/hooks/s.sh'), 'echo hi\n', { mode: 0o755 });
    fs.writeFileSync(path.join(project, '.claude/settings.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'bash .claude/hooks/s.sh' }] }] } }));
    const engine = createEngine({ dataDir: tempDir(), homeDir: tempDir(), watchResources: false });
    try {
      const dispatcher = createDispatcher(engine, { 'app.info': () => { throw new Error('unused'); }, 'app.pickFolder': () => ({ path: null }) });
      const { workspace } = engine.workspaces.add(project);
      await dispatcher.call('trust.set', { workspaceId: workspace.id, state: 'trusted' });
      const listing = await dispatcher.call('hooks.list', { workspaceId: workspace.id });
      const hook = listing.hooks.find((h) => h.command === 'bash .claude/hooks/s.sh')!;
      const res = await dispatcher.dispatch('hooks.readScript', { workspaceId: workspace.id, id: hook.id, script: '.claude/hooks/s.sh' });
      expect(res).toMatchObject({ ok: true, result: { content: 'echo hi\n' } });
    } finally {
      await engine.close();
    }
  });
});
