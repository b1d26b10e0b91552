import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../trust/helpers';
import { build, ids, makeDir, md, writeTree } from './helpers';

const skill = (name: string, extra: Record<string, string> = {}) => md({ name, description: `${name} skill`, ...extra }, `Body of ${name}.`);

describe('~/.claude.json: user- and local-scope MCP servers (formats.md §2.7)', () => {
  it('reads user servers and the local servers of this folder only; local > project > user, whole entry from the winner', async () => {
    const dir = makeDir({ '.mcp.json': JSON.stringify({ mcpServers: { db: { command: 'project-db' }, shared: { command: 'project-shared' } } }) });
    const other = makeDir();
    const home = makeDir({
      '.claude.json': JSON.stringify({
        numStartups: 12,
        mcpServers: { db: { command: 'user-db', args: ['--user'] }, remote: { url: 'https://mcp.example/api?key=SECRET' } },
        projects: {
          [dir]: { mcpServers: { db: { command: 'local-db' }, mine: { command: 'mine' } } },
          [other]: { mcpServers: { elsewhere: { command: 'not-here' } } },
        },
      }),
    });
    const c = await build(dir, home);
    const db = c.mcpServers.filter((s) => s.id === 'db').map((s) => [s.command, s.args, s.source, s.path, s.status]);
    expect(db).toEqual([
      ['local-db', [], 'local', '~/.claude.json', 'active'],
      ['project-db', [], 'project', '.mcp.json', 'overridden'],
      ['user-db', ['--user'], 'user', '~/.claude.json', 'overridden'],
    ]);
    expect(ids(c.mcpServers).sort()).toEqual(['db', 'mine', 'remote', 'shared']);
    expect(c.mcpServers.find((s) => s.id === 'remote')).toMatchObject({ transport: 'http', url: 'https://mcp.example/api?key=••••••', source: 'user' });
    expect(JSON.stringify(c.mcpServers)).not.toContain('SECRET');
    expect(JSON.stringify(c.mcpServers)).not.toContain('not-here');

    // both live in the user's own file: active in restricted mode too (the project's .mcp.json is not)
    const r = await build(dir, home, false);
    expect(r.mcpServers.filter((s) => s.status === 'active').map((s) => [s.id, s.command ?? s.url, s.source]).sort()).toEqual([
      ['db', 'local-db', 'local'],
      ['mine', 'mine', 'local'],
      ['remote', 'https://mcp.example/api?key=••••••', 'user'],
    ]);
  });

  it('matches the project key through links, trailing separators and, for a worktree, the main checkout path', async () => {
    const main = makeDir({ 'README.md': 'x' });
    git(main, 'init', '-q');
    git(main, 'add', '.');
    git(main, 'commit', '-q', '-m', 'init');
    const wt = path.join(makeDir(), 'wt');
    git(main, 'worktree', 'add', '-q', wt);
    const link = path.join(makeDir(), 'link-to-main');
    fs.symlinkSync(main, link);
    const home = makeDir({ '.claude.json': JSON.stringify({ projects: { [`${link}/`]: { mcpServers: { viaLink: { command: 'a' } } } } }) });
    expect(ids((await build(main, home)).mcpServers)).toEqual(['viaLink']);
    expect(ids((await build(fs.realpathSync(wt), home)).mcpServers)).toEqual(['viaLink']);
  });

  it('a garbled ~/.claude.json is a warning naming the line, never a crash', async () => {
    const home = makeDir({ '.claude.json': '{\n  "mcpServers": {\n    "x": { "command": "a" },\n  }\n}\n' });
    const c = await build(makeDir(), home);
    expect(c.mcpServers).toEqual([]);
    expect(c.warnings).toEqual([expect.objectContaining({ path: '~/.claude.json', line: 4, message: expect.stringContaining('invalid JSON') })]);
    const notObject = await build(makeDir(), makeDir({ '.claude.json': JSON.stringify({ mcpServers: ['x'] }) }));
    expect(notObject.warnings[0]).toMatchObject({ path: '~/.claude.json', message: expect.stringContaining('not an object of named servers') });
  });
});

