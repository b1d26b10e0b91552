import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TrustChange, Workspace } from '../../../src/shared/contract';
import { MIGRATIONS } from '../../../src/main/core/migrations';
import { resolveFolder } from '../../../src/main/core/workspaces/paths';
import { trustMigration } from '../../../src/main/core/trust/schema';
import { trustWorld } from './helpers';

describe('audit history and change events', () => {
  it('appends one entry per change (path, old, new, when, source) and none for a no-op', () => {
    const w = trustWorld();
    const dir = w.mkdir('proj');
    const f = resolveFolder(dir);
    const before = Date.now();
    w.engine.trust.set(f, 'trusted');
    w.engine.trust.set(f, 'trusted'); // unchanged: no entry
    w.engine.trust.set(f, 'untrusted');
    w.engine.trust.clear(f);
    w.engine.trust.clear(f); // nothing to clear: no entry
    const entries = w.engine.trust.history();
    expect(entries.map((e) => [e.path, e.oldState, e.newState, e.source])).toEqual([
      [dir, 'untrusted', null, 'user'],
      [dir, 'trusted', 'untrusted', 'user'],
      [dir, null, 'trusted', 'user'],
    ]);
    for (const e of entries) expect(Date.parse(e.changedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(entries[0].id).toBeGreaterThan(entries[1].id);
  });

  it('records decidedAt and keeps the history scoped to the folders that govern a path', () => {
    const w = trustWorld();
    const child = w.mkdir('org/child');
    const other = w.mkdir('other');
    w.engine.trust.set(resolveFolder(path.join(w.src, 'org')), 'trusted');
    w.engine.trust.set(resolveFolder(child), 'untrusted');
    w.engine.trust.set(resolveFolder(other), 'trusted');
    expect(w.engine.trust.history({ trustRoot: child }).map((e) => e.path)).toEqual([child, path.join(w.src, 'org')]);
    expect(w.engine.trust.history({ limit: 1 })).toHaveLength(1);
    const listed = w.engine.trust.list();
    expect(listed.map((d) => d.path)).toEqual([path.join(w.src, 'org'), child, other]);
    for (const d of listed) expect(Number.isNaN(Date.parse(d.decidedAt))).toBe(false);
  });

  it('is append-only: the database refuses UPDATE and DELETE on the history table', () => {
    const w = trustWorld();
    w.engine.trust.set(resolveFolder(w.mkdir('p')), 'trusted');
    expect(() => w.engine.store.db.prepare("UPDATE trust_history SET new_state = 'untrusted'").run()).toThrow(/append-only/);
    expect(() => w.engine.store.db.prepare('DELETE FROM trust_history').run()).toThrow(/append-only/);
    expect(w.engine.trust.history()).toHaveLength(1);
    expect(MIGRATIONS[1]).toBe(trustMigration);
    expect(trustMigration.version).toBe(2);
  });

  it('pushes trustChanged with the new entries, then workspacesChanged carrying the new state', () => {
    const w = trustWorld();
    const dir = w.mkdir('proj');
    const { workspace } = w.engine.workspaces.add(dir);
    expect(workspace.trust).toEqual({ state: 'undecided', decidedBy: null, inherited: false });
    w.events.length = 0;
    w.engine.trust.set(resolveFolder(dir), 'trusted');
    expect(w.events.map((e) => e.event)).toEqual(['trustChanged', 'workspacesChanged']);
    const changes = (w.events[0].payload as { changes: TrustChange[] }).changes;
    expect(changes).toEqual([expect.objectContaining({ path: dir, oldState: null, newState: 'trusted' })]);
    const listed = (w.events[1].payload as { workspaces: Workspace[] }).workspaces;
    expect(listed[0].trust).toEqual({ state: 'trusted', decidedBy: dir, inherited: false });
    w.events.length = 0;
    w.engine.trust.set(resolveFolder(dir), 'trusted');
    expect(w.events).toEqual([]);
  });

  it('records several imported decisions in one transaction and one event; a refused one records nothing', () => {
    const w = trustWorld();
    const a = w.mkdir('a');
    const b = w.mkdir('b');
    w.events.length = 0;
    expect(() =>
      w.engine.trust.recordMany([
        { path: a, state: 'trusted', source: 'import:claude' },
        { path: w.home, state: 'trusted', source: 'import:claude' },
      ]),
    ).toThrow(expect.objectContaining({ code: 'TRUST_REFUSED' }));
    expect(w.engine.trust.list()).toEqual([]);
    const changes = w.engine.trust.recordMany([
      { path: a, state: 'trusted', source: 'import:codex' },
      { path: b, state: 'untrusted', source: 'import:gemini' },
    ]);
    expect(changes.map((c) => c.source)).toEqual(['import:codex', 'import:gemini']);
    expect(w.events.filter((e) => e.event === 'trustChanged')).toHaveLength(1);
    expect(w.engine.trust.list().map((d) => d.source)).toEqual(['import:codex', 'import:gemini']);
  });
});
