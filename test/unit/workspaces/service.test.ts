import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../src/main/core/engine';
import { tempDir } from '../../support/tempDir';

let engine: Engine;
let events: Array<{ event: string; payload: unknown }>;
beforeEach(() => {
  engine = createEngine({ dataDir: tempDir('atrium-data-') });
  events = [];
  engine.bus.subscribe((event, payload) => events.push({ event, payload }));
});
afterEach(async () => engine.close());

const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=T', ...args], { cwd, stdio: 'pipe' });

describe('workspaces', () => {
  it('adds a folder by canonical path, names it after the folder, and pushes workspacesChanged', () => {
    const dir = path.join(tempDir(), 'project');
    fs.mkdirSync(dir);
    const { workspace, created } = engine.workspaces.add(dir);
    expect(created).toBe(true);
    expect(workspace).toMatchObject({ name: 'project', path: dir, trustRoot: dir, missing: false });
    expect(engine.workspaces.list()).toEqual([workspace]);
    expect(events).toEqual([{ event: 'workspacesChanged', payload: { workspaces: [workspace] } }]);
  });

  it('returns the existing workspace for the same folder via a trailing slash, a symlink, or "..", never a duplicate', () => {
    const root = tempDir();
    const dir = path.join(root, 'repo');
    fs.mkdirSync(dir);
    fs.symlinkSync(dir, path.join(root, 'alias'));
    const first = engine.workspaces.add(dir).workspace;
    for (const spelling of [`${dir}/`, path.join(root, 'alias'), `${root}/alias/`, `${dir}/../repo`]) {
      const again = engine.workspaces.add(spelling);
      expect(again.created).toBe(false);
      expect(again.workspace.id).toBe(first.id);
    }
    expect(engine.workspaces.list()).toHaveLength(1);
    expect(events).toHaveLength(1);
  });

  it('keeps the on-disk bytes of an NFD name, finds it by them, and lists an NFC sibling as another workspace', () => {
    const root = tempDir();
    const nfd = 'cafe\u0301';
    const dir = path.join(root, nfd);
    fs.mkdirSync(dir);
    const first = engine.workspaces.add(dir).workspace;
    expect(first.path).toBe(dir); // on Linux the NFD bytes are the folder's real name
    expect(first.missing).toBe(false);
    expect(first.name).toBe('caf\u00e9');
    expect(engine.workspaces.add(`${dir}/`).created).toBe(false);
    // on Linux the NFC spelling names no folder yet, so it finds nothing; created, it is a folder of its own
    expect(engine.workspaces.find(path.join(root, 'caf\u00e9'))).toBeNull();
    fs.mkdirSync(path.join(root, 'caf\u00e9'));
    const second = engine.workspaces.add(path.join(root, 'caf\u00e9'));
    expect(second.created).toBe(true);
    expect(second.workspace.id).not.toBe(first.id);
    expect(engine.workspaces.find(dir)?.id).toBe(first.id);
  });

  it('refuses relative paths, files and nonexistent paths with messages that say what to do', () => {
    const root = tempDir();
    fs.writeFileSync(path.join(root, 'file.txt'), 'x');
    expect(() => engine.workspaces.add('relative/dir')).toThrowError(expect.objectContaining({ code: 'PATH_NOT_ABSOLUTE', message: expect.stringContaining("full path") }));
    expect(() => engine.workspaces.add(path.join(root, 'file.txt'))).toThrowError(expect.objectContaining({ code: 'NOT_A_DIRECTORY' }));
    expect(() => engine.workspaces.add(path.join(root, 'nope'))).toThrowError(expect.objectContaining({ code: 'PATH_NOT_FOUND' }));
    expect(engine.workspaces.list()).toEqual([]);
  });

  it.skipIf(process.getuid?.() === 0)('refuses an unreadable folder', () => {
    const dir = path.join(tempDir(), 'locked');
    fs.mkdirSync(dir, { mode: 0o000 });
    try {
      expect(() => engine.workspaces.add(dir)).toThrowError(expect.objectContaining({ code: 'PATH_UNREADABLE' }));
    } finally {
      fs.chmodSync(dir, 0o700);
    }
  });

  it('lists a vanished folder as missing instead of failing, and can still remove it by path', () => {
    const dir = path.join(tempDir(), 'gone');
    fs.mkdirSync(dir);
    const { workspace } = engine.workspaces.add(dir);
    fs.rmSync(dir, { recursive: true });
    expect(engine.workspaces.list()).toEqual([{ ...workspace, missing: true }]);
    expect(engine.workspaces.details(workspace.id).git.kind).toBe('none');
    expect(engine.workspaces.find(dir)?.id).toBe(workspace.id);
    expect(engine.workspaces.remove(workspace.id)).toBe(true);
  });

  it('renames only the display name and removes only the record, never the folder', () => {
    const dir = path.join(tempDir(), 'keep');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'AGENTS.md'), '# rules');
    const { workspace } = engine.workspaces.add(dir);
    expect(engine.workspaces.rename(workspace.id, '  Pretty name ').name).toBe('Pretty name');
    expect(fs.existsSync(dir)).toBe(true);
    expect(engine.workspaces.remove(workspace.id)).toBe(true);
    expect(engine.workspaces.remove(workspace.id)).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'AGENTS.md'), 'utf8')).toBe('# rules');
    expect(() => engine.workspaces.rename(workspace.id, 'x')).toThrowError(expect.objectContaining({ code: 'NOT_FOUND' }));
  });

  it('records the main checkout as trust root for a linked git worktree (real git worktree add), also for a subfolder', () => {
    const root = tempDir();
    const main = path.join(root, 'main');
    fs.mkdirSync(path.join(main, 'packages', 'app'), { recursive: true });
    git(main, 'init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(main, 'packages', 'app', 'index.ts'), '');
    git(main, 'add', '.');
    git(main, 'commit', '-qm', 'init');
    const wt = path.join(root, 'wt');
    git(main, 'worktree', 'add', '-q', '-b', 'feature', wt);

    const mainWs = engine.workspaces.add(main).workspace;
    expect(mainWs.trustRoot).toBe(main);
    expect(engine.workspaces.details(mainWs.id).git).toEqual({ kind: 'repo', workTree: main, mainCheckout: null, hasCommits: true });

    const wtWs = engine.workspaces.add(wt).workspace;
    expect(wtWs.path).toBe(wt);
    expect(wtWs.trustRoot).toBe(main);
    expect(engine.workspaces.details(wtWs.id).git).toEqual({ kind: 'worktree', workTree: wt, mainCheckout: main, hasCommits: true });

    const sub = engine.workspaces.add(path.join(wt, 'packages', 'app')).workspace;
    expect(sub.trustRoot).toBe(path.join(main, 'packages', 'app'));
  });

  it('uses the folder itself as trust root for a plain folder and for a repo subfolder', () => {
    const repo = path.join(tempDir(), 'repo');
    fs.mkdirSync(path.join(repo, 'sub'), { recursive: true });
    git(repo, 'init', '-q');
    const sub = engine.workspaces.add(path.join(repo, 'sub')).workspace;
    expect(sub.trustRoot).toBe(path.join(repo, 'sub'));
    expect(engine.workspaces.details(sub.id).git).toEqual({ kind: 'repo', workTree: repo, mainCheckout: null, hasCommits: false });
    expect(engine.workspaces.add(os.tmpdir()).workspace.trustRoot).toBe(fs.realpathSync(os.tmpdir()));
  });

  it('persists across engine restarts on the same data dir', async () => {
    const dataDir = tempDir('atrium-data-');
    const dir = path.join(tempDir(), 'p');
    fs.mkdirSync(dir);
    const a = createEngine({ dataDir });
    const { workspace } = a.workspaces.add(dir);
    await a.close();
    const b = createEngine({ dataDir });
    expect(b.workspaces.list()).toEqual([workspace]);
    await b.close();
  });
});

