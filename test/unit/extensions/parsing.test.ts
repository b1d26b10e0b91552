import { describe, expect, it } from 'vitest';
import { validateLspServers } from '../../../src/main/core/extensions/lsp/validate';
import { presentList } from '../../../src/main/core/extensions/present';
import { build, makeDir } from './helpers';

const SKILL = '---\nname: twin\ndescription: A twin skill\nallowed-tools: Read, Grep\n---\nBody line.\n';
const AGENT = '---\nname: twin-agent\ndescription: A twin agent\ntools: Read\n---\nYou review.\n';
const COMMAND = '---\ndescription: Twin\nargument-hint: X\n---\nDo $0 with !`git status`.\n';

describe('tolerant parsing (formats.md §6)', () => {
  it('CRLF and BOM twins parse identically (same metadata, same digest); the BOM is reported, never hides an agent', async () => {
    const variants = {
      lf: (t: string) => t,
      crlf: (t: string) => t.replace(/\n/g, '\r\n'),
      bom: (t: string) => `\uFEFF${t}`,
      both: (t: string) => `\uFEFF${t.replace(/\n/g, '\r\n')}`,
    };
    const results = [];
    for (const [name, f] of Object.entries(variants)) {
      const dir = makeDir({ '.claude/skills/twin/SKILL.md': f(SKILL), '.claude/agents/twin.md': f(AGENT), '.claude/commands/twin.md': f(COMMAND) });
      const r = presentList(await build(dir, makeDir()));
      const strip = <T extends { warnings: unknown[]; path: string }>(x: T) => ({ ...x, warnings: undefined, path: undefined });
      results.push({ name, skill: strip(r.skills[0]), agent: strip(r.agents[0]), command: strip(r.commands[0]), warnings: [...r.skills[0].warnings, ...r.agents[0].warnings].map((w) => w.message) });
    }
    const [lf, ...others] = results;
    expect(lf.agent).toMatchObject({ id: 'twin-agent', description: 'A twin agent', tools: ['Read'], status: 'active' });
    expect(lf.skill).toMatchObject({ id: 'twin', description: 'A twin skill', allowedTools: ['Read', 'Grep'] });
    expect(lf.command).toMatchObject({ shellEmbeds: ['git status'], argumentHint: 'X' });
    for (const o of others) {
      expect(o.skill).toEqual(lf.skill);
      expect(o.agent).toEqual(lf.agent);
      expect(o.command).toEqual(lf.command);
    }
    expect(results.find((r) => r.name === 'bom')!.warnings.filter((m) => m.includes('byte order mark'))).toHaveLength(2);
    expect(results.find((r) => r.name === 'crlf')!.warnings).toEqual([]);
  });

  it('an unquoted colon in a skill description loads with a warning naming the line and the fix', async () => {
    const dir = makeDir({ '.claude/skills/release-notes/SKILL.md': '---\nname: release-notes\ndescription: Draft release notes: summarise merged PRs\n---\nRead the log.\n' });
    const c = await build(dir, makeDir());
    expect(c.skills[0]).toMatchObject({ status: 'active', description: 'Draft release notes: summarise merged PRs' });
    expect(c.skills[0].warnings).toEqual([
      expect.objectContaining({ path: '.claude/skills/release-notes/SKILL.md', line: 3, message: expect.stringContaining('contains ": "'), fix: 'Quote it: description: "Draft release notes: summarise merged PRs"' }),
    ]);
  });

  it('skills: missing name/description fall back with warnings; a name unlike its folder is reported; unreadable files are invalid', async () => {
    const dir = makeDir({
      '.claude/skills/no-fm/SKILL.md': 'First paragraph\nstill first.\n\nSecond.',
      '.claude/skills/other/SKILL.md': '---\nname: different\ndescription: d\n---\nx',
      '.claude/skills/binary/SKILL.md': Buffer.from([0x2d, 0x00, 0x01]),
    });
    const c = await build(dir, makeDir());
    const by = (id: string) => c.skills.find((s) => s.id === id)!;
    expect(by('no-fm')).toMatchObject({ name: 'no-fm', description: 'First paragraph still first.', status: 'active' });
    expect(by('no-fm').warnings.map((w) => w.message)).toEqual(['SKILL.md has no frontmatter; name and description are required', 'no "description"; the first paragraph is used']);
    expect(by('other').warnings[0].message).toContain('differs from the folder "other"; Claude Code invokes it as /other');
    expect(by('binary')).toMatchObject({ status: 'invalid', sha256: null });
  });

  it('subagents: README-like files among agents are skipped; a file without frontmatter is listed with a warning', async () => {
    const dir = makeDir({ '.claude/agents/README.md': '# Vendored agents', '.claude/agents/CODE_OF_CONDUCT.md': 'Be nice', '.claude/agents/plain.md': 'No frontmatter here.', '.claude/agents/sub/deep.md': '---\nname: deep\ndescription: d\n---\nx' });
    const c = await build(dir, makeDir());
    expect(c.agents.map((a) => a.id)).toEqual(['deep', 'plain']);
    expect(c.agents[1].warnings[0].message).toBe('no frontmatter (name, description): Claude Code does not register this subagent');
  });
});

describe('LSP servers (seed §14)', () => {
  const v = (map: unknown) => validateLspServers(map, { path: '.lsp.json', lineOf: () => 3 });

  it('accepts a valid server, lower-cases extensions, and rejects wrong types and out-of-range values with fixes', () => {
    const r = v({
      ok: { command: 'gopls', args: ['serve'], extensionToLanguage: { '.GO': 'go' }, priority: 10, startupTimeout: 5000 },
      noext: { command: 'x' },
      badnum: { command: 'x', extensionToLanguage: { '.x': 'x' }, maxRestarts: 11, diagnosticWaitTimeout: -1 },
      'bad name!': { command: 'x', extensionToLanguage: { '.x': 'x' } },
      odd: { command: 'x', extensionToLanguage: { '.x': 'x' }, colour: 'red', transport: 'pipe' },
      off: { command: 'x', extensionToLanguage: { '.x': 'x' }, enabled: false },
    });
    const by = Object.fromEntries(r.servers.map((s) => [s.name, s]));
    expect(by.ok).toMatchObject({ command: 'gopls', args: ['serve'], extensions: ['.go'], priority: 10, errors: [], warnings: [] });
    expect(by.noext.errors.map((e) => e.message)).toEqual(['LSP server "noext": "extensionToLanguage" is required (1 to 64 entries)']);
    expect(by.badnum.errors.map((e) => e.fix)).toEqual(['Write "diagnosticWaitTimeout": 0.', 'Write "maxRestarts": 10.']);
    expect(by['bad name!'].errors).toHaveLength(1);
    expect(by.odd.warnings.map((w) => w.message)).toEqual(['LSP server "odd": unknown key "colour" (Claude Code ignores it; Blade rejects the server)']);
    expect(by.odd.errors.map((e) => e.message)).toEqual(['LSP server "odd": "transport" must be "stdio" or "socket"']);
    expect(by.off.enabled).toBe(false);
    expect(by.ok.line).toBe(3);
  });

  it('a .lsp.json that does not parse is one warning with line and column; the bundle still builds', async () => {
    const dir = makeDir({ '.lsp.json': '{\n  "go": { "command": "gopls", }\n}' });
    const c = await build(dir, makeDir());
    expect(c.lspServers).toEqual([]);
    expect(c.warnings).toEqual([expect.objectContaining({ path: '.lsp.json', line: 2, message: expect.stringContaining('invalid JSON at line 2') })]);
  });
});