describe('installed plugins (~/.claude/plugins/installed_plugins.json + cache)', () => {
  const installed = (home: string, plugins: unknown, version = 2) =>
    writeTree(home, { '.claude/plugins/installed_plugins.json': JSON.stringify(version === 2 ? { version: 2, plugins } : { version: 1, plugins }) });
  const cached = (home: string, market: string, name: string, ver: string, extra: Record<string, string> = {}) => {
    const root = path.join(home, '.claude/plugins/cache', market, name, ver);
    writeTree(root, { '.claude-plugin/plugin.json': JSON.stringify({ name, version: ver }), [`commands/${name}-cmd.md`]: `${name} command`, ...extra });
    return root;
  };

  it('lists user installs as user-level plugins, enabled by enabledPlugins "<plugin>@<marketplace>"; project installs only for their project', async () => {
    const dir = makeDir();
    const home = makeDir();
    const on = cached(home, 'mkt', 'on', '1.0.0', { '.mcp.json': JSON.stringify({ mcpServers: { srv: { command: 'srv' } } }), 'skills/sk/SKILL.md': skill('sk') });
    const off = cached(home, 'mkt', 'off', '2.0.0');
    const mine = cached(home, 'mkt', 'mine', '0.1.0');
    const theirs = cached(home, 'mkt', 'theirs', '0.1.0');
    installed(home, {
      'on@mkt': [{ scope: 'user', installPath: on, version: '1.0.0', installedAt: '2026-01-01T00:00:00Z', lastUpdated: '2026-01-01T00:00:00Z', gitCommitSha: 'abc' }],
      'off@mkt': [{ scope: 'user', installPath: off, version: '2.0.0' }],
      'mine@mkt': [{ scope: 'project', projectPath: dir, installPath: mine, version: '0.1.0' }],
      'theirs@mkt': [{ scope: 'project', projectPath: makeDir(), installPath: theirs, version: '0.1.0' }],
    });
    writeTree(home, { '.claude/settings.json': JSON.stringify({ enabledPlugins: { 'on@mkt': true, 'off@mkt': false } }) });
    writeTree(dir, { '.claude/settings.json': JSON.stringify({ enabledPlugins: { 'mine@mkt': true } }) });

    const c = await build(dir, home);
    expect(c.plugins.map((p) => [p.name, p.source, p.marketplace, p.installScope, p.version, p.status, p.path])).toEqual([
      ['mine', 'user', 'mkt', 'project', '0.1.0', 'enabled', '~/.claude/plugins/cache/mkt/mine/0.1.0'],
      ['off', 'user', 'mkt', 'user', '2.0.0', 'disabled', '~/.claude/plugins/cache/mkt/off/2.0.0'],
      ['on', 'user', 'mkt', 'user', '1.0.0', 'enabled', '~/.claude/plugins/cache/mkt/on/1.0.0'],
    ]);
    expect(ids(c.commands).sort()).toEqual(['plugin:mine:mine-cmd', 'plugin:on:on-cmd']);
    expect(ids(c.skills)).toEqual(['plugin:on:sk']);
    expect(c.mcpServers.map((s) => [s.id, s.source, s.plugin])).toEqual([['plugin:on:srv', 'plugin', 'on']]);

    // restricted: installs are user-level, but the project's settings may only disable, so "mine" is off
    const r = await build(dir, home, false);
    expect(r.plugins.map((p) => [p.name, p.status])).toEqual([
      ['mine', 'disabled'],
      ['off', 'disabled'],
      ['on', 'enabled'],
    ]);
    expect(r.warnings.map((w) => w.message)).toContain('enabledPlugins "mine@mkt": true is ignored: this folder is not trusted, so its settings may only disable plugins');
  });

  it('reads version 1 files (one object per key) and the cache path when installPath is missing', async () => {
    const home = makeDir();
    cached(home, 'old-market', 'legacy', '3.1.0');
    installed(home, { 'legacy@old-market': { version: '3.1.0', installedAt: '2025-01-01' } }, 1);
    writeTree(home, { '.claude/settings.json': JSON.stringify({ enabledPlugins: { 'legacy@old-market': true } }) });
    const c = await build(makeDir(), home);
    expect(c.plugins.map((p) => [p.id, p.status, p.installScope])).toEqual([['plugin:legacy', 'enabled', 'user']]);
    expect(ids(c.commands)).toEqual(['plugin:legacy:legacy-cmd']);
  });

  it('a garbled file, a bad key or a missing folder is a warning, never a crash', async () => {
    const garbled = makeDir({ '.claude/plugins/installed_plugins.json': '{"version": 2, "plugins": {' });
    const g = await build(makeDir(), garbled);
    expect(g.plugins).toEqual([]);
    expect(g.warnings[0]).toMatchObject({ path: '~/.claude/plugins/installed_plugins.json', message: expect.stringContaining('invalid JSON') });

    const home = makeDir();
    installed(home, { 'no-marketplace': [{ scope: 'user', installPath: '/x' }], 'gone@mkt': [{ scope: 'user', installPath: path.join(home, 'nope') }], 'odd@mkt': ['not an object'] });
    const c = await build(makeDir(), home);
    expect(c.plugins).toEqual([]);
    const messages = c.warnings.map((w) => w.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        '"no-marketplace" is not "<plugin>@<marketplace>"; ignored',
        expect.stringMatching(/^installed plugin "gone@mkt": its folder ~\/nope does not exist/),
        'an install record of "odd@mkt" is not an object; ignored',
      ]),
    );
  });
});

