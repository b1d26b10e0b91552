import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentView } from '../../../src/main/core/rules/agentViews';
import { expandGeminiImports, findGeminiImports, geminiCodeRegions } from '../../../src/main/core/rules/agentViews/geminiImports';
import { lintCatalog } from '../../../src/main/core/rules/lint';
import { buildCatalog, makeHome, makeRepo } from './helpers';

const rows = (view: { files: Array<{ path: string; status: string; when: string | null }> }) => view.files.map((f) => [f.path, f.status, f.when]);
const block = (abs: string, text: string) => `--- Context from: ${abs} ---\n${text}\n--- End of Context from: ${abs} ---`;

describe('Gemini CLI 0.61 view: start files, just-in-time files, context.fileName', () => {
  it('loads nothing from subfolders at start; a touched path loads its folder chain just in time, framed as Gemini frames tool-result context', async () => {
    const dir = makeRepo({ 'GEMINI.md': 'root', 'pkg/GEMINI.md': 'pkg', 'pkg/deep/GEMINI.md': 'deep', 'pkg/deep/x.ts': '', 'pkg/other/GEMINI.md': 'other' });
    const catalog = await buildCatalog(dir);
    const view = await agentView(catalog, 'gemini', '', 'pkg/deep/x.ts');
    expect(rows(view)).toEqual([
      ['GEMINI.md', 'loaded', 'start'],
      ['pkg/GEMINI.md', 'loaded', 'on-read'],
      ['pkg/deep/GEMINI.md', 'loaded', 'on-read'],
      ['pkg/other/GEMINI.md', 'conditional', null],
    ]);
    const r = catalog.root;
    expect(view.content).toBe(`${block(path.join(r, 'GEMINI.md'), 'root')}\n\n--- Newly Discovered Project Context ---\n${block(path.join(r, 'pkg/GEMINI.md'), 'pkg')}\n\n${block(path.join(r, 'pkg/deep/GEMINI.md'), 'deep')}\n--- End Project Context ---`);
    expect(view.notes[0]).toMatch(/^As Gemini CLI 0\.61\.0 loads it/);
  });

  it('without .git Gemini reads the start folder only, not its parents', async () => {
    const dir = makeRepo({ 'GEMINI.md': 'root', 'app/GEMINI.md': 'app' }, { git: false });
    const view = await agentView(await buildCatalog(dir), 'gemini', 'app');
    expect(rows(view).filter((x) => x[1] === 'loaded')).toEqual([['app/GEMINI.md', 'loaded', 'start']]);
  });

  it('project files are sorted as strings, the way Gemini sorts their absolute paths (B/GEMINI.md before GEMINI.md)', async () => {
    const dir = makeRepo({ 'GEMINI.md': 'root', 'B/GEMINI.md': 'upper b' });
    const view = await agentView(await buildCatalog(dir), 'gemini', 'B');
    expect(view.files.map((f) => f.path)).toEqual(['B/GEMINI.md', 'GEMINI.md']);
  });

  it('context.fileName from the workspace .gemini/settings.json (JSON with comments) adds AGENTS.md; GEMINI.md is always kept', async () => {
    const dir = makeRepo({
      '.gemini/settings.json': '{\n  // both names\n  "context": { "fileName": ["AGENTS.md", "GEMINI.md"] }\n}\n',
      'AGENTS.md': 'agents',
      'GEMINI.md': 'gemini',
      'CLAUDE.md': 'claude',
    });
    const catalog = await buildCatalog(dir);
    const view = await agentView(catalog, 'gemini', '');
    expect(rows(view)).toEqual([
      ['AGENTS.md', 'loaded', 'start'],
      ['GEMINI.md', 'loaded', 'start'],
      ['CLAUDE.md', 'ignored', null],
    ]);
    expect(view.notes[1]).toContain('context.fileName in .gemini/settings.json');
  });

  it('a user fileName string is replaced by the workspace value; an untrusted workspace keeps the user value', async () => {
    const home = makeHome({ '.gemini/settings.json': JSON.stringify({ context: { fileName: 'CONTEXT.md' } }) });
    const dir = makeRepo({ '.gemini/settings.json': JSON.stringify({ context: { fileName: 'AGENTS.md' } }), 'AGENTS.md': 'agents', 'CONTEXT.md': 'ctx', 'GEMINI.md': 'g' });
    const trusted = await agentView(await buildCatalog(dir, { home }), 'gemini', '');
    expect(trusted.files.filter((f) => f.status === 'loaded').map((f) => f.path)).toEqual(['AGENTS.md', 'GEMINI.md']);
    const untrusted = await agentView(await buildCatalog(dir, { home, trusted: false }), 'gemini', '');
    expect(untrusted.files.map((f) => [f.path, f.status])).toEqual([
      ['CONTEXT.md', 'restricted'],
      ['GEMINI.md', 'restricted'],
      ['AGENTS.md', 'ignored'],
    ]);
    expect(untrusted.content).toBe('');
    const nested = makeRepo({ 'app/.gemini/settings.json': '{"context":{"fileName":"AGENTS.md"}}', 'app/AGENTS.md': 'a' });
    expect((await agentView(await buildCatalog(nested, { home }), 'gemini', 'app')).notes[1]).toContain('context.fileName in app/.gemini/settings.json');
  });

  it('a settings file Gemini cannot parse is reported: Gemini refuses to start', async () => {
    const dir = makeRepo({ '.gemini/settings.json': '{ "context": ', 'GEMINI.md': 'g' });
    const view = await agentView(await buildCatalog(dir), 'gemini', '');
    expect(view.notes.some((n) => n.startsWith('Gemini CLI refuses to start: .gemini/settings.json is not valid JSON'))).toBe(true);
  });

  it('an empty context file is skipped: Gemini sends no block for it', async () => {
    const dir = makeRepo({ 'GEMINI.md': '  \n\n', 'app/GEMINI.md': 'app' });
    const view = await agentView(await buildCatalog(dir), 'gemini', 'app');
    expect(rows(view)).toEqual([
      ['GEMINI.md', 'skipped', null],
      ['app/GEMINI.md', 'loaded', 'start'],
    ]);
  });

  it('the same file under two names (AGENTS.md -> GEMINI.md symlink) loads once', async () => {
    const dir = makeRepo({ '.gemini/settings.json': '{"context":{"fileName":["AGENTS.md","GEMINI.md"]}}', 'GEMINI.md': 'shared' });
    fs.symlinkSync('GEMINI.md', path.join(dir, 'AGENTS.md'));
    const view = await agentView(await buildCatalog(dir), 'gemini', '');
    expect(view.files.filter((f) => f.status === 'loaded').map((f) => f.path)).toEqual(['AGENTS.md']);
    expect(view.content.match(/--- Context from:/g)).toHaveLength(1);
  });

  it('the content carries imports expanded with Gemini markers and failed ones replaced', async () => {
    const dir = makeRepo({ 'GEMINI.md': 'see @style.md and @notes.md: now', 'style.md': 'STYLE', 'notes.md': 'NOTES' });
    const catalog = await buildCatalog(dir);
    const view = await agentView(catalog, 'gemini', '');
    const missing = path.join(catalog.root, 'notes.md:');
    expect(view.content).toBe(block(path.join(catalog.root, 'GEMINI.md'), `see <!-- Imported from: style.md -->\nSTYLE\n<!-- End of import from: style.md --> and <!-- Import failed: notes.md: - ENOENT: no such file or directory, access '${missing}' --> now`));
    expect(view.files[0].reason).toContain('@notes.md:');
  });
});

