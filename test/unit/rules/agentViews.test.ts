import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentView } from '../../../src/main/core/rules/agentViews';
import { buildCatalog, makeHome, makeRepo } from './helpers';

const rows = (view: { files: Array<{ path: string; status: string }> }) => view.files.map((f) => [f.path, f.status]);

describe('agent views', () => {
  it('Codex: a 40 KiB root AGENTS.md is truncated at the 32 KiB budget and starves the nested file (formats.md case 5)', async () => {
    const root = `${'a'.repeat(37_000)}\nsay AHOY MATE`;
    const dir = makeRepo({ 'AGENTS.md': root, 'pkg/AGENTS.md': 'x'.repeat(500), 'CLAUDE.md': 'claude only' });
    const catalog = await buildCatalog(dir, { home: makeHome({ '.codex/AGENTS.md': 'global codex' }) });
    const view = await agentView(catalog, 'codex', 'pkg');
    expect(view.budgetBytes).toBe(32_768);
    const byPath = Object.fromEntries(view.files.map((f) => [f.path, f]));
    expect(byPath['~/.codex/AGENTS.md']).toMatchObject({ status: 'loaded', loadedBytes: 12 });
    expect(byPath['AGENTS.md']).toMatchObject({ status: 'truncated', truncatedAt: 32_768, loadedBytes: 32_768, bytes: Buffer.byteLength(root) });
    expect(byPath['pkg/AGENTS.md']).toMatchObject({ status: 'cut', loadedBytes: 0 });
    expect(byPath['CLAUDE.md']).toMatchObject({ status: 'ignored' });
    expect(view.content).not.toContain('AHOY MATE');
    // Codex's own framing: one user message headed by the start folder, global text first
    expect(view.content.startsWith(`# AGENTS.md instructions for ${catalog.root}/pkg\n\n<INSTRUCTIONS>\nglobal codex\n\n--- project-doc ---\n\n`)).toBe(true);
    expect(view.content.endsWith('\n</INSTRUCTIONS>')).toBe(true);
  });

  it('Codex: an empty AGENTS.override.md wins its folder and is skipped, so AGENTS.md there is unused', async () => {
    const dir = makeRepo({ 'AGENTS.md': 'root', 'svc/AGENTS.md': 'svc rules', 'svc/AGENTS.override.md': '  \n' });
    const catalog = await buildCatalog(dir);
    const view = await agentView(catalog, 'codex', 'svc');
    expect(rows(view)).toEqual([
      ['AGENTS.md', 'loaded'],
      ['svc/AGENTS.md', 'ignored'],
      ['svc/AGENTS.override.md', 'skipped'],
    ]);
    expect(view.content).toBe(`# AGENTS.md instructions for ${catalog.root}/svc\n\n<INSTRUCTIONS>\nroot\n</INSTRUCTIONS>`);
  });

  it('Claude Code: CLAUDE.md chain and unconditional rules at start, conditional and nested ones on read, AGENTS.md ignored', async () => {
    const dir = makeRepo({
      'CLAUDE.md': 'root claude',
      'AGENTS.md': 'agents',
      '.claude/rules/always.md': 'always',
      '.claude/rules/ts.md': '---\npaths: "**/*.ts"\n---\nts rule',
      '.claude/rules/py.md': '---\npaths: "**/*.py"\n---\npy rule',
      '.claude/rules/cursor.md': '---\nglobs: "**/*.tsx"\n---\ncursor keys',
      'web/CLAUDE.md': 'web claude',
      'web/src/app.ts': '',
    });
    const catalog = await buildCatalog(dir, { home: makeHome({ '.claude/CLAUDE.md': 'user memory' }) });
    const view = await agentView(catalog, 'claude', '', 'web/src/app.ts');
    const byPath = Object.fromEntries(view.files.map((f) => [f.path, f]));
    expect(byPath['~/.claude/CLAUDE.md']).toMatchObject({ status: 'loaded', when: 'start' });
    expect(byPath['CLAUDE.md']).toMatchObject({ status: 'loaded', when: 'start' });
    expect(byPath['.claude/rules/always.md']).toMatchObject({ status: 'loaded', when: 'start' });
    expect(byPath['.claude/rules/cursor.md']).toMatchObject({ status: 'loaded', when: 'start' });
    expect(byPath['.claude/rules/ts.md']).toMatchObject({ status: 'loaded', when: 'on-read' });
    expect(byPath['.claude/rules/py.md']).toMatchObject({ status: 'conditional' });
    expect(byPath['web/CLAUDE.md']).toMatchObject({ status: 'loaded', when: 'on-read' });
    expect(byPath['AGENTS.md']).toMatchObject({ status: 'ignored' });
    expect(view.content).toContain('ts rule');
    expect(view.content).not.toContain('py rule');
  });

  it('Gemini CLI: global and the GEMINI.md chain up from the start folder at start; subfolder files only just in time', async () => {
    const dir = makeRepo({ 'GEMINI.md': 'root', 'a/GEMINI.md': 'a', 'a/b/GEMINI.md': 'b', 'c/GEMINI.md': 'c', 'AGENTS.md': 'agents' });
    const home = makeHome({ '.gemini/GEMINI.md': 'global' });
    const catalog = await buildCatalog(dir, { home });
    const view = await agentView(catalog, 'gemini', 'a');
    expect(rows(view)).toEqual([
      ['~/.gemini/GEMINI.md', 'loaded'],
      ['GEMINI.md', 'loaded'],
      ['a/GEMINI.md', 'loaded'],
      ['AGENTS.md', 'ignored'],
      ['a/b/GEMINI.md', 'conditional'],
    ]);
    const block = (abs: string, text: string) => `--- Context from: ${abs} ---\n${text}\n--- End of Context from: ${abs} ---`;
    expect(view.content).toBe([block(path.join(home, '.gemini/GEMINI.md'), 'global'), block(path.join(catalog.root, 'GEMINI.md'), 'root'), block(path.join(catalog.root, 'a/GEMINI.md'), 'a')].join('\n\n'));
  });

  it('restricted mode shows names and sizes but no content', async () => {
    const dir = makeRepo({ 'AGENTS.md': 'secret-ish project text' });
    const view = await agentView(await buildCatalog(dir, { trusted: false }), 'codex', '');
    expect(view.files[0]).toMatchObject({ path: 'AGENTS.md', bytes: 23, status: 'loaded' });
    expect(view.content).toBe('');
    const claude = await agentView(await buildCatalog(path.join(dir), { trusted: false }), 'claude', '');
    expect(claude.content).toBe('');
  });
});