describe('nested .claude/skills below the workspace root (formats.md §2.8)', () => {
  it('lists nested skills (project scope, trusted only), qualifies duplicates as <dir>:<name>, skips node_modules and git-ignored folders', async () => {
    const dir = makeDir({
      '.gitignore': 'generated/\n',
      '.claude/skills/deploy/SKILL.md': skill('deploy'),
      'apps/web/.claude/skills/deploy/SKILL.md': skill('deploy'),
      'apps/api/.blade/skills/deploy/SKILL.md': skill('deploy'),
      'apps/web/.claude/skills/only-web/SKILL.md': skill('only-web'),
      'node_modules/pkg/.claude/skills/evil/SKILL.md': skill('evil'),
      'generated/.claude/skills/gen/SKILL.md': skill('gen'),
    });
    git(dir, 'init', '-q');
    const c = await build(dir, makeDir());
    expect(c.skills.map((s) => [s.id, s.path, s.source, s.status])).toEqual([
      ['apps/api:deploy', 'apps/api/.blade/skills/deploy/SKILL.md', 'project', 'active'],
      ['apps/web:deploy', 'apps/web/.claude/skills/deploy/SKILL.md', 'project', 'active'],
      ['deploy', '.claude/skills/deploy/SKILL.md', 'project', 'active'],
      ['only-web', 'apps/web/.claude/skills/only-web/SKILL.md', 'project', 'active'],
    ]);
    expect(c.watchRoots.map((r) => path.relative(dir, r)).sort()).toEqual(['apps/api/.blade/skills', 'apps/web/.claude/skills']);
    expect((await build(dir, makeDir(), false)).skills).toEqual([]);
  });
});

describe('skill frontmatter: arguments and hooks', () => {
  it('lists named arguments (string or list) and hooks with their events, warning that they run only when invoked and need approval', async () => {
    const dir = makeDir({
      '.claude/skills/fix/SKILL.md': '---\nname: fix\ndescription: Fix an issue\narguments: issue priority\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: ./check.sh\n        - type: command\n          command: ./log.sh\n  Stop:\n    - hooks:\n        - type: command\n          command: ./done.sh\n---\nFix $issue now. !`git status`\n',
      '.claude/skills/list/SKILL.md': '---\nname: list\ndescription: d\narguments: [a, b]\n---\nx\n',
      '.claude/skills/bad/SKILL.md': '---\nname: bad\ndescription: d\narguments: {a: 1}\nhooks: run-me\n---\nx\n',
    });
    const c = await build(dir, makeDir());
    const fix = c.skills.find((s) => s.id === 'fix')!;
    expect(fix).toMatchObject({ arguments: ['issue', 'priority'], hooks: { count: 3, events: ['PreToolUse', 'Stop'] }, shellEmbeds: ['git status'] });
    expect(fix.warnings).toEqual([
      { path: '.claude/skills/fix/SKILL.md', line: 5, message: 'declares 3 hooks (PreToolUse, Stop): Atrium never runs them and they cannot be approved (agents it launches load no skills of their own); an agent that loads this skill by itself runs them, without asking Atrium, only while the skill is invoked', fix: null },
    ]);
    expect(c.skills.find((s) => s.id === 'list')).toMatchObject({ arguments: ['a', 'b'], hooks: null, warnings: [] });
    const bad = c.skills.find((s) => s.id === 'bad')!;
    expect(bad).toMatchObject({ arguments: [], hooks: null });
    expect(bad.warnings.map((w) => [w.line, w.message])).toEqual([
      [4, '"arguments" must be a space-separated string or a list of names; it is ignored'],
      [5, '"hooks" is not an object of events; agents reject it'],
    ]);
  });
});