describe('workspace folders that move while Atrium runs', () => {
  it('checkPresence pushes the list when a folder disappears or comes back, and only then', () => {
    const root = tempDir();
    const dir = path.join(root, 'project');
    fs.mkdirSync(dir);
    engine.workspaces.add(dir);
    expect(engine.workspaces.checkPresence()).toBe(false); // first look: the list clients have is current
    events = [];
    expect(engine.workspaces.checkPresence()).toBe(false);
    fs.renameSync(dir, path.join(root, 'moved'));
    expect(engine.workspaces.checkPresence()).toBe(true);
    expect(events).toHaveLength(1);
    expect((events[0].payload as { workspaces: Array<{ missing: boolean }> }).workspaces[0].missing).toBe(true);
    expect(engine.workspaces.checkPresence()).toBe(false);
    fs.renameSync(path.join(root, 'moved'), dir);
    expect(engine.workspaces.checkPresence()).toBe(true);
    expect(engine.workspaces.list()[0].missing).toBe(false);
  });

  it('checkPresence notices a folder that vanished before its first check, and one relocated then moved away before the next', () => {
    const root = tempDir();
    const dir = path.join(root, 'project');
    fs.mkdirSync(dir);
    const ws = engine.workspaces.add(dir).workspace;
    fs.renameSync(dir, path.join(root, 'moved'));
    events = [];
    expect(engine.workspaces.checkPresence()).toBe(true);
    expect(engine.workspaces.list()[0].missing).toBe(true);
    engine.workspaces.relocate(ws.id, path.join(root, 'moved'));
    fs.renameSync(path.join(root, 'moved'), dir); // before any check: missing again, at the new path
    events = [];
    expect(engine.workspaces.checkPresence()).toBe(true);
    expect((events[0].payload as { workspaces: Array<{ missing: boolean }> }).workspaces[0].missing).toBe(true);
  });

  it('relocate points a workspace at its new folder (same id and name), refuses a missing path or a folder listed as another workspace', () => {
    const root = tempDir();
    const dir = path.join(root, 'project');
    const other = path.join(root, 'other');
    fs.mkdirSync(dir);
    fs.mkdirSync(other);
    const ws = engine.workspaces.add(dir, 'My project').workspace;
    engine.workspaces.add(other);
    const moved = path.join(root, 'project-moved');
    fs.renameSync(dir, moved);
    expect(engine.workspaces.get(ws.id).missing).toBe(true);
    expect(() => engine.workspaces.relocate(ws.id, path.join(root, 'nowhere'))).toThrow(expect.objectContaining({ code: 'PATH_NOT_FOUND' }));
    expect(() => engine.workspaces.relocate(ws.id, other)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS' }));
    events = [];
    const relocated = engine.workspaces.relocate(ws.id, moved);
    expect(relocated).toMatchObject({ id: ws.id, name: 'My project', path: moved, missing: false });
    expect(events.map((e) => e.event)).toEqual(['workspacesChanged']);
    // the old path no longer finds it; the new one does
    expect(engine.workspaces.find(dir)).toBeNull();
    expect(engine.workspaces.find(moved)?.id).toBe(ws.id);
  });
});
