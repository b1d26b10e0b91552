import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ExtensionsListResult, TrustReview, TrustReviewItem, TrustWarning } from '../../../src/shared/contract';
import { runCli } from '../../support/cli';
import { materialize } from '../../support/corpus';
import { corpusIt, KITCHEN_SINK_SOURCES } from '../../support/corpusTests';
import { fixtureWorkspace } from '../../support/fixtures';
import { tempDir } from '../../support/tempDir';
import { persistentTempDir, writeFiles } from './helpers';

/**
 * The trust review lists these kinds from the same discovery code as the Extensions tab. What the review shows
 * before trusting must be exactly the project part of `atrium resources` after trusting: same
 * items (kind, id, file), same parse warnings, same plugin state, same MCP transport.
 */
const EXTENSION_KINDS = new Set<TrustReviewItem['kind']>(['skill', 'command', 'subagent', 'outputStyle', 'plugin', 'mcpServer', 'lspServer']);
const KIND_OF = { skills: 'skill', commands: 'command', agents: 'subagent', styles: 'outputStyle', mcpServers: 'mcpServer', lspServers: 'lspServer' } as const;

interface Listed {
  key: string;
  warnings: TrustWarning[];
  enabled?: boolean;
  transport?: string;
}

function cliFor(home: string) {
  const dataDir = path.join(tempDir('atrium-agree-'), 'data');
  return (...args: string[]) => {
    const r = runCli([...args, '--data-dir', dataDir], { HOME: home, USERPROFILE: home });
    if (r.status !== 0) throw new Error(`atrium ${args.join(' ')} failed: ${r.stderr}`);
    return r.json;
  };
}

/** The review (untrusted) and the resources (trusted) of one folder, both through the real CLI. */
function reviewThenResources(dir: string, home: string): { review: TrustReview; resources: ExtensionsListResult } {
  const cli = cliFor(home);
  const review = cli('trust', 'review', dir, '--json') as TrustReview;
  expect(review.state).toBe('undecided');
  cli('trust', 'set', dir, 'trusted', '--json');
  return { review, resources: cli('resources', dir, '--json') as ExtensionsListResult };
}

/** The project's items of `atrium resources`: files inside the workspace (not `~/…`), project plugins. */
function projectResources(r: ExtensionsListResult): Map<string, Listed> {
  const out = new Map<string, Listed>();
  const inside = (p: string) => !p.startsWith('~/') && !path.isAbsolute(p);
  for (const [list, kind] of Object.entries(KIND_OF) as Array<[keyof typeof KIND_OF, string]>) {
    for (const item of r[list] as Array<{ id: string; path: string; warnings: TrustWarning[]; transport?: string }>) {
      if (inside(item.path)) out.set(`${kind} ${item.id} ${item.path}`, { key: `${kind} ${item.id} ${item.path}`, warnings: item.warnings, transport: item.transport });
    }
  }
  for (const p of r.plugins) if (p.source === 'project') out.set(`plugin ${p.id} ${p.manifestPath ?? p.path}`, { key: `plugin ${p.id} ${p.manifestPath ?? p.path}`, warnings: p.warnings, enabled: p.enabled });
  return out;
}

/** The review's items that name an extension of the bundle (`detail.resourceId`). */
function reviewedResources(r: TrustReview): Map<string, TrustReviewItem> {
  const out = new Map<string, TrustReviewItem>();
  for (const i of r.items) if (EXTENSION_KINDS.has(i.kind) && i.detail.resourceId) out.set(`${i.kind} ${i.detail.resourceId} ${i.path}`, i);
  return out;
}

function expectAgreement(review: TrustReview, resources: ExtensionsListResult): Map<string, TrustReviewItem> {
  const listed = projectResources(resources);
  const reviewed = reviewedResources(review);
  expect([...reviewed.keys()].sort()).toEqual([...listed.keys()].sort());
  for (const [key, res] of listed) {
    const item = reviewed.get(key)!;
    // every warning the Extensions tab shows is in the review (which may add risk notices)
    for (const w of res.warnings) expect(item.warnings, key).toContainEqual(w);
    if (res.transport !== undefined) expect(item.detail.transport, key).toBe(res.transport);
    if (res.enabled !== undefined) expect(item.summary.includes(' · enabled'), key).toBe(res.enabled);
  }
  return reviewed;
}

