import { describe, expect, it } from 'vitest';
import { ExtensionsListResult } from '../../../src/shared/contract/extensions';
import { presentList } from '../../../src/main/core/extensions/present';
import { CORPUS_ENTRIES, materialize } from '../../support/corpus';
import { corpusDescribe, KITCHEN_SINK_SOURCES } from '../../support/corpusTests';
import { FIXTURE_WORKSPACES, fixtureWorkspace } from '../../support/fixtures';
import { tempDir } from '../../support/tempDir';
import { build, ids, makeDir } from './helpers';

const loadDir = async (dir: string, trusted = true) => {
  const c = await build(dir, makeDir(), trusted);
  return { dir, c, r: ExtensionsListResult.parse(presentList(c)) };
};
const load = (entry: string, trusted = true) => loadDir(materialize(entry, tempDir('atrium-ext-corpus-')), trusted);

/** Builds `dir` trusted and restricted: every warning names a file; restricted, the project brings nothing. */
async function expectLoads(dir: string): Promise<void> {
  const { r } = await loadDir(dir);
  for (const w of [...r.warnings, ...r.skills.flatMap((s) => s.warnings), ...r.commands.flatMap((s) => s.warnings), ...r.plugins.flatMap((s) => s.warnings)]) expect(w.path).toBeTruthy();
  const restricted = presentList(await build(dir, makeDir(), false));
  expect([...restricted.skills, ...restricted.commands, ...restricted.agents, ...restricted.plugins, ...restricted.mcpServers, ...restricted.lspServers]).toEqual([]);
}

corpusDescribe('the corpus workspaces load with their real extensions', { timeout: 120_000 }, () => {
  it.each(CORPUS_ENTRIES)('%s builds trusted and restricted without crashing, every warning names a file', async (entry) => {
    await expectLoads(materialize(entry, tempDir('atrium-ext-corpus-')));
  });

  it('PlatformPlatform: 18 skills and 12 subagents; its .mcp.json keeps ${VAR} placeholders', async () => {
    const { c, r } = await load('platformplatform__PlatformPlatform');
    expect(ids(c.skills)).toHaveLength(18);
    expect(ids(c.agents)).toHaveLength(12);
    expect(c.mcpServers.length).toBeGreaterThan(0);
    expect(r.mcpServers.find((s) => s.id === 'azure-staging')!.env).toEqual({ AZURE_TENANT_ID: '${AZURE_TENANT_ID}', AZURE_SUBSCRIPTION_ID: '${AZURE_SUBSCRIPTION_ID_STAGING}' });
  });

  it('cline: commands stored as symlink text are listed with a fix; skill links stored as text are warnings', async () => {
    const { c } = await load('cline__cline');
    expect(ids(c.commands).sort()).toEqual(['hotfix-release', 'release']);
    expect(c.commands.every((x) => x.warnings.some((w) => w.message.includes('probably a symbolic link checked out as a text file')))).toBe(true);
    expect(c.warnings.filter((w) => w.path.startsWith('.claude/skills/')).length).toBeGreaterThan(0);
  });

  it('blade-code: .blade/commands load; the vendored agents README is not an agent', async () => {
    const { c } = await load('echoVic__blade-code');
    expect(ids(c.commands)).toHaveLength(8);
    expect(c.commands.every((x) => x.tool === 'blade')).toBe(true);
    expect(c.agents.some((a) => /readme|code_of_conduct/i.test(a.path))).toBe(false);
    expect(c.agents.length).toBeGreaterThan(50);
  });

  it('0xBigBoss: 26 dangling skill links (25 stored as text files here) are warnings; the marketplace (pluginRoot) lists its two plugins, off until enabled', async () => {
    const { c } = await load('0xBigBoss__claude-code');
    expect(ids(c.skills).length).toBeGreaterThan(20);
    expect(c.warnings.filter((w) => w.path.startsWith('.claude/skills/') && w.message.includes('the skill'))).toHaveLength(25);
    expect(c.plugins.map((p) => [p.name, p.marketplace, p.status])).toEqual([
      ['codex-reviewer', '0xbigboss-plugins', 'disabled'],
      ['ralph-reviewed', '0xbigboss-plugins', 'disabled'],
    ]);
    expect(c.plugins.every((p) => p.contributes.hooks > 0)).toBe(true);
  });

  it('anthropics marketplace: 53 local plugins listed (lenient manifests, strict:false LSP entries), 233 remote counted; enabling one brings its namespaced resources', async () => {
    const { c, dir } = await load('anthropics__claude-plugins-official');
    expect(c.plugins).toHaveLength(53);
    expect(c.plugins.filter((p) => p.status === 'error')).toEqual([]);
    expect(c.plugins.find((p) => p.name === 'typescript-lsp')!.contributes.lspServers).toBe(1);
    expect(c.plugins.find((p) => p.name === 'receipts')).toMatchObject({ manifestPath: null, contributes: expect.objectContaining({ skills: 1 }) });
    expect(c.warnings.map((w) => w.message)).toContain('233 of 286 marketplace entries have remote sources (github, url, git-subdir…); they are not listed until installed');
    const fs = await import('node:fs');
    const path = await import('node:path');
    fs.mkdirSync(path.join(dir, '.claude'), { recursive: true });
    fs.writeFileSync(path.join(dir, '.claude/settings.local.json'), JSON.stringify({ enabledPlugins: { 'commit-commands@claude-plugins-official': true, 'receipts@claude-plugins-official': true, 'typescript-lsp@claude-plugins-official': true, 'github@claude-plugins-official': true } }));
    const on = await build(dir, makeDir());
    expect(ids(on.commands)).toEqual(['plugin:commit-commands:clean_gone', 'plugin:commit-commands:commit', 'plugin:commit-commands:commit-push-pr']);
    expect(ids(on.skills)).toEqual(['plugin:receipts:receipts']);
    expect(on.lspServers.map((s) => s.id)).toEqual(['plugin:typescript-lsp:typescript']);
    expect(on.mcpServers.find((s) => s.id === 'plugin:github:github')).toMatchObject({ transport: 'http', headerNames: ['Authorization'], source: 'plugin' });
  });
});

