import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RuleSourceOutsideRoot } from '../../../src/main/core/rules/errors';
import { digestOfEntries, ruleId } from '../../../src/main/core/rules/hash';
import { sha256Hex } from '../../../src/main/core/formats/digest';
import { buildCatalog, fileAt, makeRepo, paths } from './helpers';

/** Seed scenario 14's repository, adapted to Atrium's names. */
const SCENARIO_14 = {
  'CLAUDE.md': 'root claude',
  'AGENTS.md': 'root agents',
  'AGENTS.override.md': 'root override',
  'BLADE.md': 'root blade',
  'CLAUDE.local.md': 'root local',
  '.claude/rules/general.md': 'general rule',
  '.claude/rules/typescript.md': '---\npaths: [packages/service/src/**/*.ts]\n---\ntypescript rule',
  '.claude/rules/python.md': '---\npaths: "**/*.py"\n---\npython rule',
  'packages/service/CLAUDE.md': 'service claude',
  'packages/service/.blade/rules/general.md': 'service blade general',
  'packages/service/.claude/rules/src.md': '---\npaths: src/**/*.ts\n---\nservice src rule',
  'packages/service/src/handler.ts': 'export {}',
};

describe('selection (seed §4.5)', () => {
  it('scenario 14: static from the root, then contextual for a nested TypeScript file', async () => {
    const dir = makeRepo(SCENARIO_14);
    const catalog = await buildCatalog(dir);
    const statics = catalog.staticRules(dir);
    expect(paths(statics)).toEqual(['CLAUDE.md', 'AGENTS.override.md', 'BLADE.md', '.claude/rules/general.md', 'CLAUDE.local.md']);
    expect(fileAt(catalog, 'AGENTS.md').status).toBe('overridden');
    const contextual = catalog.contextualRules(dir, [path.join(dir, 'packages/service/src/handler.ts')], statics.references.map((r) => r.id));
    expect(paths(contextual)).toEqual(['.claude/rules/typescript.md', 'packages/service/CLAUDE.md', 'packages/service/.claude/rules/src.md', 'packages/service/.blade/rules/general.md']);
    expect(contextual.triggerPaths).toEqual(['packages/service/src/handler.ts']);
    expect(contextual.files.map((s) => [s.reason, s.matchedPattern])).toEqual([
      ['pattern-match', 'packages/service/src/**/*.ts'],
      ['nested-scope', null],
      ['pattern-match', 'src/**/*.ts'],
      ['nested-scope', null],
    ]);
    expect(contextual.content).toContain('<contextual-project-instructions trigger-paths="packages/service/src/handler.ts">');
  });

  it('scenario 15: a session starting in packages/service has its scope static, with the root as catalog root', async () => {
    const { 'AGENTS.override.md': _override, ...tree } = SCENARIO_14;
    const dir = makeRepo({ ...tree, 'packages/service/BLADE.md': 'service blade' });
    const catalog = await buildCatalog(path.join(dir, 'packages/service'));
    expect(catalog.root).toBe(fs.realpathSync(dir));
    const statics = paths(catalog.staticRules());
    expect(statics).toContain('AGENTS.md');
    expect(statics).toContain('packages/service/BLADE.md');
    expect(statics).toContain('packages/service/CLAUDE.md');
    // already static, so not contextual again
    expect(paths(catalog.contextualRules(undefined, ['src/handler.ts']))).toEqual(['.claude/rules/typescript.md', 'packages/service/.claude/rules/src.md']);
  });

  it('scenario 18: the budget keeps whole files from the most specific end and reports the dropped one', async () => {
    const kib = (n: number, c: string) => c.repeat(n * 1024);
    const dir = makeRepo({
      '.claude/rules/a-general.md': `---\npaths: "**/*.ts"\n---\n${kib(20, 'g')}`,
      'src/.claude/rules/mid.md': `---\npaths: "**/*.ts"\n---\n${kib(20, 'm')}`,
      'src/deep/.claude/rules/specific.md': `---\npaths: "*.ts"\n---\n${kib(10, 's')}`,
    });
    const catalog = await buildCatalog(dir);
    const sel = catalog.contextualRules(undefined, ['src/deep/x.ts'], [], 32 * 1024);
    expect(paths(sel)).toEqual(['src/.claude/rules/mid.md', 'src/deep/.claude/rules/specific.md']);
    expect(sel.dropped.map((d) => [d.file.relativePath, d.reason])).toEqual([['.claude/rules/a-general.md', 'budget']]);
    expect(sel.bodyBytes).toBe(30 * 1024);
    expect(sel.content).toContain(kib(20, 'm')); // never truncated
  });

  it('scenario 20 adapted: an absolute or ../ pattern invalidates only that file; "**" is unconditional', async () => {
    const catalog = await buildCatalog(
      makeRepo({
        '.claude/rules/abs.md': '---\npaths: ["/abs/**"]\n---\nabs',
        '.claude/rules/up.md': '---\npaths: ["../x"]\n---\nup',
        '.claude/rules/star.md': '---\npaths: "**"\n---\nstar',
      }),
    );
    expect(paths(catalog.staticRules())).toEqual(['.claude/rules/star.md']);
    expect(catalog.files.filter((f) => f.status === 'invalid').map((f) => f.relativePath)).toEqual(['.claude/rules/abs.md', '.claude/rules/up.md']);
  });

  it('drops targets outside the root or equal to it, skips loaded ids, and throws for a start folder outside the root', async () => {
    const dir = makeRepo({ '.claude/rules/all-ts.md': '---\npaths: "**/*.ts"\n---\nts' });
    const catalog = await buildCatalog(dir);
    const id = fileAt(catalog, '.claude/rules/all-ts.md').id;
    expect(catalog.contextualRules(undefined, ['/elsewhere/a.ts', dir, path.join(dir, '../x.ts')]).files).toEqual([]);
    expect(catalog.contextualRules(undefined, ['a.ts'], [id]).files).toEqual([]);
    expect(paths(catalog.contextualRules(undefined, ['not/yet/created.ts']))).toEqual(['.claude/rules/all-ts.md']);
    expect(() => catalog.staticRules('/')).toThrow(RuleSourceOutsideRoot);
  });

  it('canonicalises targets through symlinked folders', async () => {
    const dir = makeRepo({ '.claude/rules/src.md': '---\npaths: "src/**"\n---\nsrc', 'src/a.ts': '' });
    fs.symlinkSync(path.join(dir, 'src'), path.join(dir, 'alias'));
    const catalog = await buildCatalog(dir);
    expect(catalog.contextualRules(undefined, [path.join(dir, 'alias/a.ts')]).triggerPaths).toEqual(['src/a.ts']);
  });

  it('renders seed §4.5 blocks with escaped attributes and computes provenance over id:sha lines', async () => {
    const dir = makeRepo({ 'packages/service & api/BLADE.md': 'Body with & < > kept', 'CLAUDE.md': 'root' });
    const catalog = await buildCatalog(path.join(dir, 'packages/service & api'));
    const sel = catalog.staticRules();
    const blade = fileAt(catalog, 'packages/service & api/BLADE.md');
    expect(sel.content).toBe(
      [
        '<project-instructions>',
        `<instruction-file path="CLAUDE.md" source="project" sha256="${fileAt(catalog, 'CLAUDE.md').sha256}">`,
        'root',
        '</instruction-file>',
        '',
        `<instruction-file path="packages/service &amp; api/BLADE.md" source="project" sha256="${blade.sha256}">`,
        'Body with & < > kept',
        '</instruction-file>',
        '</project-instructions>',
      ].join('\n'),
    );
    expect(sel.provenanceSha256).toBe(sha256Hex(sel.references.map((r) => `${r.id}:${r.sha256}`).join('\n')));
    expect(sel.contentBytes).toBe(Buffer.byteLength(sel.content));
    expect(catalog.staticRules(dir).provenanceSha256).toBe(sha256Hex(`${fileAt(catalog, 'CLAUDE.md').id}:${fileAt(catalog, 'CLAUDE.md').sha256}`));
    expect(catalog.contextualRules(undefined, []).provenanceSha256).toBe(sha256Hex(''));
  });
});

