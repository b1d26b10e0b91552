import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AtriumError } from '../../../src/shared/errors';
import { resolveFolder } from '../../../src/main/core/workspaces/paths';
import { git, trustWorld } from './helpers';

const folder = (p: string) => resolveFolder(p);

describe('trust resolution: the deepest ancestor-or-self decision wins', () => {
  it('is undecided without any decision, for an existing and a missing folder', () => {
    const w = trustWorld();
    const dir = w.mkdir('proj');
    expect(w.engine.trust.status(dir)).toMatchObject({ state: 'undecided', decidedBy: null, inherited: false, decidedAt: null, ownDecision: null });
    expect(w.engine.trust.status(path.join(w.src, 'not-yet-cloned')).state).toBe('undecided');
  });

  it('a child inherits a trusted parent, and a child "untrusted" beats the trusted parent', () => {
    const w = trustWorld();
    const child = w.mkdir('org/child');
    const sibling = w.mkdir('org/sibling');
    const org = path.join(w.src, 'org');
    w.engine.trust.set(folder(org), 'trusted');

    expect(w.engine.trust.status(child)).toMatchObject({ state: 'trusted', decidedBy: org, inherited: true });
    w.engine.trust.set(folder(child), 'untrusted');
    expect(w.engine.trust.status(child)).toMatchObject({ state: 'untrusted', decidedBy: child, inherited: false, ownDecision: 'untrusted' });
    expect(w.engine.trust.status(sibling)).toMatchObject({ state: 'trusted', decidedBy: org, inherited: true });
    // deeper folders of the untrusted child follow the child, not the trusted grandparent
    expect(w.engine.trust.status(path.join(child, 'deep/er')).state).toBe('untrusted');
  });

  it('a child "trusted" beats an untrusted parent (most specific wins the other way too)', () => {
    const w = trustWorld();
    const child = w.mkdir('evaluate/good');
    const other = w.mkdir('evaluate/unknown');
    w.engine.trust.set(folder(path.join(w.src, 'evaluate')), 'untrusted');
    w.engine.trust.set(folder(child), 'trusted');
    expect(w.engine.trust.status(child)).toMatchObject({ state: 'trusted', inherited: false });
    expect(w.engine.trust.status(other)).toMatchObject({ state: 'untrusted', inherited: true });
  });

  it('clearing a child decision makes it inherit again', () => {
    const w = trustWorld();
    const child = w.mkdir('a/b');
    w.engine.trust.set(folder(path.join(w.src, 'a')), 'trusted');
    w.engine.trust.set(folder(child), 'untrusted');
    const cleared = w.engine.trust.clear(folder(child));
    expect(cleared.removed).toBe(true);
    expect(cleared.status).toMatchObject({ state: 'trusted', inherited: true });
    expect(w.engine.trust.clear(folder(child)).removed).toBe(false);
  });

  it('"trust parent folder" records the decision for ~/src and covers every folder below it', () => {
    const w = trustWorld();
    const proj = w.mkdir('proj');
    const status = w.engine.trust.status(proj);
    expect(status.parentSuggestion).toBe(w.src);
    const result = w.engine.trust.set(folder(proj), 'trusted', { parent: true });
    expect(result.decision.path).toBe(w.src);
    expect(w.engine.trust.status(w.mkdir('another/repo'))).toMatchObject({ state: 'trusted', decidedBy: w.src });
  });

  it('offers the parent only when trusting it would make the folder trusted', () => {
    const w = trustWorld();
    const x = w.mkdir('x');
    const r3 = w.mkdir('x/r3');
    w.engine.trust.set(folder(r3), 'untrusted');
    // r3's own decision overrides whatever its parent gets
    expect(w.engine.trust.status(r3)).toMatchObject({ state: 'untrusted', parentSuggestion: null });
    w.engine.trust.set(folder(x), 'trusted');
    expect(w.engine.trust.status(r3)).toMatchObject({ state: 'untrusted', decidedBy: r3, parentSuggestion: null });
    // a sibling without a decision inherits x already: trusting x again changes nothing
    expect(w.engine.trust.status(w.mkdir('x/r4'))).toMatchObject({ state: 'trusted', inherited: true, parentSuggestion: null });
    // an undecided folder under an untrusted grandparent is helped by trusting its parent
    w.engine.trust.set(folder(x), 'untrusted');
    expect(w.engine.trust.status(w.mkdir('x/r5/deep'))).toMatchObject({ state: 'untrusted', parentSuggestion: path.join(x, 'r5') });
  });

  it('offers no parent folder directly below home or root, and refuses --parent there', () => {
    const w = trustWorld();
    expect(w.engine.trust.status(w.src).parentSuggestion).toBeNull();
    expect(() => w.engine.trust.set(folder(w.src), 'trusted', { parent: true })).toThrow(expect.objectContaining({ code: 'TRUST_NO_PARENT' }));
    expect(w.engine.trust.status('/usr').parentSuggestion).toBeNull();
  });

  it('survives a restart (decisions live in the SQLite store)', () => {
    const w = trustWorld();
    const proj = w.mkdir('proj');
    w.engine.trust.set(folder(proj), 'trusted');
    const engine = w.restart();
    expect(engine.trust.status(proj)).toMatchObject({ state: 'trusted', decidedBy: proj });
  });
});