describe('the project’s fixture workspaces load with their extensions', () => {
  it.each(FIXTURE_WORKSPACES)('%s builds trusted and restricted without crashing, every warning names a file', async (name) => {
    await expectLoads(fixtureWorkspace(name));
  });

  for (const source of KITCHEN_SINK_SOURCES) {
    source.it(`${source.name}: skills (CRLF twin, unquoted colon), namespaced commands, BOM agent, MCP from .mcp.json and .vscode/mcp.json, .lsp.json, a style`, { timeout: 120_000 }, async () => {
      const { c } = await loadDir(source.make(tempDir('atrium-ext-corpus-')));
      expect(ids(c.skills)).toEqual(['crlf-skill', 'release-notes']);
      expect(c.skills.find((s) => s.id === 'release-notes')!.warnings[0].message).toContain('contains ": "');
      expect(ids(c.commands)).toEqual(['backend/lint', 'frontend/lint', 'review']);
      expect(c.commands.find((x) => x.id === 'review')).toMatchObject({ shellEmbeds: ['git branch --show-current'], fileRefs: ['docs/style.md'] });
      expect(c.agents).toEqual([expect.objectContaining({ id: 'reviewer', status: 'active', description: 'Reviews diffs for security issues' })]);
      expect(c.mcpServers.map((s) => [s.id, s.transport, s.path])).toEqual(expect.arrayContaining([
        ['docs', 'http', '.mcp.json'],
        ['local', 'stdio', '.mcp.json'],
        ['git', 'stdio', '.vscode/mcp.json'],
      ]));
      expect(c.lspServers.map((s) => [s.id, s.extensions])).toEqual([['project:typescript', ['.ts', '.tsx']]]);
      expect(ids(c.styles)).toEqual(['project:terse']);
    });
  }
});
