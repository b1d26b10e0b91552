import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HookListing } from '../../../src/shared/contract';
import { createEngine, type Engine } from '../../../src/main/core/engine';
import { fixedGate } from '../../../src/main/core/trust/gate';
import { materialize } from '../../support/corpus';
import { corpusDescribe, KITCHEN_SINK_SOURCES } from '../../support/corpusTests';
import { persistentTempDir } from '../trust/helpers';

let root: string;
let engine: Engine;
const listings = new Map<string, HookListing>();

async function listingOf(entry: string): Promise<HookListing> {
  if (!listings.has(entry)) listings.set(entry, await engine.hooks.list({ path: materialize(entry, root) }));
  return listings.get(entry)!;
}

beforeAll(() => {
  root = persistentTempDir('atrium-hooks-corpus-');
  fs.mkdirSync(`${root}/home`);
  engine = createEngine({ dataDir: `${root}/data`, homeDir: `${root}/home`, trustGate: fixedGate(true), watchHooks: false, watchResources: false });
});
afterAll(async () => {
  await engine.close();
  fs.rmSync(root, { recursive: true, force: true });
});

corpusDescribe("the corpus workspaces' real hooks, listed with their scripts", () => {
  it('PlatformPlatform: five settings.json hooks, each running its relative .claude/hooks script', async () => {
    const l = await listingOf('platformplatform__PlatformPlatform');
    expect(l.hooks.map((h) => [h.event, h.matcher, h.command, h.scripts.map((s) => s.path)])).toEqual([
      ['PreToolUse', 'Bash', '.claude/hooks/pre-tool-use-bash.sh', ['.claude/hooks/pre-tool-use-bash.sh']],
      ['PreToolUse', null, '.claude/hooks/pre-tool-use-excuse-check.sh', ['.claude/hooks/pre-tool-use-excuse-check.sh']],
      ['Stop', null, '.claude/hooks/stop-excuse-check.sh', ['.claude/hooks/stop-excuse-check.sh']],
      ['PostToolUse', 'Bash', '.claude/hooks/post-tool-use-bash.sh', ['.claude/hooks/post-tool-use-bash.sh']],
      ['PostToolUse', null, '.claude/hooks/check-interrupt.sh', ['.claude/hooks/check-interrupt.sh']],
    ]);
    expect(l.hooks.every((h) => h.state === 'unapproved' && h.scripts[0].sha256.length === 64 && !h.scripts[0].outsideWorkspace)).toBe(true);
    expect(l.mcpServers.map((s) => s.name).sort()).toEqual(expect.arrayContaining(['aspire']));
  });

  it('anthropics plugins: ${CLAUDE_PLUGIN_ROOT} scripts (also in hooks-handlers/), two scripts in one command, `if`, a regex matcher', async () => {
    const l = await listingOf('anthropics__claude-plugins-official');
    const plugins = new Set(l.hooks.map((h) => h.source.plugin));
    expect([...plugins].sort()).toEqual(['claude-security', 'explanatory-output-style', 'hookify', 'learning-output-style', 'ralph-loop', 'security-guidance']);
    const explanatory = l.hooks.find((h) => h.source.plugin === 'explanatory-output-style')!;
    expect(explanatory.scripts.map((s) => s.path)).toEqual(['plugins/explanatory-output-style/hooks-handlers/session-start.sh']);
    const commit = l.hooks.find((h) => h.if === 'Bash(git commit:*)')!;
    expect(commit).toMatchObject({ event: 'PostToolUse', matcher: 'Bash', source: { scope: 'plugin', file: 'plugins/security-guidance/hooks/hooks.json' } });
    expect(commit.scripts.map((s) => s.path)).toEqual(['plugins/security-guidance/hooks/sg-python.sh', 'plugins/security-guidance/hooks/security_reminder_hook.py']);
    const banner = l.hooks.find((h) => h.source.plugin === 'claude-security')!;
    expect(banner).toMatchObject({ event: 'UserPromptExpansion', matcher: '^claude-security:claude-security$', runsOn: null, state: 'disabled' });
    expect(l.hooks.filter((h) => h.state === 'invalid')).toEqual([]);
  });

  it('anthropics plugins: the marketplace plugins stay off until enabled, so their 17 hooks and 15 MCP servers are disabled, not waiting for approval', async () => {
    const l = await listingOf('anthropics__claude-plugins-official');
    const pluginHooks = l.hooks.filter((h) => h.source.scope === 'plugin');
    const pluginServers = l.mcpServers.filter((s) => s.source.scope === 'plugin');
    expect([pluginHooks.length, pluginServers.length]).toEqual([17, 15]);
    expect([...pluginHooks, ...pluginServers].filter((i) => i.state !== 'disabled')).toEqual([]);
    expect(pluginHooks.find((h) => h.source.plugin === 'hookify')!.warnings).toContainEqual(
      expect.objectContaining({ message: expect.stringContaining('plugin "hookify" is off (marketplace plugins stay off until enabled)'), fix: expect.stringContaining('"enabledPlugins": { "hookify@claude-plugins-official": true }') }),
    );
    expect(l.counts.unapproved + l.counts.modified).toBe(l.hooks.length + l.mcpServers.length - 32);
  });

  it('0xBigBoss: plugin hooks that execute .ts files directly, with timeout 1800; the decoy settings/ folder is not a source', async () => {
    const l = await listingOf('0xBigBoss__claude-code');
    expect(l.hooks.map((h) => [h.source.plugin, h.command, h.timeout, h.timeoutMs, h.scripts.map((s) => s.path)])).toEqual([
      ['codex-reviewer', '${CLAUDE_PLUGIN_ROOT}/hooks/codex-reviewer-stop-hook.ts', 1800, 1_800_000, ['plugins/codex-reviewer/hooks/codex-reviewer-stop-hook.ts']],
      ['ralph-reviewed', '${CLAUDE_PLUGIN_ROOT}/hooks/ralph-reviewed-stop-hook.ts', 1800, 1_800_000, ['plugins/ralph-reviewed/hooks/ralph-reviewed-stop-hook.ts']],
    ]);
  });

  it('cline: $CLAUDE_PROJECT_DIR in a SessionStart hook; rulesync: an inline command hashes no script', { timeout: 120_000 }, async () => {
    const cline = await listingOf('cline__cline');
    expect(cline.hooks.map((h) => h.scripts.map((s) => s.path))).toEqual([['.claude/hooks/claude-code-for-web-setup.sh']]);
    const rulesync = await listingOf('dyoshikawa__rulesync');
    expect(rulesync.hooks.map((h) => [h.event, h.command, h.scripts])).toEqual([['SessionStart', expect.stringContaining('git pull'), []]]);
  });
});