describe('refusals', () => {
  it('refuses to trust the filesystem root, the home directory and folders containing it', () => {
    const w = trustWorld();
    for (const dir of ['/', w.home, path.dirname(w.home)]) {
      let caught: unknown;
      try {
        w.engine.trust.set(folder(dir), 'trusted');
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(AtriumError);
      expect((caught as AtriumError).code).toBe('TRUST_REFUSED');
      expect(w.engine.trust.status(dir).trustRefused).toMatch(/would trust every|contains your home folder/);
    }
    expect(w.engine.trust.list()).toEqual([]);
    expect(w.engine.trust.history()).toEqual([]);
  });

  it('allows trusting folders below home, and marking home untrusted (that only restricts)', () => {
    const w = trustWorld();
    expect(w.engine.trust.set(folder(w.src), 'trusted').decision.state).toBe('trusted');
    expect(w.engine.trust.set(folder(w.home), 'untrusted').decision.state).toBe('untrusted');
    expect(w.engine.trust.status(w.mkdir('x')).state).toBe('trusted');
    expect(w.engine.trust.status(w.home).trustRefused).not.toBeNull();
  });

  it('refuses a relative path with PATH_NOT_ABSOLUTE', () => {
    const w = trustWorld();
    expect(() => w.engine.trust.status('src/proj')).toThrow(expect.objectContaining({ code: 'PATH_NOT_ABSOLUTE' }));
  });
});

describe('identity: one decision per folder however it is spelled', () => {
  it('a symlinked path and a trailing slash resolve to the same decision', () => {
    const w = trustWorld();
    const real = w.mkdir('real-proj');
    const link = path.join(w.home, 'link-to-proj');
    fs.symlinkSync(real, link);
    w.engine.trust.set(folder(link), 'trusted');
    expect(w.engine.trust.list()).toEqual([expect.objectContaining({ path: real, state: 'trusted' })]);
    expect(w.engine.trust.status(`${real}/`)).toMatchObject({ state: 'trusted', decidedBy: real, inherited: false });
    expect(w.engine.trust.status(path.join(link, 'sub')).state).toBe('trusted');
    expect(w.engine.trust.mayActivateProjectResources(link)).toBe(true);
  });

  it('deciding for a missing folder canonicalises it below its real, existing ancestor', () => {
    const w = trustWorld();
    const real = w.mkdir('parent');
    const link = path.join(w.home, 'alias');
    fs.symlinkSync(real, link);
    w.engine.trust.set(folder(path.join(link, 'later', '.')), 'untrusted');
    expect(w.engine.trust.list().map((d) => d.path)).toEqual([path.join(real, 'later')]);
    fs.mkdirSync(path.join(real, 'later'));
    expect(w.engine.trust.status(path.join(real, 'later'))).toMatchObject({ state: 'untrusted', inherited: false });
  });

  it('refuses to trust a folder that does not exist (a typo), but may mark it untrusted', () => {
    const w = trustWorld();
    const missing = path.join(w.src, 'no-such-folder');
    expect(() => w.engine.trust.set(folder(missing), 'trusted')).toThrowError(expect.objectContaining({ code: 'TRUST_REFUSED', message: expect.stringContaining('does not exist') }));
    expect(w.engine.trust.set(folder(missing), 'untrusted').decision.state).toBe('untrusted');
  });

  it('NFC and NFD spellings of a folder name are two folders on Linux, so two decisions', () => {
    const w = trustWorld();
    const nfc = path.join(w.src, 'caf\u00e9');
    const nfd = path.join(w.src, 'cafe\u0301');
    fs.mkdirSync(nfd); // on disk as NFD bytes
    fs.mkdirSync(nfc); // a different folder on Linux file systems
    expect(w.engine.trust.set(folder(nfd), 'trusted').decision.path).toBe(nfd);
    expect(w.engine.trust.status(nfd)).toMatchObject({ state: 'trusted', inherited: false });
    expect(w.engine.trust.status(nfc)).toMatchObject({ state: 'undecided', decidedBy: null });
    expect(w.engine.trust.mayActivateProjectResources(nfc)).toBe(false);
  });

  it('a linked git worktree shares its main checkout\'s decision (real `git worktree add`)', () => {
    const w = trustWorld();
    const main = w.mkdir('repo');
    git(main, 'init', '-q');
    fs.mkdirSync(path.join(main, 'packages/app'), { recursive: true });
    fs.writeFileSync(path.join(main, 'packages/app/README.md'), 'x');
    git(main, 'add', '.');
    git(main, 'commit', '-q', '-m', 'init');
    const wt = path.join(w.src, 'repo-feature');
    git(main, 'worktree', 'add', '-q', '-b', 'feature', wt);

    expect(w.engine.trust.status(wt)).toMatchObject({ trustRoot: main, state: 'undecided' });
    // trusting the worktree records the decision for the main checkout
    const result = w.engine.trust.set(folder(wt), 'trusted');
    expect(result.decision.path).toBe(main);
    expect(w.engine.trust.status(main)).toMatchObject({ state: 'trusted', inherited: false });
    // a subfolder of the worktree is judged by the same subfolder of the main checkout
    const sub = w.engine.trust.status(path.join(wt, 'packages/app'));
    expect(sub).toMatchObject({ trustRoot: path.join(main, 'packages/app'), state: 'trusted', decidedBy: main, inherited: true });
    // and a workspace added for the worktree carries the shared state
    const { workspace } = w.engine.workspaces.add(wt);
    expect(workspace.trustRoot).toBe(main);
    expect(workspace.trust).toEqual({ state: 'trusted', decidedBy: main, inherited: true }); // recorded for the main checkout, not for the worktree
    w.engine.trust.set(folder(main), 'untrusted');
    expect(w.engine.workspaces.get(workspace.id).trust.state).toBe('untrusted');
  });
});
