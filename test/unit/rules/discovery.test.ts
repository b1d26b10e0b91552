import { describe, expect, it } from 'vitest';
import { classifyProjectPath } from '../../../src/main/core/rules/classify';
import { buildCatalog, fileAt, makeHome, makeRepo } from './helpers';

// Every recognised file, its format, scope directory and priority, on real files.
const TABLE: Array<[string, string, string, number, string]> = [
  ['.github/copilot-instructions.md', 'copilot', '', 10, 'project'],
  ['.cursorrules', 'cursor-legacy', '', 12, 'project'],
  ['CLAUDE.md', 'claude', '', 20, 'project'],
  ['GEMINI.md', 'gemini', '', 25, 'project'],
  ['.claude/CLAUDE.md', 'claude', '', 30, 'project'],
  ['AGENTS.md', 'agents', '', 40, 'project'],
  ['pkg/AGENTS.override.md', 'agents-override', 'pkg', 50, 'project'],
  ['BLADE.md', 'blade', '', 60, 'project'],
  ['.github/instructions/ts/api.instructions.md', 'copilot-instructions', '', 65, 'project'],
  ['web/.cursor/rules/react.mdc', 'cursor', 'web', 68, 'project'],
  ['web/.cursor/rules/notes.md', 'cursor', 'web', 68, 'project'],
  ['.claude/rules/deep/nested/style.md', 'claude-rules', '', 70, 'project'],
  ['svc/.blade/rules/general.md', 'blade-rules', 'svc', 80, 'project'],
  ['CLAUDE.local.md', 'claude-local', '', 90, 'local'],
];

describe('rule discovery', () => {
  it('recognises every format of the table on real files with its scope, priority and source', async () => {
    const tree = Object.fromEntries(TABLE.map(([rel]) => [rel, `Rule text of ${rel}\n`]));
    const catalog = await buildCatalog(makeRepo(tree));
    for (const [rel, format, scope, priority, source] of TABLE) {
      const f = fileAt(catalog, rel);
      // Copilot .instructions.md without applyTo and Cursor rules without alwaysApply/globs are manual.
      const status = format === 'copilot-instructions' || format === 'cursor' ? 'manual' : 'active';
      expect({ rel, format: f.format, scope: f.scope, priority: f.priority, source: f.source, status: f.status }).toEqual({ rel, format, scope, priority, source, status });
    }
    expect(catalog.files).toHaveLength(TABLE.length);
  });

  it('ignores look-alikes: wrong suffix in a rule folder, wrong case, plain .md elsewhere', () => {
    for (const rel of ['.github/instructions/readme.md', '.claude/rules/notes.txt', 'claude.md', 'Agents.md', 'docs/CLAUDE.mdx', '.cursor/rules.md', 'src/copilot-instructions.md', '.blade/rules/.md']) {
      expect(classifyProjectPath(rel), rel).toBeNull();
    }
    expect(classifyProjectPath('a/b/.claude/rules/x/AGENTS.md')).toMatchObject({ format: 'claude-rules', scope: 'a/b' });
  });

  it('respects .gitignore, always skips node_modules, and still finds the personal CLAUDE.local.md', async () => {
    const dir = makeRepo({
      '.gitignore': 'generated/\nCLAUDE.local.md\n',
      'AGENTS.md': 'root',
      'generated/AGENTS.md': 'ignored',
      'node_modules/pkg/CLAUDE.md': 'vendored',
      'CLAUDE.local.md': 'mine',
    });
    const catalog = await buildCatalog(dir);
    expect(catalog.files.map((f) => f.relativePath).sort()).toEqual(['AGENTS.md', 'CLAUDE.local.md']);
    expect(fileAt(catalog, 'CLAUDE.local.md').warnings.map((w) => w.code)).toContain('untracked-local');
  });

  it('walks a folder without git, still respecting .gitignore', async () => {
    const dir = makeRepo({ '.gitignore': 'out/\n', 'CLAUDE.md': 'x', 'out/CLAUDE.md': 'no', 'a/GEMINI.md': 'g' }, { git: false });
    const catalog = await buildCatalog(dir);
    expect(catalog.listing).toBe('walk');
    expect(catalog.files.map((f) => f.relativePath).sort()).toEqual(['CLAUDE.md', 'a/GEMINI.md']);
  });

  it('uses the git work tree containing a subfolder workspace as the catalog root', async () => {
    const dir = makeRepo({ 'AGENTS.md': 'root rules', 'packages/service/BLADE.md': 'service rules', 'packages/service/src/x.ts': '' });
    const catalog = await buildCatalog(`${dir}/packages/service`);
    expect(catalog.root).toBe(dir);
    expect(catalog.workspaceDir).toBe(`${dir}/packages/service`);
  });

  it('reads user-level files from the given home, scoped to the root and ordered first', async () => {
    const home = makeHome({
      '.claude/CLAUDE.md': 'user claude',
      '.claude/rules/go.md': '---\npaths: ["**/*.go"]\n---\nGo rules',
      '.codex/AGENTS.md': 'codex user',
      '.gemini/GEMINI.md': 'gemini user',
    });
    const catalog = await buildCatalog(makeRepo({ 'AGENTS.md': 'project' }), { home });
    expect(catalog.files.map((f) => [f.relativePath, f.source])).toEqual([
      ['~/.claude/CLAUDE.md', 'user'],
      ['~/.gemini/GEMINI.md', 'user'],
      ['~/.codex/AGENTS.md', 'user'],
      ['~/.claude/rules/go.md', 'user'],
      ['AGENTS.md', 'project'],
    ]);
    expect(fileAt(catalog, '~/.claude/rules/go.md')).toMatchObject({ kind: 'conditional', scope: '', patterns: ['**/*.go'] });
  });
});
