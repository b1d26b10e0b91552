import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../src/main/core/engine';
import { explainRules } from '../../../src/main/core/rules/explain';
import { lintCatalog } from '../../../src/main/core/rules/lint';
import { presentDetail, presentList } from '../../../src/main/core/rules/present';
import { fixedGate } from '../../../src/main/core/trust/gate';
import { AtriumError } from '../../../src/shared/errors';
import { RulesListResult } from '../../../src/shared/contract/rules';
import { runCli } from '../../support/cli';
import { materialize } from '../../support/corpus';
import { corpusIt, KITCHEN_SINK_SOURCES } from '../../support/corpusTests';
import { tempDir } from '../../support/tempDir';
import { buildCatalog, fileAt, makeHome, makeRepo } from './helpers';

/**
 * What a trial user tripped on in the Rules tab and `atrium rules`: lint findings
 * that did not show on their file, a made-up start folder that was silently explained, a warning
 * per file for the mere restricted state, a dangling "when", and review/catalog counts that differ.
 */

/** The error `fn` throws (fails the test when it does not throw). */
function thrown(fn: () => unknown): AtriumError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AtriumError);
    return error as AtriumError;
  }
  throw new Error('expected an error');
}

let engine: Engine | null = null;
afterEach(async () => {
  await engine?.close();
  engine = null;
});

describe('a lint finding about a file shows on that file', () => {
  it('symlink stored as text and a dead pattern appear in rules list and rules.file, with line and fix', async () => {
    const dir = makeRepo({ 'AGENTS.md': 'Shared text', '.claude/CLAUDE.md': '../AGENTS.md', '.claude/rules/rust.md': '---\npaths: "**/*.rs"\n---\nRust', 'src/a.ts': '' });
    const catalog = await buildCatalog(dir);
    const listed = RulesListResult.parse(presentList(catalog));
    const claude = listed.files.find((f) => f.path === '.claude/CLAUDE.md')!;
    expect(claude.warnings).toEqual([expect.objectContaining({ code: 'symlink-as-text', severity: 'warning', line: 1, fix: expect.stringContaining('ln -sf ../AGENTS.md CLAUDE.md') })]);
    expect(presentDetail(catalog, fileAt(catalog, '.claude/CLAUDE.md')).file.warnings).toEqual(claude.warnings);
    const rust = listed.files.find((f) => f.path === '.claude/rules/rust.md')!;
    expect(rust.warnings).toEqual([expect.objectContaining({ code: 'pattern-matches-nothing', line: 2 })]);
  });

  corpusIt('PlatformPlatform: every finding of rules lint that names a file is among that file’s warnings', { timeout: 120_000 }, async () => {
    const catalog = await buildCatalog(materialize('platformplatform__PlatformPlatform', tempDir('atrium-corpus-')));
    const listed = presentList(catalog);
    const byPath = new Map(listed.files.map((f) => [f.path, f]));
    const findings = lintCatalog(catalog).findings.filter((f) => f.path !== null);
    expect(findings.map((f) => f.code)).toContain('symlink-as-text');
    for (const { path: p, ...w } of findings) expect(byPath.get(p!)?.warnings, `${p} ${w.code}`).toContainEqual(w);
    expect(byPath.get('.claude/CLAUDE.md')?.warnings.map((w) => w.code)).toEqual(['symlink-as-text']);
  });
});

