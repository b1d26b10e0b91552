import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RulesListResult } from '../../../src/shared/contract/rules';
import { presentList } from '../../../src/main/core/rules/present';
import { tempDir } from '../../support/tempDir';
import { buildCatalog, fileAt, makeRepo, paths, writeTree } from './helpers';

const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', '-c', 'protocol.file.allow=always', ...args], { cwd, stdio: 'pipe' }).toString();

function commitAll(dir: string): void {
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'init');
}

describe('nested repositories, submodules and worktrees under the root', () => {
  it('lists the rule files of a submodule, a nested worktree and an untracked repository, each with its nestedRoot', async () => {
    const lib = tempDir('atrium-lib-');
    git(lib, 'init', '-q');
    writeTree(lib, { 'AGENTS.md': 'lib rules', 'src/CLAUDE.md': 'lib src claude', 'src/x.ts': '' });
    commitAll(lib);

    const dir = makeRepo({ 'AGENTS.md': 'root rules', 'app/a.ts': '' });
    commitAll(dir);
    git(dir, 'submodule', 'add', '-q', lib, 'vendor/lib');
    git(dir, 'commit', '-qm', 'submodule');
    writeTree(dir, { 'wt-src.md': '' });
    git(dir, 'worktree', 'add', '-q', 'trees/feature');
    writeTree(path.join(dir, 'trees/feature'), { 'AGENTS.md': 'worktree rules' });
    const clone = path.join(dir, 'scratch/clone');
    fs.mkdirSync(clone, { recursive: true });
    git(clone, 'init', '-q');
    writeTree(clone, { 'GEMINI.md': 'clone rules', '.gitignore': 'ignored/\n', 'ignored/AGENTS.md': 'ignored by the clone' });
    // a repository the root ignores stays out
    writeTree(dir, { '.gitignore': 'private/\n' });
    const priv = path.join(dir, 'private/repo');
    fs.mkdirSync(priv, { recursive: true });
    git(priv, 'init', '-q');
    writeTree(priv, { 'AGENTS.md': 'private' });

    expect(fs.readFileSync(path.join(dir, 'vendor/lib/.git'), 'utf8')).toMatch(/^gitdir: .*modules/);
    expect(fs.readFileSync(path.join(dir, 'trees/feature/.git'), 'utf8')).toMatch(/worktrees[/\\]feature/);

    const catalog = await buildCatalog(dir);
    const rels = catalog.files.map((f) => f.relativePath);
    expect(rels).toEqual(expect.arrayContaining(['AGENTS.md', 'vendor/lib/AGENTS.md', 'vendor/lib/src/CLAUDE.md', 'trees/feature/AGENTS.md', 'scratch/clone/GEMINI.md']));
    expect(rels).not.toContain('scratch/clone/ignored/AGENTS.md');
    expect(rels).not.toContain('private/repo/AGENTS.md');
    expect(rels.filter((r) => r === 'trees/feature/AGENTS.md')).toHaveLength(1);
    expect(catalog.workspaceFiles).toContain('vendor/lib/src/x.ts');
    expect(catalog.workspaceFiles.some((f) => f.endsWith('/'))).toBe(false);

    expect(fileAt(catalog, 'AGENTS.md').nestedRoot).toBeNull();
    expect(fileAt(catalog, 'vendor/lib/src/CLAUDE.md').nestedRoot).toBe('vendor/lib');
    expect(fileAt(catalog, 'trees/feature/AGENTS.md').nestedRoot).toBe('trees/feature');
    expect(fileAt(catalog, 'scratch/clone/GEMINI.md').nestedRoot).toBe('scratch/clone');
    expect(catalog.nestedRoots).toEqual([
      { path: 'scratch/clone', kind: 'repository' },
      { path: 'trees/feature', kind: 'worktree' },
      { path: 'vendor/lib', kind: 'submodule' },
    ]);
    // Atrium's own selection keeps the chain from the catalog root
    expect(paths(catalog.contextualRules(undefined, ['vendor/lib/src/x.ts']))).toEqual(['vendor/lib/AGENTS.md', 'vendor/lib/src/CLAUDE.md']);

    const listed = RulesListResult.parse(presentList(catalog));
    expect(listed.files.find((f) => f.path === 'vendor/lib/AGENTS.md')?.nestedRoot).toBe('vendor/lib');
    expect(listed.nestedRoots.map((r) => r.kind)).toEqual(['repository', 'worktree', 'submodule']);
  });

  it("never runs a nested repository's hooks or fsmonitor while listing it", async () => {
    const dir = makeRepo({ 'AGENTS.md': 'root' });
    const nested = path.join(dir, 'inner');
    fs.mkdirSync(nested);
    git(nested, 'init', '-q');
    writeTree(nested, { 'AGENTS.md': 'inner rules' });
    const marker = path.join(tempDir('atrium-marker-'), 'ran');
    const script = path.join(nested, 'evil.sh');
    fs.writeFileSync(script, `#!/bin/sh\ntouch '${marker}'\nexit 0\n`, { mode: 0o755 });
    git(nested, 'config', 'core.fsmonitor', script);
    git(nested, 'config', 'core.hooksPath', nested);
    fs.copyFileSync(script, path.join(nested, 'post-index-change'));
    fs.chmodSync(path.join(nested, 'post-index-change'), 0o755);
    const catalog = await buildCatalog(dir);
    expect(fileAt(catalog, 'inner/AGENTS.md').content).toBe('inner rules');
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('an uninitialised submodule has no files and is not a nested root', async () => {
    const lib = tempDir('atrium-lib-');
    git(lib, 'init', '-q');
    writeTree(lib, { 'AGENTS.md': 'lib' });
    commitAll(lib);
    const dir = makeRepo({ 'AGENTS.md': 'root' });
    commitAll(dir);
    git(dir, 'submodule', 'add', '-q', lib, 'lib');
    git(dir, 'commit', '-qm', 'sub');
    const copy = tempDir('atrium-copy-');
    git(copy, 'clone', '-q', dir, 'c');
    const catalog = await buildCatalog(path.join(copy, 'c'));
    expect(catalog.files.map((f) => f.relativePath)).toEqual(['AGENTS.md']);
    expect(catalog.nestedRoots).toEqual([]);
  });
});
