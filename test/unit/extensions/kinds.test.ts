import { describe, expect, it } from 'vitest';
import { ExtensionsListResult } from '../../../src/shared/contract/extensions';
import { presentList } from '../../../src/main/core/extensions/present';
import { build, ids, makeDir, md } from './helpers';

const skill = (name: string, desc = `${name} skill`) => md({ name, description: desc }, `Body of ${name}.`);

describe('every kind from real temp trees', () => {
  it('lists skills, commands, subagents, styles, MCP and LSP servers with source, path and digest', async () => {
    const home = makeDir({
      '.claude/skills/user-skill/SKILL.md': skill('user-skill'),
      '.claude/commands/hello.md': md({ description: 'Say hello' }, 'Hello $ARGUMENTS'),
      '.claude/agents/helper.md': md({ name: 'helper', description: 'Helps', tools: 'Read, Grep', model: 'sonnet' }, 'You help.'),
      '.claude/output-styles/compact.md': md({ description: 'Short' }, 'Be brief.'),
      '.cursor/mcp.json': JSON.stringify({ mcpServers: { userdb: { command: 'db-server', args: ['--token=sk-abcdefghijklmnop1234'] } } }),
    });
    const dir = makeDir({
      '.claude/skills/deploy/SKILL.md': md({ name: 'deploy', description: 'Deploy it', 'allowed-tools': 'Bash(git push *) Read', 'argument-hint': '[env]', model: 'opus', 'disable-model-invocation': 'yes', 'user-invocable': 'false', when_to_use: 'when shipping' }, 'Deploy steps.'),
      '.blade/commands/frontend/lint.md': md({ description: 'Lint frontend', 'argument-hint': 'PATH' }, 'Lint $0'),
      '.claude/commands/backend/lint.md': md({ description: 'Lint backend' }, 'Lint $ARGUMENTS'),
      '.blade/agents/reviewer.md': md({ name: 'reviewer', description: 'Reviews' }, 'Review.'),
      '.blade/output-styles/review/strict.md': md({ name: 'Strict review' }, 'Be strict.'),
      '.mcp.json': JSON.stringify({ mcpServers: { docs: { url: 'https://docs.example.invalid/mcp?key=secret', headers: { Authorization: 'Bearer ${DOCS_TOKEN}' } }, local: { command: 'node', args: ['mcp.js'], env: { API_KEY: 'abc' } } } }),
      '.vscode/mcp.json': '{ // comments allowed\n "servers": { "git": { "type": "stdio", "command": "uvx", "args": ["mcp-server-git"] } } }',
      '.lsp.json': JSON.stringify({ typescript: { command: 'typescript-language-server', args: ['--stdio'], extensionToLanguage: { '.TS': 'typescript', tsx: 'typescriptreact' } } }),
    });
    const c = await build(dir, home);
    const r = ExtensionsListResult.parse(presentList(c));

    const deploy = r.skills.find((s) => s.id === 'deploy')!;
    expect(deploy).toMatchObject({ source: 'project', tool: 'claude', path: '.claude/skills/deploy/SKILL.md', description: 'Deploy it', whenToUse: 'when shipping', argumentHint: '[env]', allowedTools: ['Bash(git push *)', 'Read'], model: 'opus', disableModelInvocation: true, userInvocable: false, status: 'active' });
    expect(deploy.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(r.skills.find((s) => s.id === 'user-skill')).toMatchObject({ source: 'user', path: '~/.claude/skills/user-skill/SKILL.md' });

    expect(ids(r.commands).sort()).toEqual(['backend/lint', 'frontend/lint', 'hello']);
    expect(r.commands.find((x) => x.id === 'frontend/lint')).toMatchObject({ tool: 'blade', argumentHint: 'PATH', description: 'Lint frontend', hasShellEmbeds: false });
    expect(r.agents.map((a) => [a.id, a.source, a.tools])).toEqual([
      ['helper', 'user', ['Read', 'Grep']],
      ['reviewer', 'project', []],
    ]);
    expect(r.styles.map((s) => [s.id, s.name])).toEqual([
      ['project:review:strict', 'Strict review'],
      ['user:compact', 'compact'],
    ]);

    const docs = r.mcpServers.find((s) => s.id === 'docs')!;
    expect(docs).toMatchObject({ transport: 'http', url: 'https://docs.example.invalid/mcp?key=••••••', headerNames: ['Authorization'], path: '.mcp.json', source: 'project' });
    expect(JSON.stringify(r.mcpServers)).not.toContain('abc');
    expect(JSON.stringify(r.mcpServers)).not.toContain('sk-abcdefghijklmnop1234');
    expect(r.mcpServers.find((s) => s.id === 'local')).toMatchObject({ transport: 'stdio', command: 'node', args: ['mcp.js'], envNames: ['API_KEY'] });
    expect(r.mcpServers.find((s) => s.id === 'git')).toMatchObject({ path: '.vscode/mcp.json' });
    expect(r.mcpServers.find((s) => s.id === 'userdb')).toMatchObject({ source: 'user', path: '~/.cursor/mcp.json', args: ['--token=••••••'] });
    expect(r.lspServers).toEqual([expect.objectContaining({ id: 'project:typescript', extensions: ['.ts', '.tsx'], status: 'active' })]);
    expect(r.lspServers[0].warnings.map((w) => w.message).join()).toContain('no leading dot');
  });

  it('applies the ONE precedence rule to every kind: user .claude < user .blade < project .claude < project .blade', async () => {
    const layers = ['claude', 'blade'] as const;
    const homeTree: Record<string, string> = {};
    const projTree: Record<string, string> = {};
    for (const [tree, scope] of [
      [homeTree, 'user'],
      [projTree, 'project'],
    ] as const) {
      for (const tool of layers) {
        tree[`.${tool}/skills/same/SKILL.md`] = md({ name: 'same', description: `${scope}-${tool}` }, 'x');
        tree[`.${tool}/commands/same.md`] = md({ description: `${scope}-${tool}` }, 'x');
        tree[`.${tool}/agents/same.md`] = md({ name: 'same', description: `${scope}-${tool}` }, 'x');
        tree[`.${tool}/output-styles/same.md`] = md({ description: `${scope}-${tool}` }, 'x');
      }
    }
    const home = makeDir(homeTree);
    const dir = makeDir(projTree);
    const winner = (items: ReadonlyArray<{ id: string; status: string; description: string | null }>, id: string) => items.find((i) => i.id === id && i.status === 'active')?.description;
    const c = await build(dir, home);
    expect(winner(c.skills, 'same')).toBe('project-blade');
    expect(winner(c.commands, 'same')).toBe('project-blade');
    expect(winner(c.agents, 'same')).toBe('project-blade');
    expect(c.skills.filter((s) => s.id === 'same' && s.status === 'overridden')).toHaveLength(3);
    expect(c.commands.find((x) => x.status === 'overridden' && x.path === '.claude/commands/same.md')?.overriddenBy).toBe('.blade/commands/same.md');
    // styles keep their scope prefix (seed §3): .blade beats .claude within user and within project
    expect(winner(c.styles, 'user:same')).toBe('user-blade');
    expect(winner(c.styles, 'project:same')).toBe('project-blade');

    // restricted mode: nothing from the project, the user layer decides
    const r = await build(dir, home, false);
    expect(winner(r.skills, 'same')).toBe('user-blade');
    expect(winner(r.commands, 'same')).toBe('user-blade');
    expect(r.skills.every((s) => s.source === 'user')).toBe(true);
    // what trusting would activate: one winner per id (the project .blade file), styles keep both scopes apart
    expect(r.restrictedCounts).toMatchObject({ skills: 1, commands: 1, agents: 1, styles: 1 });
  });

  it('a project MCP server overrides a user one of the same name; a local settings file beats the shared one', async () => {
    const home = makeDir({ '.claude/settings.json': JSON.stringify({ mcpServers: { db: { command: 'user-db' } } }) });
    const dir = makeDir({
      '.mcp.json': JSON.stringify({ db: { command: 'project-db' } }),
      '.claude/settings.local.json': JSON.stringify({ mcpServers: { db: { command: 'local-db' } } }),
    });
    const c = await build(dir, home);
    expect(c.mcpServers.filter((s) => s.id === 'db').map((s) => [s.command, s.status])).toEqual([
      ['local-db', 'active'],
      ['project-db', 'overridden'],
      ['user-db', 'overridden'],
    ]);
    const restricted = await build(dir, home, false);
    expect(restricted.mcpServers.map((s) => [s.command, s.status])).toEqual([['user-db', 'active']]);
  });

  it('restricted mode lists nothing active from the project and counts what trusting would activate', async () => {
    const dir = makeDir({
      '.claude/skills/a/SKILL.md': skill('a'),
      '.claude/skills/folder-without-skill/notes.md': 'not a skill',
      '.claude/commands/x.md': 'x',
      '.mcp.json': '{"mcpServers":{"s":{"command":"x"},"t":{"url":"https://t.example/mcp"}}}',
      '.lsp.json': JSON.stringify({ go: { command: 'gopls', extensionToLanguage: { '.go': 'go' } }, broken: { args: [] } }),
      '.claude/plugins/p/.claude-plugin/plugin.json': '{"name":"p"}',
      '.claude/plugins/p/commands/pc.md': 'from the plugin',
      '.claude/plugins/off/.claude-plugin/plugin.json': '{"name":"off"}',
      '.claude/settings.json': JSON.stringify({ enabledPlugins: { off: false } }),
      'apps/web/.claude/skills/deploy/SKILL.md': skill('deploy'),
    });
    const c = await build(dir, makeDir(), false);
    expect(c.trusted).toBe(false);
    for (const k of ['skills', 'commands', 'agents', 'plugins', 'mcpServers', 'styles', 'lspServers'] as const) expect(c[k]).toEqual([]);
    // the same discovery as the trusted bundle: 2 skills (one nested), the plugin's command, 2 servers, the valid LSP server, 1 enabled plugin
    expect(c.restrictedCounts).toEqual({ skills: 2, commands: 2, agents: 0, plugins: 1, mcp: 2, styles: 0, lsp: 1 });
    const trusted = await build(dir, makeDir(), true);
    expect(trusted.restrictedCounts).toEqual({ skills: 0, commands: 0, agents: 0, plugins: 0, mcp: 0, styles: 0, lsp: 0 });
    expect([ids(trusted.skills).length, ids(trusted.commands).length, ids(trusted.mcpServers).length, ids(trusted.lspServers).length]).toEqual([2, 2, 2, 1]);
  });

  it('dangling skill links and links stored as text are warnings, never crashes', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const dir = makeDir({ '.claude/skills/real/SKILL.md': skill('real'), '.claude/skills/as-text': '../../../../../.agents/skills/as-text' });
    fs.symlinkSync('../../nowhere/gone', path.join(dir, '.claude/skills/gone'));
    const c = await build(dir, makeDir());
    expect(ids(c.skills)).toEqual(['real']);
    const messages = c.warnings.map((w) => `${w.path}: ${w.message}`).join('\n');
    expect(messages).toContain('.claude/skills/gone: skill link to "../../nowhere/gone", which does not exist');
    expect(messages).toContain('.claude/skills/as-text: only contains the path');
  });
});