describe('a start folder that does not exist is an error, not an explanation', () => {
  it('explain and agent views reject a missing folder (PATH_NOT_FOUND) and a file (NOT_A_DIRECTORY) with a fix', async () => {
    const dir = makeRepo({ 'AGENTS.md': 'root', 'services/api/AGENTS.md': 'api', 'services/api/x.ts': '' });
    const catalog = await buildCatalog(dir);
    const missing = thrown(() => explainRules(catalog, { path: 'services/api/x.ts', from: 'nope/dir' }));
    expect(missing.code).toBe('PATH_NOT_FOUND');
    expect(missing.message).toContain('The start folder "nope/dir" does not exist in this workspace');
    expect(missing.message).toContain('leave it empty to start in the workspace folder');
    expect(thrown(() => explainRules(catalog, { path: 'services/api/x.ts', from: 'AGENTS.md' })).code).toBe('NOT_A_DIRECTORY');
    expect(explainRules(catalog, { path: 'services/api/x.ts', from: 'services/api' }).fromDir).toBe('services/api');

    engine = createEngine({ dataDir: tempDir('atrium-data-'), homeDir: makeHome(), trustGate: fixedGate(true) });
    await expect(engine.rules.explain(dir, { path: 'services/api/x.ts', from: 'nope/dir', agent: 'codex' })).rejects.toMatchObject({ code: 'PATH_NOT_FOUND' });
    await expect(engine.rules.agentView(dir, 'claude', 'nope/dir')).rejects.toMatchObject({ code: 'PATH_NOT_FOUND' });
    expect((await engine.rules.agentView(dir, 'claude', 'services/api')).fromDir).toBe('services/api');
  });

  it('atrium rules explain --from nope/dir fails with the message (and the code with --json)', { timeout: 60_000 }, () => {
    const dir = makeRepo({ 'AGENTS.md': 'root', 'src/a.ts': '' });
    const dataDir = tempDir('atrium-cli-data-');
    const env = { HOME: makeHome() };
    const human = runCli(['rules', 'explain', dir, '--path', 'src/a.ts', '--from', 'nope/dir', '--data-dir', dataDir], env);
    expect(human.status).toBe(1);
    expect(human.stderr).toContain('The start folder "nope/dir" does not exist in this workspace');
    const json = runCli(['rules', 'explain', dir, '--path', 'src/a.ts', '--from', 'nope/dir', '--json', '--data-dir', dataDir], env);
    expect(json.json).toMatchObject({ error: { code: 'PATH_NOT_FOUND' } });
    expect(runCli(['rules', 'explain', dir, '--path', 'src/a.ts', '--from', 'src', '--json', '--data-dir', dataDir], env).status).toBe(0);
  });
});

describe('restricted mode is said once', () => {
  it('files carry no warning for the mere restricted state; the catalog carries one note', async () => {
    const dir = makeRepo({ 'AGENTS.md': 'root', '.claude/rules/a.md': '---\npaths: "src/**"\n---\na', 'CLAUDE.md': 'c' });
    const listed = presentList(await buildCatalog(dir, { trusted: false }));
    expect(listed.files.map((f) => [f.path, f.status, f.warnings])).toEqual([
      ['CLAUDE.md', 'restricted', []],
      ['AGENTS.md', 'restricted', []],
      ['.claude/rules/a.md', 'restricted', []],
    ]);
    expect(listed.warnings.filter((w) => w.code === 'restricted-mode')).toHaveLength(1);
    expect(listed.files.every((f) => f.condition === 'not read (folder not trusted)')).toBe(true);
  });
});

describe('the condition of a file is always said in full', () => {
  it('an empty list says it never loads; patterns that match nothing say so; others list their patterns', async () => {
    const dir = makeRepo({
      'AGENTS.md': 'root',
      '.claude/rules/never.md': '---\npaths: []\n---\nThis rule can never load.',
      '.claude/rules/dead.md': '---\npaths: "**/*.rs, docs/**"\n---\nRust',
      '.claude/rules/half.md': '---\npaths: "**/*.rs, src/**"\n---\nHalf',
      '.cursor/rules/manual.mdc': '---\nalwaysApply: false\n---\nManual',
      '.cursor/rules/requested.mdc': '---\ndescription: by hand\n---\nRequested',
      'GEMINI.md': '',
      'src/a.ts': '',
    });
    const byPath = new Map(presentList(await buildCatalog(dir)).files.map((f) => [f.path, f.condition]));
    expect(Object.fromEntries(byPath)).toEqual({
      'AGENTS.md': 'always',
      'GEMINI.md': 'always, but its body is empty',
      '.cursor/rules/manual.mdc': 'manual: only when mentioned, never automatically',
      '.cursor/rules/requested.mdc': 'agent-requested: Cursor offers it by description; Atrium never loads it automatically',
      '.claude/rules/dead.md': 'when **/*.rs, docs/** (no pattern matches any file)',
      '.claude/rules/half.md': 'when **/*.rs, src/**',
      '.claude/rules/never.md': 'never: paths is empty',
    });
  });

  for (const source of KITCHEN_SINK_SOURCES) {
    source.it(`${source.name}: no file ends on a bare "when"`, { timeout: 60_000 }, async () => {
      const listed = presentList(await buildCatalog(source.make(tempDir('atrium-corpus-'))));
      expect(listed.files.find((f) => f.path === '.claude/rules/never.md')?.condition).toBe('never: paths is empty');
      for (const f of listed.files) expect(f.condition, f.path).toMatch(/^(always|manual|never|not read|when \S)/);
    });
  }
});

