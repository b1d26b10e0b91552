import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ruleSha256 } from '../../../src/main/core/rules/hash';
import { tempDir } from '../../support/tempDir';
import { buildCatalog, codes, fileAt, makeRepo } from './helpers';

const RULE = '---\npaths:\n  - "src/**"\n---\n# API\n\nValidate input.\n';

describe('content normalisation and per-file isolation', () => {
  it('gives BOM and CRLF files the same sha256 as their clean twins (same relative path)', async () => {
    const clean = await buildCatalog(makeRepo({ '.claude/rules/api.md': RULE }));
    const bom = await buildCatalog(makeRepo({ '.claude/rules/api.md': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(RULE)]) }));
    const crlf = await buildCatalog(makeRepo({ '.claude/rules/api.md': RULE.replace(/\n/g, '\r\n') }));
    const both = await buildCatalog(makeRepo({ '.claude/rules/api.md': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(RULE.replace(/\n/g, '\r\n'))]) }));
    const sha = fileAt(clean, '.claude/rules/api.md').sha256;
    expect(sha).toBe(ruleSha256('.claude/rules/api.md', ['src/**'], '# API\n\nValidate input.'));
    for (const c of [bom, crlf, both]) {
      const f = fileAt(c, '.claude/rules/api.md');
      expect(f.sha256).toBe(sha);
      expect(f.patterns).toEqual(['src/**']);
    }
    expect(codes(fileAt(bom, '.claude/rules/api.md'))).toContain('bom');
    expect(codes(fileAt(crlf, '.claude/rules/api.md'))).toContain('crlf');
    expect(clean.catalogSha256).toBe(both.catalogSha256);
  });

  it('loads a zero-width space with a warning, flags a bidi override as an error and sends it visibly', async () => {
    const catalog = await buildCatalog(
      makeRepo({
        'CLAUDE.md': 'Be helpful.\nSecond line\u200b hidden',
        '.claude/rules/bidi.md': 'Text \u202e reversed',
        '.claude/rules/tab.md': 'Tabs\tand\r\nCRLF are fine',
      }),
    );
    const zw = fileAt(catalog, 'CLAUDE.md');
    expect(zw.status).toBe('active');
    expect(zw.warnings.find((w) => w.code === 'invisible-characters')).toMatchObject({ line: 2, severity: 'warning' });
    expect(zw.warnings.find((w) => w.code === 'invisible-characters')?.message).toContain('line 2, column 12: a zero-width space (U+200B)');
    expect(zw.content).toBe('Be helpful.\nSecond line\u200b hidden');
    const bidi = fileAt(catalog, '.claude/rules/bidi.md');
    expect(bidi.status).toBe('active');
    expect(bidi.warnings.find((w) => w.code === 'hidden-characters')).toMatchObject({ line: 1, severity: 'error' });
    expect(bidi.content).toBe('Text ⟨U+202E⟩ reversed');
    expect(fileAt(catalog, '.claude/rules/tab.md').warnings.map((w) => w.code)).not.toContain('invisible-characters');
    expect(catalog.staticRules().files.map((s) => s.file.relativePath)).toEqual(['CLAUDE.md', '.claude/rules/bidi.md', '.claude/rules/tab.md']);
  });

  it('rejects a 5 MiB rule file alone, without reading it, while its neighbours load', async () => {
    const big = Buffer.alloc(5 * 1024 * 1024, 'a');
    const catalog = await buildCatalog(makeRepo({ 'AGENTS.md': 'small', '.claude/rules/huge.md': big, '.claude/rules/ok.md': 'ok' }));
    const huge = fileAt(catalog, '.claude/rules/huge.md');
    expect(huge).toMatchObject({ status: 'invalid', bytes: 5 * 1024 * 1024, text: null, sha256: null });
    expect(codes(huge)).toEqual(['too-large']);
    expect(catalog.staticRules().files.map((s) => s.file.relativePath)).toEqual(['AGENTS.md', '.claude/rules/ok.md']);
  });

  it('rejects binary files and invalid UTF-8', async () => {
    const catalog = await buildCatalog(makeRepo({ 'CLAUDE.md': Buffer.from([0x41, 0x00, 0x42]), 'AGENTS.md': Buffer.from([0xc3, 0x28]) }));
    expect(codes(fileAt(catalog, 'CLAUDE.md'))).toEqual(['binary']);
    expect(codes(fileAt(catalog, 'AGENTS.md'))).toEqual(['encoding']);
  });

  it('follows a symlink inside the root and reports it; refuses one leaving the root and a dangling one', async () => {
    const outside = tempDir('atrium-outside-');
    fs.writeFileSync(path.join(outside, 'evil.md'), 'outside instructions');
    const dir = makeRepo({ 'AGENTS.md': 'Shared instructions' });
    fs.symlinkSync('AGENTS.md', path.join(dir, 'CLAUDE.md'));
    fs.mkdirSync(path.join(dir, '.blade/rules'), { recursive: true });
    fs.symlinkSync(path.join(outside, 'evil.md'), path.join(dir, '.blade/rules/linked.md'));
    fs.symlinkSync('missing.md', path.join(dir, 'GEMINI.md'));
    const catalog = await buildCatalog(dir);
    const link = fileAt(catalog, 'CLAUDE.md');
    expect(link).toMatchObject({ status: 'active', linkTarget: 'AGENTS.md', content: 'Shared instructions' });
    expect(codes(link)).toContain('symlink');
    const escape = fileAt(catalog, '.blade/rules/linked.md');
    expect(escape).toMatchObject({ status: 'invalid', content: null });
    expect(codes(escape)).toEqual(['symlink-escape']);
    expect(codes(fileAt(catalog, 'GEMINI.md'))).toEqual(['dangling-symlink']);
  });

  it('marks an empty body inert and trims bodies', async () => {
    const catalog = await buildCatalog(makeRepo({ 'CLAUDE.md': '---\ndescription: only frontmatter\n---\n\n  \n', 'AGENTS.md': '\n\n  Body  \n\n' }));
    expect(fileAt(catalog, 'CLAUDE.md').status).toBe('inert');
    expect(codes(fileAt(catalog, 'CLAUDE.md'))).toContain('empty-body');
    expect(fileAt(catalog, 'AGENTS.md').content).toBe('Body');
  });

  it('loads 2,000 rule files (over 256 KiB in total) with a warning instead of failing (the anchor threw above 128 and dropped files past 256 KiB)', async () => {
    const tree: Record<string, string> = {};
    for (let i = 0; i < 2000; i++) tree[`.claude/rules/r${String(i).padStart(4, '0')}.md`] = `---\npaths: "mod${i}/**"\n---\nRule ${i} ${'x'.repeat(200)}`;
    const catalog = await buildCatalog(makeRepo(tree));
    expect(catalog.files).toHaveLength(2000);
    expect(catalog.files.every((f) => f.status === 'active')).toBe(true);
    expect(catalog.warnings.map((w) => w.code)).toContain('many-rule-files');
    expect(catalog.contextualRules(undefined, ['mod1999/a.ts']).files.map((s) => s.file.relativePath)).toEqual(['.claude/rules/r1999.md']);
  });
});
