import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/main/core/engine';
import { findCommand } from '../../../src/main/core/extensions/invocations';
import { validateManifest } from '../../../src/main/core/extensions/plugins/manifest';
import { build, engineFor, ids, makeDir, md, switchGate } from './helpers';

let engine: Engine | null = null;
afterEach(async () => {
  await engine?.close();
  engine = null;
});

const plugin = (name: string, extra: Record<string, unknown> = {}) => JSON.stringify({ name, ...extra });

describe('plugins: manifests, namespacing, enabled layers', () => {
  it('validates manifests like Claude Code: only a name matters; a wrong type stops the plugin; unknown keys are near-miss warnings', () => {
    expect(validateManifest({ name: 'ok' }, 'p.json', 'folder')).toMatchObject({ name: 'ok', version: null, description: null, errors: [], warnings: [] });
    expect(validateManifest({}, 'p.json', 'folder')).toMatchObject({ name: 'folder', errors: [] });
    const bad = validateManifest({ name: 'Bad Name', version: 'one', commands: 5, mcp_servers: {}, skills: '../outside' }, 'p.json', 'folder');
    expect(bad.errors.map((e) => e.message)).toEqual(['"commands" must be string or array or object, not number; Claude Code refuses to load the plugin', '"skills" points outside the plugin (../outside)']);
    expect(bad.warnings.map((w) => w.message)).toEqual([
      'unknown key "mcp_servers" is ignored (did you mean "mcpServers"?)',
      'name "Bad Name" is not kebab-case (2–64 lowercase letters, digits, hyphens)',
      'version "one" is not semantic versioning (1.2.3)',
    ]);
  });

  it("namespaces plugin resources plugin:<plugin>:<name>; two plugins' same-named commands never shadow each other; a short name resolves only when unique", async () => {
    const dir = makeDir({
      '.claude/plugins/alpha/.claude-plugin/plugin.json': plugin('alpha'),
      '.claude/plugins/alpha/commands/review.md': 'alpha review',
      '.claude/plugins/alpha/commands/only-alpha.md': 'only alpha',
      '.claude/plugins/alpha/skills/lint/SKILL.md': md({ name: 'lint', description: 'alpha lint' }, 'x'),
      '.claude/plugins/alpha/agents/helper.md': md({ name: 'helper', description: 'alpha helper' }, 'x'),
      '.claude/plugins/alpha/output-styles/terse.md': 'Alpha terse.',
      '.blade/plugins/beta/.blade-plugin/plugin.json': plugin('beta'),
      '.blade/plugins/beta/commands/review.md': 'beta review',
      '.blade/plugins/beta/skills/lint/SKILL.md': md({ name: 'lint', description: 'beta lint' }, 'x'),
      '.claude/commands/native.md': 'native',
      '.claude/skills/lint/SKILL.md': md({ name: 'lint', description: 'native lint' }, 'x'),
    });
    const c = await build(dir, makeDir());
    expect(ids(c.commands).sort()).toEqual(['native', 'plugin:alpha:only-alpha', 'plugin:alpha:review', 'plugin:beta:review']);
    expect(ids(c.skills).sort()).toEqual(['lint', 'plugin:alpha:lint', 'plugin:beta:lint']);
    expect(ids(c.agents)).toEqual(['plugin:alpha:helper']);
    expect(ids(c.styles)).toEqual(['plugin:alpha:terse']);
    expect(findCommand(c, 'plugin:beta:review').template.trim()).toBe('beta review');
    expect(findCommand(c, 'plugin:alpha:review').template.trim()).toBe('alpha review');
    expect(findCommand(c, 'only-alpha').id).toBe('plugin:alpha:only-alpha');
    expect(() => findCommand(c, 'review')).toThrow(/names several commands: plugin:alpha:review, plugin:beta:review/);
    expect(findCommand(c, 'native').id).toBe('native');
    expect(c.plugins.map((p) => [p.id, p.status, p.source, p.contributes.commands, p.contributes.skills])).toEqual([
      ['plugin:alpha', 'enabled', 'project', 2, 1],
      ['plugin:beta', 'enabled', 'project', 1, 1],
    ]);
  });

  it('enabledPlugins layers user < project < local; an untrusted layer may only disable', async () => {
    const home = makeDir({
      '.claude/plugins/up/.claude-plugin/plugin.json': plugin('up'),
      '.claude/plugins/up/commands/hi.md': 'hi',
      '.claude/settings.json': JSON.stringify({ enabledPlugins: { up: false } }),
    });
    const dir = makeDir({ '.claude/settings.json': JSON.stringify({ enabledPlugins: { up: true } }) });
    const trusted = await build(dir, home, true);
    expect(trusted.plugins[0]).toMatchObject({ enabled: true, enabledBy: { scope: 'project', file: '.claude/settings.json', key: 'up' } });
    expect(ids(trusted.commands)).toEqual(['plugin:up:hi']);

    const untrusted = await build(dir, home, false);
    expect(untrusted.plugins[0]).toMatchObject({ enabled: false, status: 'disabled', enabledBy: { scope: 'user' } });
    expect(ids(untrusted.commands)).toEqual([]);
    expect(untrusted.warnings.map((w) => w.message)).toContain('enabledPlugins "up": true is ignored: this folder is not trusted, so its settings may only disable plugins');

    fs.writeFileSync(path.join(home, '.claude/settings.json'), '{}');
    fs.mkdirSync(path.join(dir, '.claude'), { recursive: true });
    fs.writeFileSync(path.join(dir, '.claude/settings.local.json'), JSON.stringify({ enabledPlugins: { up: false } }));
    const disabledByLocal = await build(dir, home, false);
    expect(disabledByLocal.plugins[0]).toMatchObject({ enabled: false, enabledBy: { scope: 'local', file: '.claude/settings.local.json' } });
  });

  it('marketplace: local sources (pluginRoot honoured) listed, off by default; strict:false entries bring inline LSP servers with ${CLAUDE_PLUGIN_ROOT} expanded', async () => {
    const dir = makeDir({
      '.claude-plugin/marketplace.json': JSON.stringify({
        name: 'mkt',
        metadata: { pluginRoot: './plugins' },
        plugins: [
          { name: 'tools', source: 'tools' },
          { name: 'ts-lsp', source: './plugins/ts-lsp', strict: false, lspServers: { ts: { command: '${CLAUDE_PLUGIN_ROOT}/bin/tsls', extensionToLanguage: { '.ts': 'typescript' } } } },
          { name: 'remote', source: { source: 'github', repo: 'x/y' } },
          { name: 'gone', source: './plugins/gone' },
        ],
      }),
      'plugins/tools/.claude-plugin/plugin.json': plugin('tools'),
      'plugins/tools/commands/go.md': 'go',
      'plugins/ts-lsp/README.md': 'readme',
      '.claude/settings.json': JSON.stringify({ enabledPlugins: { 'ts-lsp@mkt': true } }),
    });
    const c = await build(dir, makeDir());
    expect(c.plugins.map((p) => [p.name, p.marketplace, p.status, p.path])).toEqual([
      ['tools', 'mkt', 'disabled', 'plugins/tools'],
      ['ts-lsp', 'mkt', 'enabled', 'plugins/ts-lsp'],
    ]);
    expect(c.lspServers).toEqual([expect.objectContaining({ id: 'plugin:ts-lsp:ts', command: path.join(dir, 'plugins/ts-lsp/bin/tsls'), status: 'active' })]);
    expect(c.commands).toEqual([]);
    expect(c.plugins[0].contributes.commands).toBe(1);
    const messages = c.warnings.map((w) => w.message);
    expect(messages).toContain('1 of 4 marketplace entries have remote sources (github, url, git-subdir…); they are not listed until installed');
    expect(messages.some((m) => m.startsWith('plugin "gone": its folder plugins/gone does not exist'))).toBe(true);
  });

  it('enable/disable per scope writes enabledPlugins, rebuilds the bundle and emits extensionsChanged', async () => {
    const home = makeDir();
    const dir = makeDir({ '.blade/plugins/kit/.blade-plugin/plugin.json': plugin('kit'), '.blade/plugins/kit/commands/x.md': 'x', '.blade/settings.json': '{\n  "model": "m"\n}\n' });
    engine = engineFor(home, switchGate(true));
    const { workspace } = engine.workspaces.add(dir);
    const events: unknown[] = [];
    engine.bus.subscribe((event, payload) => event === 'extensionsChanged' && events.push(payload));
    expect((await engine.extensions.list(dir)).commands.map((x) => x.id)).toEqual(['plugin:kit:x']);
    const off = await engine.extensions.setPluginEnabled(dir, 'plugin:kit', 'project', false);
    expect(off).toMatchObject({ file: '.blade/settings.json', plugin: { enabled: false, enabledBy: { scope: 'project', key: 'kit' } } });
    expect(JSON.parse(fs.readFileSync(path.join(dir, '.blade/settings.json'), 'utf8'))).toEqual({ model: 'm', enabledPlugins: { kit: false } });
    expect((await engine.extensions.list(dir)).commands).toEqual([]);
    expect(events).toEqual([{ workspaceId: workspace.id }]);
    fs.writeFileSync(path.join(dir, '.blade/settings.json'), '{ broken');
    await expect(engine.extensions.setPluginEnabled(dir, 'kit', 'project', true)).rejects.toMatchObject({ code: 'INVALID_PARAMS' });
    expect(fs.readFileSync(path.join(dir, '.blade/settings.json'), 'utf8')).toBe('{ broken');
  });
});
