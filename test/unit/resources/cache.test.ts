import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkspaceResourcesCache } from '../../../src/main/core/resources/cache';
import { WorkspaceResourceCapacityError } from '../../../src/main/core/resources/errors';
import type { ResourceMember, ResourceMemberFactory } from '../../../src/main/core/resources/types';
import { RuleCatalog } from '../../../src/main/core/rules/catalog';
import { digestOfEntries } from '../../../src/main/core/rules/hash';
import { fixedGate } from '../../../src/main/core/trust/gate';
import { tempDir } from '../../support/tempDir';
import { makeHome, makeRepo } from '../rules/helpers';

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A cheap member: an empty catalog per bundle (a new object each time), with hooks for tests. */
function fakeMember(options: { created?: string[]; disposed?: string[]; wait?: Promise<void>; fail?: (dir: string) => Error | null } = {}): ResourceMemberFactory<'rules'> {
  return {
    key: 'rules',
    async create({ workspaceDir }): Promise<ResourceMember<RuleCatalog>> {
      options.created?.push(workspaceDir);
      await options.wait;
      const failure = options.fail?.(workspaceDir);
      if (failure) throw failure;
      const value = new RuleCatalog({ root: workspaceDir, workspaceDir, homeDir: '/home', trust: 'trusted', files: [], catalogSha256: digestOfEntries([]), warnings: [], workspaceFiles: [], listing: 'none', builtAt: '', buildMs: 0 });
      return {
        value,
        snapshot: () => value.snapshot(),
        watchSpec: async () => null,
        applyChanges: async () => ({ replaced: false, notify: false }),
        isStale: () => false,
        refresh: async () => undefined,
        dispose: () => options.disposed?.push(workspaceDir),
      };
    },
  };
}

const makeCache = (members: ResourceMemberFactory[]) => new WorkspaceResourcesCache({ homeDir: makeHome(), trustGate: fixedGate(true), members, watch: false });
const roots = (n: number) => Array.from({ length: n }, () => tempDir('atrium-root-'));