describe("Gemini CLI 0.61's import grammar", () => {
  it('finds @paths only after whitespace or at the start, keeping trailing punctuation; paths start with ., / or a letter', () => {
    const text = '@a.md x(@b.md) @c.md: @~/d.md @_e @./f.md\t@/g.md';
    expect(findGeminiImports(text).map((t) => t.path)).toEqual(['a.md', 'c.md:', './f.md', '/g.md']);
  });

  it('only backtick runs are code (across lines); ~~~ fences are not', () => {
    const text = '`@a.md`\n```\n@b.md\n```\n~~~\n@c.md\n~~~\n';
    const regions = geminiCodeRegions(text);
    const live = findGeminiImports(text).filter((t) => !regions.some(([s, e]) => t.start >= s && t.start < e));
    expect(live.map((t) => t.path)).toEqual(['c.md']);
  });

  it('expands nested imports up to depth 5, marks repeats on a branch and path traversal', async () => {
    const dir = makeRepo({ 'a.md': 'A @b.md', 'b.md': 'B @c.md', 'c.md': 'C @d.md', 'd.md': 'D @e.md', 'e.md': 'E @f.md', 'f.md': 'F', 'loop.md': 'L @loop.md', 'sub/x.md': 'X @../../outside.md' });
    fs.writeFileSync(path.join(path.dirname(dir), 'outside.md'), 'OUT');
    const deep = await expandGeminiImports('@a.md', dir);
    expect(deep.content).toContain('E @f.md');
    expect(deep.content).not.toContain('Imported from: f.md');
    expect(deep.imports.map((i) => [i.path, i.depth, i.outcome])).toEqual([
      ['a.md', 1, 'imported'],
      ['b.md', 2, 'imported'],
      ['c.md', 3, 'imported'],
      ['d.md', 4, 'imported'],
      ['e.md', 5, 'imported'],
    ]);
    const loop = await expandGeminiImports('@loop.md', dir);
    expect(loop.content).toBe('<!-- Imported from: loop.md -->\nL <!-- File already processed: loop.md -->\n<!-- End of import from: loop.md -->');
    const out = await expandGeminiImports('@sub/x.md', dir);
    expect(out.content).toContain('<!-- Import failed: ../../outside.md - Path traversal attempt -->');
  });
});

describe('lint: imports Gemini CLI skips', () => {
  it('warns for (@x.md), @x.md: and @~/x.md that Atrium imports, not for a plain @x.md', async () => {
    const home = makeHome({ '.gemini/extra.md': 'extra' });
    const dir = makeRepo({ 'GEMINI.md': 'plain @ok.md\nparen (@p.md)\ncolon @c.md: here\nhome @~/.gemini/extra.md\n', 'ok.md': 'ok', 'p.md': 'p', 'c.md': 'c' });
    const catalog = await buildCatalog(dir, { home });
    const found = lintCatalog(catalog).findings.filter((f) => f.code === 'gemini-skips-import');
    expect(found.map((f) => [f.line, f.message.replace(/:.*/, '')])).toEqual([
      [2, 'Gemini CLI skips this import of p.md'],
      [3, 'Gemini CLI skips this import of c.md'],
      [4, 'Gemini CLI skips this import of ~/.gemini/extra.md'],
    ]);
    expect(found[0].message).toContain('follows a space');
    expect(found[1].message).toContain('"c.md:"');
    expect(found[2].message).toContain('does not expand ~');
  });
});