describe('the trust review and the Extensions tab agree (one discovery)', { timeout: 240_000 }, () => {
  const base = persistentTempDir('atrium-agree-corpus-');
  afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

  it('a temp tree with plugins, marketplace entries, namespaced commands, .blade overrides, nested skills, typeless MCP and LSP servers', () => {
    const dir = tempDir('atrium-agree-tree-');
    const home = tempDir('atrium-agree-home-');
    writeFiles(home, {
      '.claude.json': JSON.stringify({ mcpServers: { userwide: { command: 'u' } }, projects: { [dir]: { mcpServers: { mine: { command: 'local-only' } } } } }),
      '.claude/commands/user-cmd.md': 'a user command (not part of the review)',
    });
    writeFiles(dir, {
      '.claude/commands/frontend/x.md': '---\ndescription: Frontend x\n---\nRun !`npm test` for $0',
      '.claude/commands/backend/x.md': 'Backend x uses $1',
      '.blade/commands/frontend/x.md': 'Blade wins over .claude',
      '.claude/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: "Deploy: now"\narguments: env\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: ./notify.sh\n---\nDeploy !`git rev-parse HEAD`\n',
      'apps/web/.claude/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: Web deploy\n---\nx\n',
      '.claude/agents/helper.md': '\uFEFF---\nname: helper\ndescription: Helps\nmcpServers:\n  scratch:\n    command: scratch-server\n---\nx\n',
      '.claude/output-styles/terse.md': '---\ndescription: Short\n---\nBe brief.\n',
      '.claude/plugins/alpha/.claude-plugin/plugin.json': JSON.stringify({ name: 'alpha', version: '1.0.0', mcpServers: { alpha_db: { url: 'https://alpha.example/mcp' } } }),
      '.claude/plugins/alpha/commands/x.md': 'alpha x',
      '.claude/plugins/alpha/skills/lint/SKILL.md': '---\nname: lint\ndescription: Alpha lint\n---\nx\n',
      '.claude/plugins/alpha/.lsp.json': JSON.stringify({ go: { command: '${CLAUDE_PLUGIN_ROOT}/gopls', extensionToLanguage: { '.go': 'go' } } }),
      '.blade/plugins/beta/.blade-plugin/plugin.json': JSON.stringify({ name: 'beta', commands: 5 }),
      '.claude-plugin/marketplace.json': JSON.stringify({ name: 'market', plugins: [{ name: 'gamma', source: './plugins/gamma' }, { name: 'delta', source: './plugins/delta' }, { name: 'remote', source: { source: 'github', repo: 'x/y' } }] }),
      'plugins/gamma/.claude-plugin/plugin.json': JSON.stringify({ name: 'gamma' }),
      'plugins/gamma/commands/x.md': 'gamma x',
      'plugins/delta/.claude-plugin/plugin.json': JSON.stringify({ name: 'delta' }),
      'plugins/delta/commands/x.md': 'delta x (off: not listed)',
      '.claude/settings.json': JSON.stringify({ enabledPlugins: { 'gamma@market': true }, mcpServers: { fromSettings: { command: 'srv' } } }),
      '.mcp.json': JSON.stringify({ typeless_stdio: { command: 'node', args: ['s.js'] }, typeless_remote: { url: 'https://r.example/mcp' }, sse: { type: 'sse', url: 'https://s.example/sse' }, broken: { args: ['x'] } }),
      '.lsp.json': JSON.stringify({ ts: { command: 'typescript-language-server', args: ['--stdio'], extensionToLanguage: { '.ts': 'typescript' } }, nocmd: { extensionToLanguage: { '.x': 'x' } } }),
    });
    const { review, resources } = reviewThenResources(dir, home);
    const reviewed = expectAgreement(review, resources);

    // the namespacing and names the Extensions tab uses
    expect([...reviewed.values()].filter((i) => i.kind === 'command').map((i) => i.name).sort()).toEqual(['/backend/x', '/frontend/x', '/frontend/x', '/plugin:alpha:x', '/plugin:gamma:x']);
    expect([...reviewed.values()].filter((i) => i.kind === 'skill').map((i) => i.name).sort()).toEqual(['apps/web:deploy', 'deploy', 'plugin:alpha:lint']);
    expect([...reviewed.values()].filter((i) => i.kind === 'mcpServer').map((i) => [i.name, i.detail.transport]).sort()).toEqual([
      ['broken', 'unknown'],
      ['fromSettings', 'stdio'],
      ['plugin:alpha:alpha_db', 'http'],
      ['sse', 'sse'],
      ['typeless_remote', 'http'],
      ['typeless_stdio', 'stdio'],
    ]);
    // nothing from the user's folders, not even their local-scope server for this folder
    expect(review.items.some((i) => i.path.startsWith('~/') || i.name === 'mine' || i.name === 'userwide' || i.name === '/user-cmd')).toBe(false);
    // the only extension-kind item the bundle does not list: the server the subagent's frontmatter declares
    const extra = review.items.filter((i) => EXTENSION_KINDS.has(i.kind) && !i.detail.resourceId);
    expect(extra.map((i) => [i.kind, i.name, i.path])).toEqual([['mcpServer', 'scratch', '.claude/agents/helper.md']]);
    // frontmatter hooks of the skill are listed as hooks; executable items first
    expect(review.items.find((i) => i.kind === 'hook' && i.path === '.claude/skills/deploy/SKILL.md')).toMatchObject({ detail: { event: 'Stop', command: './notify.sh' } });
    expect(reviewed.get('skill deploy .claude/skills/deploy/SKILL.md')).toMatchObject({ executable: true, detail: { shellEmbeds: ['git rev-parse HEAD'] } });
    // restricted-mode counts before trusting came from the same discovery
    const before = cliFor(home)('resources', dir, '--json') as ExtensionsListResult;
    expect(before.trust).toBe('restricted');
    expect(before.restrictedCounts.commands).toBe(resources.commands.filter((c) => c.status === 'active' && !c.path.startsWith('~/')).length);
  });

  /** Review untrusted, resources trusted: the review's extension items are the project items of `atrium resources`; anything else it lists is something the bundle does not read. */
  function expectWorkspaceAgreement(dir: string): void {
    const { review, resources } = reviewThenResources(dir, tempDir('atrium-agree-home-'));
    const reviewed = expectAgreement(review, resources);
    expect(reviewed.size).toBeGreaterThan(0);
    // every other extension-kind item is something the bundle does not read: a nested folder,
    // another tool's file, a frontmatter declaration of a listed resource, or a plugin folder that does not load
    const listedPaths = new Set([...reviewed.values()].map((i) => i.path));
    for (const i of review.items.filter((x) => EXTENSION_KINDS.has(x.kind) && !x.detail.resourceId)) {
      const nested = /^(?!\.)[^/]+\/.*\.(claude|blade)\//.test(i.path) || /(^|\/)[^/]+\/\.mcp\.json$/.test(i.path);
      const otherTool = /(^|\/)\.(cursor|gemini|codex|agents|windsurf|cline|github)\//.test(i.path) || !/(^|\/)\.(claude|blade)\//.test(i.path);
      const declared = listedPaths.has(i.path);
      const stray = i.kind === 'plugin' && i.summary.includes('not loaded by trusting');
      const installedElsewhere = i.kind === 'plugin' && i.summary.includes('installed outside this folder');
      expect(nested || otherTool || declared || stray || installedElsewhere, `${i.kind} ${i.name} ${i.path}`).toBe(true);
    }
  }

  const sources = [
    ...KITCHEN_SINK_SOURCES,
    { name: 'personal-config (fixture)', it: it as typeof it, make: (parent?: string) => fixtureWorkspace('personal-config', parent) },
    { name: 'plugin-marketplace (fixture)', it: it as typeof it, make: (parent?: string) => fixtureWorkspace('plugin-marketplace', parent) },
    { name: 'corpus 0xBigBoss__claude-code', it: corpusIt, make: (parent?: string) => materialize('0xBigBoss__claude-code', parent) },
  ];
  for (const source of sources) {
    source.it(`${source.name}: the review's extension items are the project items of atrium resources after trusting`, () => {
      expectWorkspaceAgreement(source.make(fs.mkdtempSync(path.join(base, 'ws-'))));
    });
  }
});
