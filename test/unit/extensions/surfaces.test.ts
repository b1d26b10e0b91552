import { afterEach, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../../src/main/core/dispatcher';
import type { Engine } from '../../../src/main/core/engine';
import { reviewFolder } from '../../../src/main/core/trust/review/review';
import { engineFor, makeDir, md } from './helpers';

let engine: Engine | null = null;
afterEach(async () => {
  await engine?.close();
  engine = null;
});

const host = {
  'app.info': () => ({ version: '0', host: 'browser' as const, dataDir: '/', homeDir: '/', capabilities: { nativeFolderPicker: false } }),
  'app.pickFolder': (): never => {
    throw new Error('no');
  },
};

describe('contract surfaces', () => {
  it('every extensions.* request goes through the dispatcher and its result validates against the contract', async () => {
    const dir = makeDir({
      '.claude/skills/s/SKILL.md': md({ name: 's', description: 'd' }, 'Body.'),
      '.claude/commands/c.md': md({ description: 'C' }, 'Run $0: !`echo hi`'),
      '.claude/plugins/p/.claude-plugin/plugin.json': '{"name":"p"}',
      '.mcp.json': '{"m":{"command":"x"}}',
    });
    engine = engineFor(makeDir());
    const d = createDispatcher(engine, host);
    const { workspace } = engine.workspaces.add(dir);
    const workspaceId = workspace.id;
    const list = await d.call('extensions.list', { workspaceId });
    expect([list.skills.length, list.commands.length, list.plugins.length, list.mcpServers.length]).toEqual([1, 1, 1, 1]);
    expect((await d.call('extensions.list', { workspaceId, kind: 'mcp' })).skills).toEqual([]);
    expect((await d.call('extensions.skillBody', { workspaceId, id: 's' })).body).toBe('Body.\n');
    const p = await d.call('extensions.commandPreview', { workspaceId, name: 'c', argumentText: 'go' });
    expect(p.text).toBe('Run go: !`echo hi`\n');
    expect((await d.call('extensions.runCommandEmbeds', { workspaceId, confirmToken: p.confirmToken! })).text).toBe('Run go: hi\n');
    expect((await d.call('extensions.setPluginEnabled', { workspaceId, id: 'plugin:p', scope: 'local', enabled: false })).plugin.enabled).toBe(false);
    await expect(d.call('extensions.list', { workspaceId, kind: 'nope' as never })).rejects.toMatchObject({ code: 'INVALID_PARAMS' });
  });

  it('the trust review uses the same LSP validation, manifest validation and shell-embed finder as the bundle', async () => {
    const dir = makeDir({
      '.lsp.json': JSON.stringify({ go: { command: 'gopls', extensionToLanguage: { '.go': 'go' }, maxRestarts: 99 } }),
      '.claude/plugins/p/.claude-plugin/plugin.json': JSON.stringify({ name: 'p', commands: 5 }),
      '.claude/commands/x.md': 'Block:\n```!\nmake test\n```\nInline !`date`',
    });
    const r = await reviewFolder(dir, { trustRoot: dir, state: 'undecided', homeDir: makeDir() });
    expect(r.items.find((i) => i.kind === 'lspServer')!.warnings.map((w) => w.message)).toContain('LSP server "go": "maxRestarts" must be a whole number from 0 to 10');
    expect(r.items.find((i) => i.kind === 'plugin')!.warnings.map((w) => w.message)).toContain('"commands" must be string or array or object, not number; Claude Code refuses to load the plugin');
    expect(r.items.find((i) => i.kind === 'command')!.detail.shellEmbeds).toEqual(['make test', 'date']);
  });
});
