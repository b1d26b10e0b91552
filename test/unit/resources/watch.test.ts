import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkspaceResourcesCache } from '../../../src/main/core/resources/cache';
import { TREE_WATCH_MAX_DIRS } from '../../../src/main/core/rules/builder';
import { fixedGate } from '../../../src/main/core/trust/gate';
import { eventually, makeBuilder, makeHome, makeRepo } from '../rules/helpers';

function watchingCache(changes: Array<{ dir: string; notify: boolean }>, home = makeHome()) {
  return new WorkspaceResourcesCache({
    homeDir: home,
    trustGate: fixedGate(true),
    debounceMs: 50,
    onChange: (dir, _bundle, notify) => changes.push({ dir, notify }),
  });
}

describe('file watching: never serve stale rules', () => {
  it('picks up an edit, a new rule file, a deletion and an imported file; snapshots never change', async () => {
    const dir = makeRepo({ 'CLAUDE.md': 'Read @docs/a.md', 'docs/a.md': 'import v1', '.claude/rules/ts.md': '---\npaths: "**/*.ts"\n---\nts v1' });
    const changes: Array<{ dir: string; notify: boolean }> = [];
    const cache = watchingCache(changes);
    const bundle = await cache.resolve(dir);
    await cache.watchReady(dir);
    const before = cache.snapshot(bundle);

    fs.writeFileSync(path.join(dir, '.claude/rules/ts.md'), '---\npaths: "**/*.ts"\n---\nts v2');
    await eventually(() => bundle.rules.contextualRules(undefined, ['a.ts']).content.includes('ts v2'), 20_000, 'the edit');
    // Members are rebuilt one after another and listeners hear once all are done: wait for it.
    await eventually(() => changes.some((c) => c.dir === dir && c.notify), 20_000, 'the change notification');

    fs.mkdirSync(path.join(dir, 'pkg'));
    fs.writeFileSync(path.join(dir, 'pkg/AGENTS.md'), 'new nested rules');
    await eventually(() => bundle.rules.files.some((f) => f.relativePath === 'pkg/AGENTS.md'), 20_000, 'the new file');

    fs.writeFileSync(path.join(dir, 'docs/a.md'), 'import v2');
    await eventually(() => bundle.rules.staticRules().content.includes('import v2'), 20_000, 'the imported file');

    fs.rmSync(path.join(dir, '.claude/rules/ts.md'));
    await eventually(() => !bundle.rules.files.some((f) => f.relativePath === '.claude/rules/ts.md'), 20_000, 'the deletion');

    expect(before.rules.contextualRules(undefined, ['a.ts']).content).toContain('ts v1');
    expect(before.rules.staticRules().content).toContain('import v1');
    expect(before.rules.files.map((f) => f.relativePath)).toEqual(['CLAUDE.md', '.claude/rules/ts.md']);
    await cache.close();
    expect(bundle.isDisposed).toBe(true);
  });

  it('picks up user-level rule edits in the home folder', async () => {
    const home = makeHome({ '.claude/CLAUDE.md': 'user v1' });
    const dir = makeRepo({ 'AGENTS.md': 'project' });
    const cache = watchingCache([], home);
    const bundle = await cache.resolve(dir);
    await cache.watchReady(dir);
    fs.writeFileSync(path.join(home, '.claude/CLAUDE.md'), 'user v2');
    await eventually(() => bundle.rules.staticRules().content.includes('user v2'), 20_000, 'the user edit');
    await cache.close();
  });

  it('in a large tree watches only rule folders, and still sees edits and new rule files there', async () => {
    const tree: Record<string, string> = { 'AGENTS.md': 'root v1', '.claude/rules/a.md': 'a' };
    for (let i = 0; i <= TREE_WATCH_MAX_DIRS; i++) tree[`d${i}/f.txt`] = '';
    const dir = makeRepo(tree);
    const { builder } = await makeBuilder(dir);
    expect((await builder.watchSpec()).mode).toBe('targeted');
    const cache = watchingCache([]);
    const bundle = await cache.resolve(dir);
    await cache.watchReady(dir);
    fs.writeFileSync(path.join(dir, 'AGENTS.md'), 'root v2');
    await eventually(() => bundle.rules.staticRules().content.includes('root v2'), 20_000, 'the edit');
    fs.writeFileSync(path.join(dir, '.claude/rules/b.md'), 'b');
    await eventually(() => bundle.rules.files.some((f) => f.relativePath === '.claude/rules/b.md'), 20_000, 'the new rule');
    await cache.close();
  });

  it('revalidateAll rebuilds after a trust change and notifies', async () => {
    let trusted = false;
    const changes: Array<{ dir: string; notify: boolean }> = [];
    const dir = makeRepo({ 'AGENTS.md': 'rules' });
    const cache = new WorkspaceResourcesCache({ homeDir: makeHome(), trustGate: { mayActivateProjectResources: () => trusted }, watch: false, onChange: (d, _b, notify) => changes.push({ dir: d, notify }) });
    const bundle = await cache.resolve(dir);
    expect(bundle.rules.trust).toBe('restricted');
    trusted = true;
    await cache.revalidateAll();
    expect(bundle.rules.trust).toBe('trusted');
    expect(changes).toEqual([{ dir, notify: true }]);
    await cache.close();
  });
});
