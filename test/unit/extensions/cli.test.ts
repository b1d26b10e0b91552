import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli';
import { tempDir } from '../../support/tempDir';
import { makeDir, md } from './helpers';

describe('atrium resources / atrium command preview (real child process)', { timeout: 120_000 }, () => {
  const setup = () => {
    const home = makeDir({ '.claude/skills/mine/SKILL.md': md({ name: 'mine', description: 'Mine' }, 'x') });
    const dir = makeDir({
      '.claude/skills/proj/SKILL.md': md({ name: 'proj', description: 'Project skill' }, 'x'),
      '.claude/commands/greet.md': md({ description: 'Greet', 'argument-hint': 'NAME' }, 'Hello $0 ($ARGUMENTS) at !`date`'),
      '.mcp.json': JSON.stringify({ s: { command: 'srv', args: ['--x'] } }),
    });
    const dataDir = path.join(tempDir('atrium-ext-cli-'), 'data');
    const cli = (...args: string[]) => runCli([...args, '--data-dir', dataDir], { HOME: home, USERPROFILE: home });
    return { home, dir, cli };
  };

  it('resources DIR --json prints the contract shape; project entries appear only once the folder is trusted', () => {
    const { dir, cli } = setup();
    const restricted = cli('resources', dir, '--json');
    expect(restricted.status).toBe(0);
    expect(restricted.json).toMatchObject({ root: dir, trust: 'restricted', restrictedCounts: { skills: 1, commands: 1, mcp: 1 }, commands: [], mcpServers: [] });
    expect((restricted.json as { skills: Array<{ id: string; source: string }> }).skills.map((s) => [s.id, s.source])).toEqual([['mine', 'user']]);
    expect(cli('resources', dir).stdout).toContain(`Trusting the folder would activate: 1 skill, 1 command, 0 subagents, 0 plugins, 1 MCP server, 0 styles, 0 LSP servers (atrium trust review ${dir} lists them; atrium trust set ${dir} trusted)`);

    expect(cli('trust', 'set', dir, 'trusted', '--json').status).toBe(0);
    const all = cli('resources', dir, '--json').json as Record<string, Array<Record<string, unknown>>>;
    expect(Object.keys(all)).toEqual(['root', 'trust', 'restrictedCounts', 'skills', 'commands', 'agents', 'plugins', 'mcpServers', 'styles', 'lspServers', 'warnings', 'digest']);
    expect(all.skills.find((s) => s.id === 'proj')).toEqual(expect.objectContaining({ id: 'proj', name: 'proj', description: 'Project skill', source: 'project', path: '.claude/skills/proj/SKILL.md', sha256: expect.stringMatching(/^[0-9a-f]{64}$/), warnings: [] }));
    expect(all.commands[0]).toEqual(expect.objectContaining({ id: 'greet', name: 'greet', argumentHint: 'NAME', source: 'project', path: '.claude/commands/greet.md', hasShellEmbeds: true }));
    expect(all.mcpServers[0]).toEqual(expect.objectContaining({ id: 's', name: 's', transport: 'stdio', command: 'srv', args: ['--x'], url: null, source: 'project', path: '.mcp.json' }));

    const onlyCommands = cli('resources', dir, '--kind', 'commands', '--json').json as Record<string, unknown>;
    expect(Object.keys(onlyCommands)).toEqual(['root', 'trust', 'commands', 'warnings']);
    expect(cli('resources', dir, '--kind', 'nope').status).toBe(2);
    const human = cli('resources', dir);
    expect(human.stdout).toContain('Commands (1)');
    expect(human.stdout).toContain('runs: date');
  });

  it('resources --json lists a hint YAML reads as a list holding a mapping as the author wrote it, with a warning naming file, line and fix', () => {
    const { cli } = setup();
    const hinted = makeDir({ '.claude/commands/research.md': '---\ndescription: Research a topic\nargument-hint: [topic: foo | bar]\n---\nResearch $ARGUMENTS.\n' });
    expect(cli('trust', 'set', hinted, 'trusted').status).toBe(0);
    const out = cli('resources', hinted, '--kind', 'commands', '--json');
    expect(out.status).toBe(0);
    const [command] = (out.json as { commands: Array<Record<string, unknown> & { warnings: unknown[] }> }).commands;
    expect(command).toMatchObject({ id: 'research', argumentHint: '[topic: foo | bar]', frontmatterSource: { 'argument-hint': '[topic: foo | bar]' } });
    expect(command.warnings).toEqual([expect.objectContaining({ path: '.claude/commands/research.md', line: 3, fix: 'Quote the value: argument-hint: "[topic: foo | bar]"' })]);
    const { warnings: _warnings, ...shown } = command;
    expect(JSON.stringify(shown)).not.toContain('[object Object]');
    expect(cli('resources', hinted, '--kind', 'commands').stdout).toContain('research  .claude/commands/research.md  (1 warning)');
  });

  it('command preview DIR NAME ARGS… prints the expansion and the embeds it would run, without running them', () => {
    const { dir, cli } = setup();
    cli('trust', 'set', dir, 'trusted');
    const p = cli('command', 'preview', dir, 'greet', 'Ada', 'Lovelace', '--json');
    expect(p.status).toBe(0);
    expect(p.json).toMatchObject({ id: 'greet', text: 'Hello Ada (Ada Lovelace) at !`date`\n', args: ['Ada', 'Lovelace'], indexing: 'zero-based', embeds: [{ command: 'date', line: 5 }], canRun: true });
    expect(p.json).not.toHaveProperty('confirmToken');
    const human = cli('command', 'preview', dir, '/greet', 'Ada');
    expect(human.stdout).toContain('Shell embeds (not run):\n  line 5: date');
    const missing = cli('command', 'preview', dir, 'nope', '--json');
    expect(missing.status).toBe(1);
    expect(missing.json).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it('resources marks an MCP server reading an unset variable without a default as withheld from sessions, not active', () => {
    const home = makeDir({});
    const dir = makeDir({ '.mcp.json': JSON.stringify({ mcpServers: { needy: { command: 'node', args: ['s.js', '${NEEDY_UNSET_FOR_TEST}'] }, fine: { command: 'node', args: ['${NEEDY_SET_FOR_TEST}'] } } }) });
    const dataDir = path.join(tempDir('atrium-ext-cli-withheld-'), 'data');
    const cli = (...args: string[]) => runCli([...args, '--data-dir', dataDir], { HOME: home, USERPROFILE: home, NEEDY_UNSET_FOR_TEST: undefined, NEEDY_SET_FOR_TEST: 'x' });
    expect(cli('trust', 'set', dir, 'trusted').status).toBe(0);
    const servers = (cli('resources', dir, '--kind', 'mcp', '--json').json as { mcpServers: Array<{ name: string; status: string; warnings: Array<{ message: string }> }> }).mcpServers;
    const needy = servers.find((s) => s.name === 'needy')!;
    expect(needy.status).not.toBe('active');
    expect(needy.warnings.map((w) => w.message)).toContain('MCP server "needy" reads the environment variable NEEDY_UNSET_FOR_TEST, which is not set in Atrium\'s environment and has no default: the server is withheld from sessions');
    expect(servers.find((s) => s.name === 'fine')).toMatchObject({ status: 'active', warnings: [] });
    const human = cli('resources', dir, '--kind', 'mcp').stdout;
    expect(human).toMatch(/invalid\s+project needy {2}\.mcp\.json .*\(1 warning\)\n +! MCP server "needy" reads the environment variable NEEDY_UNSET_FOR_TEST, .*withheld from sessions/);
  });
});