describe('identity and order', () => {
  it('ids, sha256 and catalogSha256 are computed exactly as documented', async () => {
    const catalog = await buildCatalog(makeRepo({ 'CLAUDE.local.md': 'local', '.claude/rules/x.md': '---\npaths: ["a/**", "b/**"]\n---\n body ' }));
    const local = fileAt(catalog, 'CLAUDE.local.md');
    expect(local.id).toBe(`local:${sha256Hex('CLAUDE.local.md').slice(0, 20)}`);
    expect(ruleId('project', '.claude/rules/x.md')).toBe(fileAt(catalog, '.claude/rules/x.md').id);
    expect(fileAt(catalog, '.claude/rules/x.md').sha256).toBe(sha256Hex('{"relativePath":".claude/rules/x.md","patterns":["a/**","b/**"],"content":"body"}'));
    expect(catalog.catalogSha256).toBe(sha256Hex(catalog.files.map((f) => `${f.id}:${f.sha256}`).join('\n')));
    expect(catalog.catalogSha256).toBe(digestOfEntries(catalog.files));
  });

  it('orders user files first, then scope depth, priority, and path by code point', async () => {
    const catalog = await buildCatalog(
      makeRepo({
        'b/AGENTS.md': '1',
        'CLAUDE.local.md': '2',
        '.claude/rules/Z.md': '3',
        '.claude/rules/a.md': '4',
        'AGENTS.md': '5',
        'a/CLAUDE.md': '6',
        '.github/copilot-instructions.md': '7',
      }),
    );
    expect(catalog.files.map((f) => f.relativePath)).toEqual([
      '.github/copilot-instructions.md',
      'AGENTS.md',
      '.claude/rules/Z.md',
      '.claude/rules/a.md',
      'CLAUDE.local.md',
      'a/CLAUDE.md',
      'b/AGENTS.md',
    ]);
    expect(catalog.files.map((f) => f.order)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});
