import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RuleProvenanceMismatch } from '../../../src/main/core/rules/errors';
import type { TrustGate } from '../../../src/main/core/trust/gate';
import { tempDir } from '../../support/tempDir';
import { buildCatalog, codes, fileAt, makeBuilder, makeHome, makeRepo, paths } from './helpers';

describe('hydrate and snapshot (seed scenario 17)', () => {
  it('a snapshot hydrates its references after an edit; the rebuilt catalog fails closed naming the file', async () => {
    const dir = makeRepo({ '.claude/rules/ts.md': '---\npaths: "src/**/*.ts"\n---\nversion one' });
    const { builder, catalog } = await makeBuilder(dir);
    const snapshot = catalog.snapshot();
    const refs = snapshot.contextualRules(undefined, ['src/a.ts']).references;
    expect(refs).toHaveLength(1);
    fs.writeFileSync(path.join(dir, '.claude/rules/ts.md'), '---\npaths: "src/**/*.ts"\n---\nversion two');
    const refreshed = await builder.build();
    expect(snapshot.hydrate(refs).content).toContain('version one');
    expect(() => refreshed.hydrate(refs)).toThrow(RuleProvenanceMismatch);
    expect(() => refreshed.hydrate(refs)).toThrow('Project rule provenance mismatch: .claude/rules/ts.md');
    expect(() => snapshot.hydrate([{ ...refs[0], sha256: 'f'.repeat(64) }])).toThrow(RuleProvenanceMismatch);
    expect(() => snapshot.hydrate([{ ...refs[0], source: 'local' }])).toThrow(RuleProvenanceMismatch);
    expect(() => snapshot.hydrate([{ ...refs[0], relativePath: 'other.md' }])).toThrow(RuleProvenanceMismatch);
    expect(refreshed.contextualRules(undefined, ['src/a.ts']).content).toContain('version two');
  });

  it('hydrate de-duplicates, orders by catalog and applies no budget', async () => {
    const dir = makeRepo({ 'a/AGENTS.md': 'x'.repeat(40 * 1024), 'AGENTS.md': 'root' });
    const catalog = await buildCatalog(dir);
    const refs = [...catalog.staticRules(path.join(dir, 'a'), 1_000_000).references].reverse();
    const hydrated = catalog.hydrate([...refs, ...refs]);
    expect(paths(hydrated)).toEqual(['AGENTS.md', 'a/AGENTS.md']);
    expect(hydrated.maxBytes).toBeNull();
    expect(hydrated.content.startsWith('<contextual-project-instructions>\n')).toBe(true);
  });

  it('definitions are deeply frozen', async () => {
    const catalog = await buildCatalog(makeRepo({ '.claude/rules/x.md': '---\npaths: [a/**]\n---\nx' }));
    const f = fileAt(catalog, '.claude/rules/x.md');
    expect(Object.isFrozen(f)).toBe(true);
    expect(Object.isFrozen(f.patterns)).toBe(true);
    expect(Object.isFrozen(catalog.files)).toBe(true);
    expect(() => (f.patterns as string[]).push('b/**')).toThrow();
  });
});