describe('workspace resources cache (seed §1)', () => {
  it('scenario 1: LRU of 32 idle entries; the least recently used is evicted and comes back new', async () => {
    const disposed: string[] = [];
    const cache = makeCache([fakeMember({ disposed })]);
    const dirs = roots(33);
    const first: Array<RuleCatalog> = [];
    for (const dir of dirs.slice(0, 32)) first.push((await cache.resolve(dir)).rules);
    await flush();
    expect((await cache.resolve(dirs[0])).rules).toBe(first[0]); // a hit, now most recently used
    await cache.resolve(dirs[32]);
    await flush();
    expect(cache.stats()).toEqual({ capacity: 32, activeCapacity: 64, entries: 32, initialized: 32, inFlight: 0, activeUsers: 0 });
    expect(disposed).toEqual([dirs[1]]);
    expect((await cache.resolve(dirs[1])).rules).not.toBe(first[1]);
    await cache.close();
  });

  it('scenario 2: a snapshot taken before eviction keeps what it had; the re-created bundle is new', async () => {
    const cache = makeCache([fakeMember()]);
    const dirs = roots(34);
    const bundle = await cache.resolve(dirs[0]);
    const snapshot = cache.snapshot(bundle);
    const child = cache.snapshot(snapshot);
    for (const dir of dirs.slice(1)) await cache.resolve(dir);
    await flush();
    expect(bundle.isDisposed).toBe(true);
    expect(snapshot.rules.root).toBe(dirs[0]);
    expect(child).toMatchObject({ kind: 'snapshot', root: dirs[0] });
    expect(Object.isFrozen(snapshot)).toBe(true);
    expect((await cache.resolve(dirs[0])).rules).not.toBe(bundle.rules);
    await cache.close();
  });

  it('scenario 3: 64 pinned workspaces fill the hard cap; a 65th fails with capacity 64 and adds no entry', async () => {
    const cache = makeCache([fakeMember()]);
    const dirs = roots(65);
    let release!: () => void;
    const blocker = new Promise<void>((resolve) => (release = resolve));
    let started = 0;
    const ops = dirs.slice(0, 64).map((dir) =>
      cache.withResources(dir, async () => {
        started++;
        await blocker;
      }),
    );
    while (started < 64) await flush();
    expect(cache.stats()).toMatchObject({ entries: 64, activeUsers: 64 });
    const error = await cache.resolve(dirs[64]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkspaceResourceCapacityError);
    expect((error as WorkspaceResourceCapacityError).capacity).toBe(64);
    expect((error as WorkspaceResourceCapacityError).name).toBe('WorkspaceResourceCapacityError');
    expect(cache.stats().entries).toBe(64);
    release();
    await Promise.all(ops);
    expect(cache.stats()).toMatchObject({ entries: 32, activeUsers: 0, initialized: 32 });
    await cache.close();
  });

  it('scenario 4: an initialisation failure rejects, leaves no entry and releases what it built; the next resolve starts fresh', async () => {
    const created: string[] = [];
    const disposed: string[] = [];
    let fail = true;
    const second = fakeMember({ fail: () => (fail ? new Error('plugin registry exploded') : null) });
    const cache = makeCache([fakeMember({ created, disposed }), { ...second, key: 'rules' }]);
    const [dir] = roots(1);
    await expect(cache.resolve(dir)).rejects.toThrow('plugin registry exploded');
    expect(cache.stats()).toMatchObject({ entries: 0, activeUsers: 0 });
    expect(disposed).toEqual([dir]); // the first member, already built, was released
    fail = false;
    await cache.resolve(dir);
    expect(created).toEqual([dir, dir]);
    await cache.close();
  });

  it('scenario 5: reset before an initialisation settles: the waiter gets a detached bundle, the cache stays empty', async () => {
    let release!: () => void;
    const wait = new Promise<void>((resolve) => (release = resolve));
    const disposed: string[] = [];
    const cache = makeCache([fakeMember({ wait, disposed })]);
    const [dir] = roots(1);
    const pending = cache.resolve(dir);
    await flush();
    expect(cache.stats()).toMatchObject({ entries: 1, inFlight: 1 });
    cache.reset();
    release();
    const bundle = await pending;
    expect(bundle.isDisposed).toBe(true);
    expect(disposed).toEqual([dir]);
    expect(cache.stats().entries).toBe(0);
    expect(await cache.resolve(dir)).not.toBe(bundle);
    await cache.close();
  });

  it('keys bundles by canonical folder and refuses a missing one', async () => {
    const cache = makeCache([fakeMember()]);
    const [dir] = roots(1);
    fs.symlinkSync(dir, `${dir}-alias`);
    expect(await cache.resolve(`${dir}-alias/`)).toBe(await cache.resolve(dir));
    await expect(cache.resolve(path.join(dir, 'missing'))).rejects.toMatchObject({ code: 'PATH_NOT_FOUND' });
    fs.rmSync(`${dir}-alias`);
    await cache.close();
  });

  it('with the real rule member: a snapshot keeps its rules after the file changes and the bundle is refreshed', async () => {
    const dir = makeRepo({ 'AGENTS.md': 'version one' });
    const cache = new WorkspaceResourcesCache({ homeDir: makeHome(), trustGate: fixedGate(true), watch: false });
    const bundle = await cache.resolve(dir);
    const snapshot = cache.snapshot(bundle);
    fs.writeFileSync(path.join(dir, 'AGENTS.md'), 'version two');
    await cache.refresh(dir);
    expect(snapshot.rules.staticRules().content).toContain('version one');
    expect(bundle.rules.staticRules().content).toContain('version two');
    expect(bundle.version).toBe(1);
    await cache.close();
  });

  it('rebuilds on resolve when the trust answer changed', async () => {
    let trusted = false;
    const dir = makeRepo({ 'AGENTS.md': 'rules' });
    const cache = new WorkspaceResourcesCache({ homeDir: makeHome(), trustGate: { mayActivateProjectResources: () => trusted }, watch: false });
    expect((await cache.resolve(dir)).rules.trust).toBe('restricted');
    trusted = true;
    expect((await cache.resolve(dir)).rules.files[0].status).toBe('active');
    await cache.close();
  });
});
