import { describe, expect, it } from 'vitest';
import type { TrustDecision, Workspace } from '../../../src/shared/contract';
import { coveredWorkspaces, isAtOrBelow } from '../../../src/renderer/src/features/trust/trustCoverage';

const ws = (id: string, trustRoot: string, state: Workspace['trust']['state'], decidedBy: string | null): Workspace =>
  ({ id, name: id, path: trustRoot, trustRoot, worktreeOf: null, missing: false, addedAt: '2026-01-01T00:00:00Z', trust: { state, decidedBy, inherited: decidedBy !== trustRoot } }) as unknown as Workspace;
const decision = (path: string, state: TrustDecision['state']): TrustDecision => ({ path, state, decidedAt: '2026-01-01T00:00:00Z', source: 'user' });

describe('what a decision for a parent folder reaches', () => {
  it('isAtOrBelow is a path-component test, not a string prefix', () => {
    expect(isAtOrBelow('/src/a', '/src')).toBe(true);
    expect(isAtOrBelow('/src', '/src')).toBe(true);
    expect(isAtOrBelow('/srcfoo/a', '/src')).toBe(false);
    expect(isAtOrBelow('C:\\src\\a', 'C:\\src')).toBe(true);
    expect(isAtOrBelow('/src/a', '/src/')).toBe(true);
  });

  it('listed workspaces below the folder follow it unless a deeper decision wins; others are not listed', () => {
    const list = [ws('b', '/src/b', 'undecided', null), ws('a', '/src/a', 'trusted', '/src/a'), ws('c', '/src/team/c', 'untrusted', '/src/team'), ws('x', '/srcx/x', 'undecided', null), ws('up', '/src/up', 'trusted', '/')];
    const covered = coveredWorkspaces('/src', list);
    expect(covered.map((c) => [c.workspace.id, c.effect, c.overriddenBy])).toEqual([
      ['a', 'overridden', '/src/a'],
      ['b', 'follows', null],
      ['c', 'overridden', '/src/team'],
      ['up', 'follows', null],
    ]);
  });

  it('with the recorded decisions, a deeper decision overrides even when it is not the one applying today', () => {
    const list = [ws('c', '/src/team/c', 'untrusted', '/src/team')];
    // a decision for the folder itself (the one being shown) never counts as deeper
    expect(coveredWorkspaces('/src', list, [decision('/src', 'trusted'), decision('/src/team', 'untrusted')])[0]).toMatchObject({ effect: 'overridden', overriddenBy: '/src/team' });
    expect(coveredWorkspaces('/src', list, [decision('/src', 'trusted')])[0]).toMatchObject({ effect: 'follows', overriddenBy: null });
  });
});
