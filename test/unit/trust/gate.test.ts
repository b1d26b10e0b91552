import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixedGate, type TrustGate } from '../../../src/main/core/trust/gate';
import { resolveFolder } from '../../../src/main/core/workspaces/paths';
import { trustWorld, writeFiles } from './helpers';

/**
 * A stand-in for a capability that reads repository-supplied resources (as rules, hooks, MCP will):
 * it returns project items only when the gate allows, user items always.
 */
function fakeCapability(gate: TrustGate) {
  return {
    activeResources(workspaceDir: string): string[] {
      const user = ['user:~/.claude/CLAUDE.md'];
      return gate.mayActivateProjectResources(workspaceDir) ? [...user, `project:${path.join(workspaceDir, 'CLAUDE.md')}`] : user;
    },
  };
}

describe('restricted mode gate', () => {
  it('the engine gate is the TrustService, and flipping trust flips what a capability activates', () => {
    const w = trustWorld();
    const dir = w.mkdir('proj');
    writeFiles(dir, { 'CLAUDE.md': '# rules' });
    expect(w.engine.trustGate).toBe(w.engine.trust);
    const capability = fakeCapability(w.engine.trustGate);

    expect(capability.activeResources(dir)).toEqual(['user:~/.claude/CLAUDE.md']); // undecided = restricted
    w.engine.trust.set(resolveFolder(dir), 'trusted');
    expect(capability.activeResources(dir)).toHaveLength(2);
    w.engine.trust.set(resolveFolder(dir), 'untrusted');
    expect(capability.activeResources(dir)).toEqual(['user:~/.claude/CLAUDE.md']);
    w.engine.trust.clear(resolveFolder(dir));
    w.engine.trust.set(resolveFolder(w.src), 'trusted');
    expect(capability.activeResources(path.join(dir, 'nested'))).toHaveLength(2); // inherited
  });

  it('never throws: relative, empty or odd paths are simply not trusted', () => {
    const w = trustWorld();
    w.engine.trust.set(resolveFolder(w.src), 'trusted');
    writeFiles(w.src, { 'file.txt': 'not a folder' });
    expect(w.engine.trustGate.mayActivateProjectResources(w.src)).toBe(true);
    for (const bad of ['', 'relative/dir', '\0weird', path.join(w.src, 'file.txt')]) {
      expect(w.engine.trustGate.mayActivateProjectResources(bad)).toBe(false);
    }
  });

  it('the engine accepts a gate override for tests', () => {
    const w = trustWorld({ trustGate: fixedGate(true) });
    expect(w.engine.trustGate.mayActivateProjectResources(w.mkdir('x'))).toBe(true);
    expect(w.engine.trust.mayActivateProjectResources(w.mkdir('x'))).toBe(false);
  });
});
