import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/main/core/formats/digest';
import { findImportTokens } from '../../../src/main/core/rules/imports';
import { tempDir } from '../../support/tempDir';
import { buildCatalog, codes, fileAt, makeHome, makeRepo } from './helpers';

describe('@imports', () => {
  it('finds path tokens outside code, strips trailing punctuation, ignores mentions and emails', () => {
    const text = [
      'See @docs/notes.md: first, then (@docs/style.md).',
      'Mail user@example.com, ping @claude, use @Injectable.',
      'Inline `@not/this.md` is code.',
      '```',
      '@fenced/out.md',
      '```',
      'Home: @~/.claude/extra.md; done @AGENTS.md,',
    ].join('\n');
    expect(findImportTokens(text)).toEqual([
      { token: 'docs/notes.md', line: 0 },
      { token: 'docs/style.md', line: 0 },
      { token: '~/.claude/extra.md', line: 6 },
      { token: 'AGENTS.md', line: 6 },
    ]);
  });

  it('expands imports inside the rule, each with its own path and sha256, nested relative to the importing file', async () => {
    const dir = makeRepo({
      'CLAUDE.md': '# Root\nRead @docs/notes.md.\n',
      'docs/notes.md': 'Notes. Also @style/guide.md',
      'docs/style/guide.md': 'Small functions.',
    });
    const f = fileAt(await buildCatalog(dir), 'CLAUDE.md');
    expect(f.imports.map((i) => [i.path, i.depth, i.from, i.line])).toEqual([
      ['docs/notes.md', 1, 'CLAUDE.md', 2],
      ['docs/style/guide.md', 2, 'docs/notes.md', 1],
    ]);
    expect(f.imports[0].sha256).toBe(sha256Hex('Notes. Also @style/guide.md'));
    expect(f.content).toBe(
      '# Root\nRead @docs/notes.md.\n\n<imported-file path="docs/notes.md" sha256="' +
        sha256Hex('Notes. Also @style/guide.md') +
        '">\nNotes. Also @style/guide.md\n\n<imported-file path="docs/style/guide.md" sha256="' +
        sha256Hex('Small functions.') +
        '">\nSmall functions.\n</imported-file>\n</imported-file>',
    );
    expect(f.body).toBe('# Root\nRead @docs/notes.md.');
  });

  it('changes the rule sha256 when an imported file changes', async () => {
    const dir = makeRepo({ 'AGENTS.md': 'Use @docs/a.md', 'docs/a.md': 'one' });
    const before = fileAt(await buildCatalog(dir), 'AGENTS.md').sha256;
    fs.writeFileSync(path.join(dir, 'docs/a.md'), 'two');
    expect(fileAt(await buildCatalog(dir), 'AGENTS.md').sha256).not.toBe(before);
  });

  it('detects cycles and keeps going', async () => {
    const dir = makeRepo({ 'CLAUDE.md': 'A @b.md', 'b.md': 'B @c.md', 'c.md': 'C @b.md and @CLAUDE.md' });
    const f = fileAt(await buildCatalog(dir), 'CLAUDE.md');
    expect(f.status).toBe('active');
    expect(f.imports.map((i) => i.path)).toEqual(['b.md', 'c.md']);
    expect(f.warnings.filter((w) => w.code === 'import-cycle')).toHaveLength(2);
  });

  it('refuses imports that escape the root (relative, absolute, symlinked), without reading them', async () => {
    const outside = tempDir('atrium-outside-');
    fs.writeFileSync(path.join(outside, 'secret.md'), 'SECRET');
    const dir = makeRepo({ 'CLAUDE.md': `Try @../${path.basename(outside)}/secret.md and @${outside}/secret.md and @linked/secret.md` });
    fs.symlinkSync(outside, path.join(dir, 'linked'));
    const f = fileAt(await buildCatalog(dir), 'CLAUDE.md');
    expect(f.content).not.toContain('SECRET');
    expect(f.imports).toEqual([]);
    expect(codes(f).filter((c) => c.startsWith('import-'))).toEqual(['import-outside', 'import-outside', 'import-rejected']);
    expect(f.status).toBe('active');
  });

  it('allows imports from the user agent folders (~/), warns on missing targets and on depth > 5', async () => {
    const home = makeHome({ '.claude/shared.md': 'Shared from home' });
    const chain: Record<string, string> = { 'AGENTS.md': 'Start @l1.md and @missing/file.md and @~/.claude/shared.md' };
    for (let i = 1; i <= 6; i++) chain[`l${i}.md`] = `Level ${i} @l${i + 1}.md`;
    chain['l7.md'] = 'Level 7';
    const f = fileAt(await buildCatalog(makeRepo(chain), { home }), 'AGENTS.md');
    expect(f.imports.map((i) => i.path)).toEqual(['l1.md', 'l2.md', 'l3.md', 'l4.md', 'l5.md', '~/.claude/shared.md']);
    expect(codes(f)).toEqual(expect.arrayContaining(['import-missing', 'import-depth']));
    expect(f.warnings.find((w) => w.code === 'import-missing')).toMatchObject({ line: 1 });
  });

  it('does not expand imports in formats without them (Cursor, Copilot, BLADE.md)', async () => {
    const f = fileAt(await buildCatalog(makeRepo({ 'BLADE.md': 'See @docs/a.md', 'docs/a.md': 'A' })), 'BLADE.md');
    expect(f.imports).toEqual([]);
    expect(f.content).toBe('See @docs/a.md');
  });
});