describe('the kitchen sink’s hooks, listed with their scripts', () => {
  for (const source of KITCHEN_SINK_SOURCES) {
    source.it(`${source.name}: Gemini and Codex hooks, the hostile SessionStart and UserPromptSubmit hooks, the wrong-case event, settings.local.json`, { timeout: 120_000 }, async () => {
      const l = await engine.hooks.list({ path: source.make(fs.mkdtempSync(`${root}/ks-`)) });
      const find = (s: string) => l.hooks.find((h) => (h.command ?? h.url ?? '').includes(s))!;
      expect(find('curl -fsSL').danger.map((d) => d.code)).toEqual(expect.arrayContaining(['download-exec', 'network']));
      expect(find('~/.aws/credentials')).toMatchObject({ event: 'UserPromptSubmit', source: { scope: 'local', file: '.claude/settings.local.json' } });
      expect(find('~/.aws/credentials').danger.map((d) => d.code)).toEqual(expect.arrayContaining(['secret-read', 'base64', 'network']));
      expect(find('echo wrong case')).toMatchObject({ event: 'preToolUse', state: 'invalid' });
      expect(find('guard.sh')).toMatchObject({ event: 'BeforeTool', runsOn: 'PreToolUse', source: { format: 'gemini' } });
      expect(find('guard.sh').scripts.map((s) => s.path)).toEqual(['.gemini/hooks/guard.sh']);
      expect(find('stop.sh')).toMatchObject({ source: { format: 'codex', file: '.codex/hooks.json' }, timeoutMs: 30_000 });
      expect(find('block-rm.sh').scripts.map((s) => s.path)).toEqual(['.claude/hooks/block-rm.sh']);
      expect(find('format.py')).toMatchObject({ if: 'Edit(services/**)', scripts: [expect.objectContaining({ path: '.claude/hooks/format.py' })] });
      expect(find('never matches').warnings[0].message).toMatch(/permission-rule syntax/);
      expect(find('127.0.0.1:9999')).toMatchObject({ type: 'http' });
      expect(l.mcpServers.map((s) => s.name).sort()).toEqual(['docs', 'git', 'local', 'sqlite']);
    });
  }
});
