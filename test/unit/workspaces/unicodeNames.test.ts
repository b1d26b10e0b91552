import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/main/core/migrations';
import { MIGRATIONS } from '../../../src/main/core/migrations';
import { resolveFolder } from '../../../src/main/core/workspaces/paths';
import { runCli } from '../../support/cli';
import { tempDir } from '../../support/tempDir';
import { trustWorld } from '../trust/helpers';

const NFC = 'caf\u00e9';
const NFD = 'cafe\u0301';

/** True when this file system keeps NFC and NFD names apart (Linux ext4/tmpfs/btrfs do; APFS does not). */
function distinguishesNormalisation(): boolean {
  const dir = tempDir('atrium-nf-probe-');
  fs.mkdirSync(path.join(dir, NFC));
  try {
    fs.mkdirSync(path.join(dir, NFD));
    return true;
  } catch {
    return false;
  }
}

const distinct = distinguishesNormalisation();

describe.skipIf(!distinct)('NFC and NFD spellings are two folders where the file system says so', { timeout: 120_000 }, () => {
  it('engine: trusting one sibling leaves the other undecided, in the gate, the workspace list and the rule catalog', async () => {
    const w = trustWorld({ watchHooks: false, watchResources: false });
    const nfc = w.mkdir(NFC);
    const nfd = w.mkdir(NFD);
    for (const dir of [nfc, nfd]) fs.writeFileSync(path.join(dir, 'AGENTS.md'), `# rules of ${dir === nfc ? 'nfc' : 'nfd'}\n`);
    const a = w.engine.workspaces.add(nfc).workspace;
    const b = w.engine.workspaces.add(nfd).workspace;
    expect(a.id).not.toBe(b.id);
    expect(w.engine.workspaces.list().map((x) => x.path)).toEqual([nfc, nfd]);

    w.engine.trust.set(resolveFolder(nfc), 'trusted');
    expect(w.engine.trust.status(nfc)).toMatchObject({ state: 'trusted', decidedBy: nfc });
    expect(w.engine.trust.status(nfd)).toMatchObject({ trustRoot: nfd, state: 'undecided', decidedBy: null });
    expect(w.engine.trustGate.mayActivateProjectResources(nfc)).toBe(true);
    expect(w.engine.trustGate.mayActivateProjectResources(nfd)).toBe(false);
    expect(w.engine.workspaces.get(b.id).trust.state).toBe('undecided');
    expect(w.engine.trust.list().map((d) => d.path)).toEqual([nfc]);

    const nfcRules = await w.engine.rules.list(nfc);
    const nfdRules = await w.engine.rules.list(nfd);
    expect(nfcRules).toMatchObject({ root: nfc, trust: 'trusted' });
    expect(nfdRules).toMatchObject({ root: nfd, trust: 'restricted' });
  });

  it('CLI: `trust set` on the NFC folder, `trust status` of the NFD folder says undecided; both are workspaces', () => {
    const root = tempDir('atrium-nf-cli-');
    const home = path.join(root, 'home');
    const nfc = path.join(home, 'src', NFC);
    const nfd = path.join(home, 'src', NFD);
    fs.mkdirSync(nfc, { recursive: true });
    fs.mkdirSync(nfd);
    const cli = (...args: string[]) => runCli([...args, '--data-dir', path.join(root, 'data'), '--json'], { HOME: home, USERPROFILE: home });
    expect(cli('trust', 'set', nfc, 'trusted')).toMatchObject({ status: 0, json: { decision: { path: nfc, state: 'trusted' } } });
    expect(cli('trust', 'status', nfd).json).toMatchObject({ path: nfd, trustRoot: nfd, state: 'undecided', decidedBy: null });
    expect(cli('trust', 'status', nfc).json).toMatchObject({ state: 'trusted' });
    expect(cli('workspace', 'add', nfc).json).toMatchObject({ created: true });
    expect(cli('workspace', 'add', nfd).json).toMatchObject({ created: true, workspace: { path: nfd, trust: { state: 'undecided' } } });
    expect((cli('workspace', 'list').json as { workspaces: unknown[] }).workspaces).toHaveLength(2);
  });

  it('migrates a schema-5 database whose keys were NFC: keys become the on-disk bytes, no row is lost', async () => {
    const root = tempDir('atrium-nf-migrate-');
    const home = path.join(root, 'home');
    const dataDir = path.join(root, 'data');
    const src = path.join(home, 'src');
    // the folder the user added and trusted: NFD on disk, and later an unrelated NFC sibling
    const added = path.join(src, NFD);
    const sibling = path.join(src, NFC);
    // a folder trusted by path only (no workspace), NFD on disk; and a decision for a folder that is gone
    const byPath = path.join(src, 'p', `re\u0301sume\u0301`);
    const gone = path.join(src, `gone-${NFC}`);
    fs.mkdirSync(added, { recursive: true });
    fs.mkdirSync(sibling);
    fs.mkdirSync(byPath, { recursive: true });
    const old = openStore(dataDir, { migrations: MIGRATIONS.slice(0, 5) });
    expect(old.schemaVersion).toBe(5);
    const at = '2026-01-01T00:00:00.000Z';
    old.db.prepare('INSERT INTO workspaces (id, name, identity, path, trust_root, added_at) VALUES (?, ?, ?, ?, ?, ?)').run('w1', NFC, added.normalize('NFC'), added, added, at);
    for (const key of [added.normalize('NFC'), byPath.normalize('NFC'), gone]) {
      old.db.prepare('INSERT INTO trust_decisions (path, state, decided_at, source) VALUES (?, ?, ?, ?)').run(key, 'trusted', at, 'user');
      old.db.prepare('INSERT INTO trust_history (path, old_state, new_state, changed_at, source) VALUES (?, NULL, ?, ?, ?)').run(key, 'trusted', at, 'user');
    }
    old.db
      .prepare("INSERT INTO hook_approvals (trust_root, hook_key, item_id, kind, digest, definition_json, approved_at, approved_by) VALUES (?, 'k', 'h_1', 'hook', 'sha256:x', '{}', ?, 'user')")
      .run(added, at);
    old.close();

    const w = trustWorld({ watchHooks: false, watchResources: false });
    await w.engine.close();
    fs.rmSync(w.dataDir, { recursive: true, force: true });
    fs.cpSync(dataDir, w.dataDir, { recursive: true });
    const engine = w.restart();
    expect(engine.store.schemaVersion).toBe(MIGRATIONS.length);
    const db = engine.store.db;
    expect(db.prepare('SELECT identity, path FROM workspaces').all()).toEqual([{ identity: added, path: added }]);
    expect((db.prepare("SELECT name FROM pragma_table_info('workspaces')").all() as Array<{ name: string }>).map((c) => c.name)).not.toContain('trust_root');
    expect((db.prepare('SELECT path FROM trust_decisions ORDER BY path').all() as Array<{ path: string }>).map((r) => r.path).sort()).toEqual([added, gone, byPath].sort());
    expect((db.prepare('SELECT path FROM trust_history ORDER BY id').all() as Array<{ path: string }>).map((r) => r.path)).toEqual([added, byPath, gone]);
    expect(db.prepare('SELECT trust_root FROM hook_approvals').all()).toEqual([{ trust_root: added }]);
    // the audit logs are append-only again
    expect(() => db.prepare('DELETE FROM trust_history').run()).toThrow(/append-only/);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%_no_%'").get()).toEqual({ n: 4 });

    // the decisions apply to the folders they were made for, and the NFC sibling is a folder of its own
    expect(engine.trust.status(added)).toMatchObject({ state: 'trusted', decidedBy: added });
    expect(engine.trust.status(byPath)).toMatchObject({ state: 'trusted', decidedBy: byPath });
    expect(engine.trust.status(sibling)).toMatchObject({ state: 'undecided', decidedBy: null });
    expect(engine.workspaces.find(added)?.id).toBe('w1');
    expect(engine.workspaces.add(sibling).created).toBe(true);
  });

});