describe('instruction files of other tools are named, so the review and the catalog counts add up', () => {
  it('a temp tree: .windsurfrules, .clinerules and .windsurf/rules are listed; the catalog files are not', async () => {
    const dir = makeRepo({ 'AGENTS.md': 'root', '.windsurfrules': 'w', '.clinerules/style.md': 'c', '.windsurf/rules/a.md': 'w', 'src/.clinerules': 'nested' });
    const listed = presentList(await buildCatalog(dir, { trusted: false }));
    expect(listed.files.map((f) => f.path)).toEqual(['AGENTS.md']);
    expect(listed.otherTools).toEqual([
      { path: '.clinerules/style.md', tool: 'Cline' },
      { path: '.windsurf/rules/a.md', tool: 'Windsurf' },
      { path: '.windsurfrules', tool: 'Windsurf' },
      { path: 'src/.clinerules', tool: 'Cline' },
    ]);
  });

  /** Through the real CLI: the review's instruction count is the catalog's project files plus the other tools' files. */
  function expectCountsAddUp(dir: string): RulesListResult {
    const dataDir = tempDir('atrium-cli-data-');
    const env = { HOME: makeHome() };
    const review = runCli(['trust', 'review', dir, '--json', '--data-dir', dataDir], env).json as { counts: { instruction: number } };
    const listed = runCli(['rules', 'list', dir, '--json', '--data-dir', dataDir], env).json as RulesListResult;
    const project = listed.files.filter((f) => f.source !== 'user');
    expect(listed.otherTools.length).toBeGreaterThan(0);
    expect(project.length + listed.otherTools.length).toBe(review.counts.instruction);
    return listed;
  }

  for (const source of KITCHEN_SINK_SOURCES) {
    source.it(`${source.name}: the trust review’s instruction count = catalog project files + other tools’ files`, { timeout: 120_000 }, () => {
      const listed = expectCountsAddUp(source.make(tempDir('atrium-corpus-')));
      expect(listed.otherTools.map((o) => o.path)).toEqual(['.clinerules', '.windsurfrules']);
    });
  }

  corpusIt('cline__cline: the trust review’s instruction count = catalog project files + other tools’ files', { timeout: 120_000 }, () => {
    expectCountsAddUp(materialize('cline__cline', tempDir('atrium-corpus-')));
  });
});

describe('atrium rules list (human output)', () => {
  it('prints each problem under its file with line and fix, the condition, and the other tools’ files', { timeout: 60_000 }, () => {
    const dir = makeRepo({ 'AGENTS.md': 'Shared text', '.claude/CLAUDE.md': '../AGENTS.md', '.claude/rules/never.md': '---\npaths: []\n---\nx', '.windsurfrules': 'w' });
    const dataDir = tempDir('atrium-cli-data-');
    const env = { HOME: makeHome() };
    expect(runCli(['trust', 'set', dir, 'trusted', '--data-dir', dataDir], env).status).toBe(0);
    const out = runCli(['rules', 'list', dir, '--data-dir', dataDir], env).stdout;
    expect(out).toMatch(/\.claude\/CLAUDE\.md .*always\n\s+warning line 1: The file only contains the path "\.\.\/AGENTS\.md".* Fix: Recreate the symlink/);
    expect(out).toMatch(/\.claude\/rules\/never\.md .*never: paths is empty/);
    expect(out).toContain("Also present, read by other tools, not by Atrium's catalog: .windsurfrules (Windsurf)");
  });
});