describe('trust (seed scenario 16)', () => {
  it('untrusted: project files listed by name only (restricted), never read; user rules still apply', async () => {
    const home = makeHome({ '.claude/CLAUDE.md': 'user rule' });
    const dir = makeRepo({ 'CLAUDE.md': 'project rule', '.claude/rules/x.md': '---\npaths: "**"\n---\nx' });
    const catalog = await buildCatalog(dir, { trusted: false, home });
    expect(catalog.trust).toBe('restricted');
    expect(catalog.files.map((f) => [f.relativePath, f.status, f.kind])).toEqual([
      ['~/.claude/CLAUDE.md', 'active', 'always'],
      ['CLAUDE.md', 'restricted', 'unknown'],
      ['.claude/rules/x.md', 'restricted', 'unknown'],
    ]);
    expect(fileAt(catalog, 'CLAUDE.md')).toMatchObject({ text: null, sha256: null, bytes: 'project rule'.length });
    expect(paths(catalog.staticRules())).toEqual(['~/.claude/CLAUDE.md']);
    expect(catalog.warnings.map((w) => w.code)).toContain('restricted-mode');
  });

  it('trusted: a symlink pointing outside is excluded; a zero-width space rule loads with a warning', async () => {
    const outside = tempDir('atrium-outside-');
    fs.writeFileSync(path.join(outside, 'linked.md'), 'outside');
    const dir = makeRepo({ 'BLADE.md': 'ok', '.claude/rules/zw.md': 'a\u200bb' });
    fs.mkdirSync(path.join(dir, '.blade/rules'), { recursive: true });
    fs.symlinkSync(path.join(outside, 'linked.md'), path.join(dir, '.blade/rules/linked.md'));
    const catalog = await buildCatalog(dir);
    expect(paths(catalog.staticRules())).toEqual(['BLADE.md', '.claude/rules/zw.md']);
    expect(codes(fileAt(catalog, '.claude/rules/zw.md'))).toContain('invisible-characters');
    expect(codes(fileAt(catalog, '.blade/rules/linked.md'))).toContain('symlink-escape');
  });

  it('partial: a trusted subfolder workspace of an untrusted repository loads only its own files', async () => {
    const dir = makeRepo({ 'AGENTS.md': 'root', 'pkg/AGENTS.md': 'pkg', 'pkg/CLAUDE.md': 'Import @../AGENTS.md', 'other/AGENTS.md': 'other' });
    const gate: TrustGate = { mayActivateProjectResources: (d) => d === path.join(dir, 'pkg') };
    const catalog = await buildCatalog(path.join(dir, 'pkg'), { gate });
    expect(catalog.trust).toBe('partial');
    expect(catalog.files.map((f) => [f.relativePath, f.status])).toEqual([
      ['AGENTS.md', 'restricted'],
      ['pkg/CLAUDE.md', 'active'],
      ['other/AGENTS.md', 'restricted'],
      ['pkg/AGENTS.md', 'active'],
    ]);
    expect(codes(fileAt(catalog, 'pkg/CLAUDE.md'))).toContain('import-outside');
  });

  it('notices when the gate changes its answer', async () => {
    let trusted = false;
    const dir = makeRepo({ 'AGENTS.md': 'root' });
    const { builder } = await makeBuilder(dir, { gate: { mayActivateProjectResources: () => trusted } });
    expect(builder.trustChanged()).toBe(false);
    trusted = true;
    expect(builder.trustChanged()).toBe(true);
    expect(fileAt(await builder.build(), 'AGENTS.md').status).toBe('active');
  });
});

describe('overrides', () => {
  it('AGENTS.override.md hides AGENTS.md in the same folder only; an empty one still hides it, with a warning', async () => {
    const catalog = await buildCatalog(
      makeRepo({ 'AGENTS.md': 'root', 'AGENTS.override.md': 'override', 'svc/AGENTS.md': 'svc', 'svc/AGENTS.override.md': '\n', 'lib/AGENTS.md': 'lib' }),
    );
    expect(catalog.files.map((f) => [f.relativePath, f.status])).toEqual([
      ['AGENTS.md', 'overridden'],
      ['AGENTS.override.md', 'active'],
      ['lib/AGENTS.md', 'active'],
      ['svc/AGENTS.md', 'overridden'],
      ['svc/AGENTS.override.md', 'inert'],
    ]);
    expect(codes(fileAt(catalog, 'svc/AGENTS.override.md'))).toContain('empty-override');
  });

  it('at user level an empty ~/.codex/AGENTS.override.md falls back to AGENTS.md (as Codex does)', async () => {
    const withEmpty = await buildCatalog(makeRepo(), { home: makeHome({ '.codex/AGENTS.md': 'global', '.codex/AGENTS.override.md': '' }) });
    expect(fileAt(withEmpty, '~/.codex/AGENTS.md').status).toBe('active');
    const withFull = await buildCatalog(makeRepo(), { home: makeHome({ '.codex/AGENTS.md': 'global', '.codex/AGENTS.override.md': 'override' }) });
    expect(fileAt(withFull, '~/.codex/AGENTS.md').status).toBe('overridden');
  });
});
