import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { completeFolder, expandHome } from '../../../src/main/core/workspaces/folderInput';

let home: string;
beforeEach(() => {
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-home-')));
  for (const d of ['src/proj', 'src/proto', 'src/other', 'src/.hidden']) fs.mkdirSync(path.join(home, d), { recursive: true });
  fs.writeFileSync(path.join(home, 'src/profile.txt'), 'not a folder');
  fs.symlinkSync(path.join(home, 'src/other'), path.join(home, 'src/prlink'));
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

describe('typed folder paths', () => {
  it('expands a leading ~ like a shell, and nothing else', () => {
    expect(expandHome('~', home)).toBe(home);
    expect(expandHome(' ~/src/proj ', home)).toBe(path.join(home, 'src/proj'));
    expect(expandHome('~other/x', home)).toBe('~other/x');
    expect(expandHome('src/~/x', home)).toBe('src/~/x');
    expect(expandHome('/abs/~/x', home)).toBe('/abs/~/x');
  });

  it('completes subfolders of the typed parent, keeping ~, folders and folder links only, hidden ones only when asked', () => {
    expect(completeFolder('~/src/pr', home)).toEqual(['~/src/prlink/', '~/src/proj/', '~/src/proto/']);
    expect(completeFolder(`${home}/src/`, home)).toEqual([`${home}/src/other/`, `${home}/src/prlink/`, `${home}/src/proj/`, `${home}/src/proto/`]);
    expect(completeFolder('~/src/.', home)).toEqual(['~/src/.hidden/']);
    expect(completeFolder('~', home)).toEqual(['~/src/']);
    expect(completeFolder('relative/pr', home)).toEqual([]);
    expect(completeFolder('~/missing/x', home)).toEqual([]);
    expect(completeFolder('~/src/p', home, 1)).toEqual(['~/src/prlink/']);
  });
});

describe('typed paths through the requests', () => {
  it('workspaces.add and workspaces.relocate both take ~/… (Locate… after a folder moved)', async () => {
    const { createEngine } = await import('../../../src/main/core/engine');
    const { createDispatcher } = await import('../../../src/main/core/dispatcher');
    const { fixedGate } = await import('../../../src/main/core/trust/gate');
    const engine = createEngine({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-data-')), homeDir: home, trustGate: fixedGate(false), workspacePresencePollMs: 0 });
    try {
      const d = createDispatcher(engine, {
        'app.info': () => ({ version: 't', host: 'browser', dataDir: '/d', homeDir: home, capabilities: { nativeFolderPicker: false } }),
        'app.pickFolder': () => ({ path: null }),
      });
      const { workspace } = await d.call('workspaces.add', { path: '~/src/proj' });
      expect(workspace.path).toBe(path.join(home, 'src/proj'));
      fs.renameSync(path.join(home, 'src/proj'), path.join(home, 'src/moved'));
      const { workspace: moved } = await d.call('workspaces.relocate', { id: workspace.id, path: '~/src/moved' });
      expect(moved.id).toBe(workspace.id);
      expect(moved.path).toBe(path.join(home, 'src/moved'));
    } finally {
      await engine.close();
    }
  });
});
