import { describe, expect, it } from 'vitest';
import { listWorkspaceFiles } from '../../../src/main/core/files/listWorkspaceFiles';
import { WorkspaceScan } from '../../../src/main/core/files/scan';
import path from 'node:path';
import { buildCatalog, fileAt, makeRepo, paths } from './helpers';

/** `n` nested folder names: d01/d02/…/dNN. */
const deepDir = (n: number) => Array.from({ length: n }, (_, i) => `d${String(i + 1).padStart(2, '0')}`).join('/');

describe('the depth limit (32 folders below the root)', () => {
  it('lists what it cuts: deep files with git, folders not descended with the walk', async () => {
    for (const git of [true, false]) {
      const dir = makeRepo({ [`${deepDir(33)}/AGENTS.md`]: 'deep', [`${deepDir(32)}/AGENTS.md`]: 'at the limit', 'node_modules/x/AGENTS.md': 'skipped' }, { git });
      const listed = await listWorkspaceFiles(dir, { maxDepth: 32, verifyExistence: false });
      expect(listed.files).toContain(`${deepDir(32)}/AGENTS.md`);
      expect(listed.files).not.toContain(`${deepDir(33)}/AGENTS.md`);
      expect(listed.beyondDepth).toEqual(git ? [`${deepDir(33)}/AGENTS.md`] : [`${deepDir(33)}/`]);
    }
  });

  it('warns about rule files it cuts, naming the first cut folder and the limit', async () => {
    const dir = makeRepo({ 'AGENTS.md': 'root', [`${deepDir(34)}/AGENTS.md`]: 'deep', [`${deepDir(34)}/notes.txt`]: '' });
    const catalog = await buildCatalog(dir);
    expect(catalog.files.map((f) => f.relativePath)).toEqual(['AGENTS.md']);
    const w = catalog.warnings.find((x) => x.code === 'depth-limit');
    expect(w).toMatchObject({ severity: 'warning', path: null });
    expect(w?.message).toContain('1 rule file lies more than 32 folders below the repository root');
    expect(w?.message).toContain(`first cut folder is ${deepDir(33)}/ (${deepDir(34)}/AGENTS.md)`);
    expect(w?.fix).toContain('Open a folder closer to those files as the workspace');
  });

  it('no warning when only other files are cut; without git a note names the folders not read', async () => {
    const dir = makeRepo({ 'AGENTS.md': 'root', [`${deepDir(34)}/notes.txt`]: '' });
    expect((await buildCatalog(dir)).warnings.map((w) => w.code)).not.toContain('depth-limit');
    const plain = makeRepo({ 'AGENTS.md': 'root', [`${deepDir(34)}/AGENTS.md`]: 'deep' }, { git: false });
    const note = (await buildCatalog(plain)).warnings.find((w) => w.code === 'depth-limit');
    expect(note).toMatchObject({ severity: 'info' });
    expect(note?.message).toContain(`first cut folder is ${deepDir(33)}/`);
  });

  it('a workspace folder 40 levels down in a repository still gets its own AGENTS.md, CLAUDE.md and the deep folders on the way', async () => {
    {
      const ws = deepDir(40);
      const dir = makeRepo(
        {
          'AGENTS.md': 'root',
          [`${deepDir(35)}/AGENTS.md`]: 'on the way',
          [`${deepDir(35)}/other/AGENTS.md`]: 'beside the way',
          [`${ws}/AGENTS.md`]: 'start agents',
          [`${ws}/CLAUDE.md`]: 'start claude',
          [`${ws}/.claude/CLAUDE.md`]: 'start dot claude',
          [`${ws}/src/a.ts`]: '',
        },
      );
      const catalog = await buildCatalog(path.join(dir, ws));
      expect(catalog.root).toBe(dir);
      const rels = catalog.files.map((f) => f.relativePath);
      expect(rels).toEqual(expect.arrayContaining([`${ws}/AGENTS.md`, `${ws}/CLAUDE.md`, `${ws}/.claude/CLAUDE.md`, `${deepDir(35)}/AGENTS.md`]));
      expect(rels).not.toContain(`${deepDir(35)}/other/AGENTS.md`);
      expect(fileAt(catalog, `${ws}/AGENTS.md`).status).toBe('active');
      expect(paths(catalog.staticRules())).toEqual(['AGENTS.md', `${deepDir(35)}/AGENTS.md`, `${ws}/CLAUDE.md`, `${ws}/.claude/CLAUDE.md`, `${ws}/AGENTS.md`]);
      const w = catalog.warnings.find((x) => x.code === 'depth-limit');
      expect(w?.message).toContain(`1 rule file lies more than 32 folders`);
      expect(w?.message).toContain(`(${deepDir(35)}/other/AGENTS.md)`);
    }
  });

  it('a build scan reports the same cut as a direct listing', async () => {
    const ws = deepDir(36);
    const dir = makeRepo({ [`${ws}/AGENTS.md`]: 'start', [`${deepDir(34)}/x/AGENTS.md`]: 'cut' });
    const scan = new WorkspaceScan({ root: dir, workspaceDir: path.join(dir, ws) });
    const viaScan = await scan.list(dir, { maxDepth: 32, verifyExistence: false });
    const direct = await listWorkspaceFiles(dir, { maxDepth: 32, verifyExistence: false });
    expect(viaScan.files).toEqual(direct.files);
    expect(viaScan.beyondDepth).toEqual(direct.beyondDepth);
    expect(direct.beyondDepth).toEqual([`${deepDir(34)}/x/AGENTS.md`, `${ws}/AGENTS.md`].sort());
  });
});
