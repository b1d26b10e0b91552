import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { completePath } from '../../../src/main/core/rules/complete';
import { lintCatalog } from '../../../src/main/core/rules/lint';
import { countPatternMatches } from '../../../src/main/core/rules/patternStats';
import { buildCatalog, fileAt, makeRepo } from './helpers';

describe('lint', () => {
  it('reports every listed problem with file, line and a fix', async () => {
    const dir = makeRepo({
      '.claude/rules/cursor.md': '---\nglobs: "**/*.tsx"\nalwaysApply: false\n---\nCursor keys by mistake',
      '.github/instructions/x.instructions.md': '---\napplyTo: "src/**"\npaths: "src/**"\n---\nCopilot',
      '.claude/rules/none.md': '---\npaths: "**/*.rs"\n---\nRust',
      'pkg/.claude/rules/shallow.md': '---\npaths: "*.ts"\n---\nShallow',
      'pkg/.cursor/rules/shallow.mdc': '---\nglobs: "*.ts"\n---\nShallow',
      '.claude/rules/never.md': '---\npaths: []\n---\nNever',
      'svc/AGENTS.override.md': '',
      'svc/AGENTS.md': 'svc',
      'CLAUDE.md': 'Read @docs/missing.md and @AGENTS.md',
      'AGENTS.md': 'Shared text',
      'lib/AGENTS.md': 'Shared text',
      'pkg/index.ts': '',
      'pkg/src/a.ts': '',
      'pkg/src/b.ts': '',
      'src/app.ts': '',
    });
    fs.symlinkSync('AGENTS.md', path.join(dir, 'GEMINI.md'));
    const report = lintCatalog(await buildCatalog(dir));
    const find = (p: string, code: string) => report.findings.find((f) => f.path === p && f.code === code);
    expect(find('.claude/rules/cursor.md', 'foreign-key')).toMatchObject({ line: 2, fix: 'Rename globs to paths.' });
    expect(find('.claude/rules/cursor.md', 'foreign-key')?.message).toContain('Claude Code reads only paths');
    expect(find('.github/instructions/x.instructions.md', 'foreign-key')).toMatchObject({ line: 3 });
    expect(find('.claude/rules/none.md', 'pattern-matches-nothing')).toMatchObject({ line: 2, severity: 'warning' });
    // Cursor globs are minimatch globs: *.ts is only the folder's own files. Claude's gitignore-style paths match *.ts at any depth, so no such advice for it.
    expect(find('pkg/.cursor/rules/shallow.mdc', 'pattern-direct-children-only')?.message).toContain('(1), not the 2 in its subfolders');
    expect(find('pkg/.cursor/rules/shallow.mdc', 'pattern-direct-children-only')?.fix).toBe('Write **/*.ts to match at any depth.');
    expect(find('pkg/.claude/rules/shallow.md', 'pattern-direct-children-only')).toBeUndefined();
    expect(find('.claude/rules/never.md', 'empty-patterns')).toMatchObject({ line: 2 });
    // Claude itself reads paths: [] as no condition; the finding says both sides instead of "can never load".
    expect(find('.claude/rules/never.md', 'empty-patterns')?.message).toBe('paths is empty: Claude Code loads this rule always when it reads .claude/rules itself, while Atrium never loads it.');
    expect(find('svc/AGENTS.override.md', 'empty-override')).toBeTruthy();
    expect(find('CLAUDE.md', 'import-missing')).toMatchObject({ line: 1 });
    expect(find('CLAUDE.md', 'duplicate-content')?.message).toContain('Imports AGENTS.md, which also loads on its own');
    // GEMINI.md → AGENTS.md symlink: GEMINI.md (priority 25) comes first in catalog order
    expect(find('AGENTS.md', 'duplicate-content')?.message).toContain('and GEMINI.md are the same file (a symlink)');
    expect(find('lib/AGENTS.md', 'duplicate-content')?.message).toContain('same text as GEMINI.md');
    expect(report.findings.every((f) => f.message.length > 0)).toBe(true);
    expect(report.counts.warning).toBe(report.findings.filter((f) => f.severity === 'warning').length);
  });

  it('flags a path stored as text (a symlink checked out without symlink support) and Codex truncation', async () => {
    const dir = makeRepo({ 'AGENTS.md': 'x'.repeat(40 * 1024), '.claude/CLAUDE.md': '../AGENTS.md' });
    const report = lintCatalog(await buildCatalog(dir));
    expect(report.findings.find((f) => f.code === 'symlink-as-text')).toMatchObject({ path: '.claude/CLAUDE.md', line: 1 });
    expect(report.findings.find((f) => f.code === 'codex-truncation')).toMatchObject({ path: 'AGENTS.md' });
  });

  it('counts the files each pattern matches in its scope ("matches N files here")', async () => {
    const dir = makeRepo({ 'pkg/.claude/rules/ts.md': '---\npaths: ["src/**/*.ts", "*.md"]\n---\nTS', 'pkg/src/a.ts': '', 'pkg/src/b/c.ts': '', 'src/d.ts': '' });
    const catalog = await buildCatalog(dir);
    expect(countPatternMatches(fileAt(catalog, 'pkg/.claude/rules/ts.md'), catalog.workspaceFiles)).toEqual([
      { pattern: 'src/**/*.ts', matches: 2, capped: false, sample: ['pkg/src/a.ts', 'pkg/src/b/c.ts'] },
      // Claude's paths are gitignore patterns: *.md matches at any depth (here the rule file itself).
      { pattern: '*.md', matches: 1, capped: false, sample: ['pkg/.claude/rules/ts.md'] },
    ]);
  });
});

describe('path completion (Test a path)', () => {
  it('completes the next segment from the workspace tree, folders collapsed', async () => {
    const dir = makeRepo({ 'src/components/Button.tsx': '', 'src/components/Card.tsx': '', 'src/compute.ts': '', 'src/index.ts': '', 'README.md': '' });
    const catalog = await buildCatalog(dir);
    expect(completePath(catalog, 'src/comp')).toEqual([
      { path: 'src/components/', kind: 'dir' },
      { path: 'src/compute.ts', kind: 'file' },
    ]);
    expect(completePath(catalog, '')).toEqual([
      { path: 'README.md', kind: 'file' },
      { path: 'src/', kind: 'dir' },
    ]);
    expect(completePath(catalog, 'src/components/', 1)).toEqual([{ path: 'src/components/Button.tsx', kind: 'file' }]);
    expect(completePath(catalog, path.join(dir, 'src/ind'))).toEqual([{ path: 'src/index.ts', kind: 'file' }]);
  });

  it('is relative to a subfolder workspace', async () => {
    const dir = makeRepo({ 'pkg/src/a.ts': '', 'other/b.ts': '' });
    const catalog = await buildCatalog(path.join(dir, 'pkg'));
    expect(completePath(catalog, 's')).toEqual([{ path: 'src/', kind: 'dir' }]);
  });
});
