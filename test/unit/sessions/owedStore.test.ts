import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/main/core/migrations';
import type { Store } from '../../../src/main/core/store/database';
import { nothingOwed, PolicyStore, type PolicyRow } from '../../../src/main/core/sessions/workspacePolicy/store';
import { tempDir } from '../../support/tempDir';

/** What a session owes its agent is kept in `session_policy.loaded_json` next to the loaded references. */

const stores: Store[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

function policyStore(): { store: Store; db: PolicyStore } {
  const store = openStore(tempDir('atrium-owed-store-'));
  stores.push(store);
  // rows without a sessions row: this test is about the policy columns only
  store.db.pragma('foreign_keys = OFF');
  return { store, db: new PolicyStore(store) };
}

const LOADED = { id: 'project:1', relativePath: 'pkg/AGENTS.md', source: 'project' as const, sha256: 'a'.repeat(64), format: 'agents-md', absolutePath: '/w/pkg/AGENTS.md', triggerPaths: ['pkg/x'], trigger: 'read' as const, blockedWrite: false, delivery: 'text' as const, loadedAt: '2026-01-01T00:00:00.000Z' };

function row(over: Partial<PolicyRow> = {}): PolicyRow {
  return {
    sessionId: 's1',
    sourceDir: '/w',
    fromDir: '/w',
    execution: { kind: 'folder', dir: '/w', sourceDir: '/w', execRoot: '/w', sourceRoot: '/w', branch: null, baseCommit: null, createdAt: '', removedAt: null },
    snapshot: null,
    loaded: [LOADED],
    owed: nothingOwed(),
    hookRuns: [],
    mismatch: null,
    archivedAt: null,
    ...over,
  };
}

const loadedJson = (store: Store) => (store.db.prepare('SELECT loaded_json FROM session_policy WHERE session_id = ?').get('s1') as { loaded_json: string }).loaded_json;

describe('owed items in the policy row', () => {
  it('round-trips owed rules, static rules to send again and hook context', () => {
    const { store, db } = policyStore();
    const owed = {
      rules: [{ id: 'project:2', relativePath: '.claude/rules/docs.md', source: 'project' as const, sha256: 'b'.repeat(64), triggerPath: 'docs/a.md', trigger: 'read' as const, recorded: false, sentWith: null }],
      staticAgain: { sentWith: 'p1' },
      contexts: [{ text: 'from a PostToolUse hook', sentWith: null }],
    };
    db.put(row({ owed }));
    expect(JSON.parse(loadedJson(store))).toEqual({ loaded: [LOADED], owed });
    expect(db.get('s1')).toMatchObject({ loaded: [LOADED], owed });
  });

  it('writes the plain array older rows have while nothing is owed, and reads such rows as owing nothing', () => {
    const { store, db } = policyStore();
    db.put(row());
    expect(JSON.parse(loadedJson(store))).toEqual([LOADED]);
    expect(db.get('s1')).toMatchObject({ loaded: [LOADED], owed: nothingOwed() });
  });

  it('reads a malformed value as nothing loaded and nothing owed, keeping the well-formed entries', () => {
    const { store, db } = policyStore();
    db.put(row());
    const set = (text: string) => store.db.prepare('UPDATE session_policy SET loaded_json = ? WHERE session_id = ?').run(text, 's1');
    set('{not json');
    expect(db.get('s1')).toMatchObject({ loaded: [], owed: nothingOwed() });
    set(JSON.stringify({ loaded: 5, owed: { rules: 'x', staticAgain: 3, contexts: [{ text: 'kept', sentWith: null }, { nope: 1 }] } }));
    expect(db.get('s1')).toMatchObject({ loaded: [], owed: { rules: [], staticAgain: null, contexts: [{ text: 'kept', sentWith: null }] } });
    set(JSON.stringify({ loaded: [LOADED], owed: { rules: [null, { id: 'project:3', sha256: 'c'.repeat(64), relativePath: 'x.md', source: 'project', triggerPath: null, trigger: 'tool', recorded: true, sentWith: null }] } }));
    expect(db.get('s1')!.owed.rules.map((r) => r.id)).toEqual(['project:3']);
  });
});
