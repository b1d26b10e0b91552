import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/main/core/migrations';
import { MIGRATIONS } from '../../../src/main/core/migrations';
import { tempDir } from '../../support/tempDir';
import { hookWorld, settingsWith } from './helpers';

/** A repository whose hook and MCP server run code fetched by a package runner (never covered by a digest). */
function uncoveredWorld() {
  const w = hookWorld();
  w.write({
    '.claude/settings.json': { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'npx -y cowsay hi' }, { type: 'command', command: 'echo covered' }] }] } },
    '.mcp.json': { mcpServers: { tools: { command: 'npx', args: ['-y', 'tools-mcp@latest'] } } },
  });
  return w;
}

describe('approving what the digest does not cover needs an explicit acknowledgement', () => {
  it('refuses an npx hook without acknowledgeUncovered (HOOK_UNCOVERED, naming it and what is not covered), records nothing', async () => {
    const w = uncoveredWorld();
    const npx = await w.hook('npx -y cowsay');
    expect(npx.uncovered).toEqual([expect.objectContaining({ code: 'moving-spec', text: 'npx -y cowsay hi' }), expect.objectContaining({ code: 'package-runner', text: 'npx -y cowsay hi' })]);
    const refused = w.engine.hooks.approve({ path: w.project }, [{ id: npx.id, digest: npx.digest }]);
    await expect(refused).rejects.toMatchObject({ code: 'HOOK_UNCOVERED' });
    const message = await refused.catch((e: Error) => e.message);
    expect(message).toContain(npx.id);
    expect(message).toContain('"npx -y cowsay hi": npx runs code chosen at run time');
    expect(message).toMatch(/Nothing was approved\..*acknowledgeUncovered.*--acknowledge-uncovered/);
    // acknowledgeUncovered: false is no acknowledgement either
    await expect(w.engine.hooks.approve({ path: w.project }, [{ id: npx.id, acknowledgeUncovered: false }])).rejects.toMatchObject({ code: 'HOOK_UNCOVERED' });
    expect((await w.hook('npx -y cowsay')).state).toBe('unapproved');
    expect(w.engine.hooks.history({ path: w.project })).toEqual([]);
  });

  it('is all or nothing: a covered hook approved together with an unacknowledged one is not approved either', async () => {
    const w = uncoveredWorld();
    const npx = await w.hook('npx -y cowsay');
    const covered = await w.hook('echo covered');
    expect(covered.uncovered).toEqual([]);
    await expect(w.engine.hooks.approve({ path: w.project }, [{ id: covered.id }, { id: npx.id }])).rejects.toMatchObject({ code: 'HOOK_UNCOVERED' });
    expect((await w.hook('echo covered')).state).toBe('unapproved');
    expect(w.engine.hooks.history({ path: w.project })).toEqual([]);
  });

  it('approves with the acknowledgement and records what was acknowledged in the audit, across restarts', async () => {
    const w = uncoveredWorld();
    const npx = await w.hook('npx -y cowsay');
    const covered = await w.hook('echo covered');
    const changes = await w.engine.hooks.approve({ path: w.project }, [{ id: npx.id, digest: npx.digest, acknowledgeUncovered: true }, { id: covered.id, acknowledgeUncovered: true }], 'cli');
    expect(changes).toHaveLength(2);
    expect(changes[0]).toMatchObject({ itemId: npx.id, action: 'approve', digest: npx.digest, acknowledgedUncovered: npx.uncovered });
    // nothing to acknowledge on a covered hook: the flag is a no-op there
    expect(changes[1]).not.toHaveProperty('acknowledgedUncovered');
    expect((await w.hook('npx -y cowsay')).state).toBe('approved');
    await w.restart();
    const history = w.engine.hooks.history({ path: w.project });
    expect(history.find((e) => e.itemId === npx.id)).toMatchObject({ acknowledgedUncovered: npx.uncovered, by: 'user (cli)' });
    expect(history.find((e) => e.itemId === covered.id)).not.toHaveProperty('acknowledgedUncovered');
    // a revocation acknowledges nothing
    const [revoked] = await w.engine.hooks.revoke({ path: w.project }, [npx.id]);
    expect(revoked).not.toHaveProperty('acknowledgedUncovered');
  });

  it('a changed uncovered hook (modified) needs the acknowledgement again', async () => {
    const w = uncoveredWorld();
    const npx = await w.hook('npx -y cowsay');
    await w.engine.hooks.approve({ path: w.project }, [{ id: npx.id, acknowledgeUncovered: true }]);
    w.write({ '.claude/settings.json': { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'npx -y cowsay@latest hi' }, { type: 'command', command: 'echo covered' }] }] } } });
    const changed = await w.hook('npx -y cowsay');
    expect(changed.state).toBe('modified');
    await expect(w.engine.hooks.approve({ path: w.project }, [{ id: changed.id, digest: changed.digest }])).rejects.toMatchObject({ code: 'HOOK_UNCOVERED', message: expect.stringContaining('npx -y cowsay@latest hi') });
    const [again] = await w.engine.hooks.approve({ path: w.project }, [{ id: changed.id, digest: changed.digest, acknowledgeUncovered: true }]);
    expect(again).toMatchObject({ previousDigest: npx.digest, acknowledgedUncovered: [expect.objectContaining({ code: 'moving-spec', text: 'npx -y cowsay@latest hi' }), expect.objectContaining({ code: 'package-runner', text: 'npx -y cowsay@latest hi' })] });
  });

  it('applies the same rule to MCP servers', async () => {
    const w = uncoveredWorld();
    const server = (await w.list()).mcpServers.find((s) => s.name === 'tools')!;
    expect(server.uncovered).toEqual([expect.objectContaining({ code: 'moving-spec', text: 'npx -y tools-mcp@latest' }), expect.objectContaining({ code: 'package-runner', text: 'npx -y tools-mcp@latest' })]);
    await expect(w.engine.hooks.approve({ path: w.project }, [{ id: server.id, digest: server.digest }])).rejects.toMatchObject({ code: 'HOOK_UNCOVERED', message: expect.stringContaining(server.id) });
    expect(await w.engine.hooks.approvedMcpServers({ path: w.project })).toEqual([]);
    const [change] = await w.engine.hooks.approve({ path: w.project }, [{ id: server.id, digest: server.digest, acknowledgeUncovered: true }]);
    expect(change).toMatchObject({ kind: 'mcp', acknowledgedUncovered: server.uncovered });
    expect((await w.engine.hooks.approvedMcpServers({ path: w.project })).map((s) => s.name)).toEqual(['tools']);
  });

  it("approveAllUser never approves an uncovered user hook: it approves the rest and says which were left", async () => {
    const w = hookWorld();
    w.write({ '.claude/settings.json': { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo mine' }, { type: 'command', command: 'npx -y some-linter' }] }] } } }, w.home);
    const npx = await w.hook('npx -y some-linter');
    const { changes, leftUncovered } = await w.engine.hooks.approveAllUser({ path: w.project });
    expect(changes.map((c) => c.label)).toEqual(['Stop: echo mine']);
    expect(leftUncovered).toEqual([{ id: npx.id, label: expect.stringContaining('npx -y some-linter'), digest: npx.digest, uncovered: npx.uncovered }]);
    expect((await w.hook('npx -y some-linter')).state).toBe('unapproved');
    expect((await w.hook('echo mine')).state).toBe('approved');
    // nothing left to approve in bulk: the uncovered one is still left out, never approved
    const second = await w.engine.hooks.approveAllUser({ path: w.project });
    expect(second.changes).toEqual([]);
    expect(second.leftUncovered.map((l) => l.id)).toEqual([npx.id]);
  });
});

describe('schema 7: hook_audit.acknowledged_uncovered_json', () => {
  it('migrates a schema-5 database in place: its audit rows keep their meaning and read without an acknowledgement', async () => {
    const dataDir = tempDir('atrium-ack-migration-');
    const old = openStore(dataDir, { migrations: MIGRATIONS.slice(0, 5) });
    expect(old.schemaVersion).toBe(5);
    old.db
      .prepare('INSERT INTO hook_audit (trust_root, hook_key, item_id, kind, action, digest, previous_digest, label, at, by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run('/x', 'k', 'h_000000000000', 'hook', 'approve', `sha256:${'0'.repeat(64)}`, null, 'Stop: npx old', '2026-01-01T00:00:00.000Z', 'user (cli)');
    old.close();
    const w = hookWorld();
    await w.engine.close();
    fs.rmSync(w.dataDir, { recursive: true, force: true });
    fs.cpSync(dataDir, w.dataDir, { recursive: true });
    const engine = await w.restart();
    expect(engine.store.schemaVersion).toBe(MIGRATIONS.length);
    const columns = (engine.store.db.prepare('PRAGMA table_info(hook_audit)').all() as Array<{ name: string }>).map((c) => c.name);
    expect(columns).toContain('acknowledged_uncovered_json');
    const row = engine.store.db.prepare('SELECT acknowledged_uncovered_json AS a, label FROM hook_audit').get() as { a: string | null; label: string };
    expect(row).toEqual({ a: null, label: 'Stop: npx old' });
    // the table stays append-only after the migration
    expect(() => engine.store.db.prepare('UPDATE hook_audit SET acknowledged_uncovered_json = ?').run('[]')).toThrow(/append-only/);
    w.trust(); // the copied-in database holds no trust decision
    w.write({ '.claude/settings.json': settingsWith('Stop', { type: 'command', command: 'npx -y cowsay' }) });
    const h = await w.hook('npx -y cowsay');
    await engine.hooks.approve({ path: w.project }, [{ id: h.id, acknowledgeUncovered: true }]);
    const stored = engine.store.db.prepare('SELECT acknowledged_uncovered_json AS a FROM hook_audit WHERE item_id = ?').get(h.id) as { a: string };
    expect(JSON.parse(stored.a)).toEqual(h.uncovered);
  });
});
