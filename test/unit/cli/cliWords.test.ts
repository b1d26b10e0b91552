import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_ONE_COULD_ANSWER } from '../../../src/main/cli/commands/sessionOutput';
import { sessionTitle } from '../../../src/shared/sessionTitle';
import { runCli } from '../../support/cli';
import { repoRoot } from '../../support/corpus';
import { scriptedAgentCommand } from '../../support/sessions';
import { tempDir } from '../../support/tempDir';

/** What the CLI says agrees with what happens (real child processes on a temp data directory). */

describe('atrium agents list says what launching would do', () => {
  it('a preset neither installed nor on PATH is "not installed" with the install command; one on PATH is installed (path)', { timeout: 180_000 }, () => {
    const dataDir = tempDir('atrium-cli-');
    const bin = tempDir('atrium-bin-');
    const qwen = path.join(bin, 'qwen');
    fs.writeFileSync(qwen, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const env = { PATH: bin };
    expect(runCli(['agents', 'define', 'mine', 'no-such-agent-binary', '--data-dir', dataDir], env).status).toBe(0);

    const listed = runCli(['agents', 'list', '--data-dir', dataDir], env);
    expect(listed.status).toBe(0);
    const line = (id: string) => listed.stdout.split('\n').find((l) => l.startsWith(`${id} `)) ?? '';
    expect(line('codex')).toContain('not installed (atrium agents install codex)');
    expect(line('qwen')).toContain(`installed (path)`);
    expect(line('mine')).toContain('not found on PATH');
    expect(listed.stdout).not.toMatch(/\bavailable\b/);

    // the launch agrees: the preset that is "not installed" does not start
    const started = runCli(['session', 'new', tempDir(), '--agent', 'codex', '--data-dir', dataDir], env);
    expect(started.status).toBe(1);
    expect(started.stderr).toContain('is not installed. Install it with: atrium agents install codex');

    // --json keeps the wire states
    const json = runCli(['agents', 'list', '--data-dir', dataDir, '--json'], env).json as { agents: Array<{ id: string; install: { state: string } }> };
    expect(json.agents.find((a) => a.id === 'codex')?.install.state).toBe('available');
  });
});

describe('atrium session: titles and who answered', () => {
  function world() {
    const base = tempDir('atrium-cli-');
    const ws = path.join(base, 'ws');
    fs.mkdirSync(ws);
    const dataDir = path.join(base, 'data');
    const { command, args } = scriptedAgentCommand(base, {
      turns: [{ match: 'write', steps: [{ permission: { title: 'Write notes.txt', kind: 'edit' } }, { write: { path: '{{cwd}}/notes.txt', content: 'x' } }] }],
    });
    const cmdline = [command, ...args].map((a) => `'${a}'`).join(' ');
    return { ws, dataDir, cmdline };
  }

  it('a session nobody named reads "Session in <workspace>" in the CLI, as in the UI (shared sessionTitle)', { timeout: 180_000 }, () => {
    const { ws, dataDir, cmdline } = world();
    expect(runCli(['workspace', 'add', ws, '--name', 'Web shop', '--data-dir', dataDir]).status).toBe(0);
    const created = runCli(['session', 'new', ws, '--agent-command', cmdline, '--agent', 'fixture', '--data-dir', dataDir]);
    expect(created.status, created.stderr).toBe(0);
    expect(created.stdout).toContain('  Session in Web shop  ');
    expect(created.stdout).not.toContain('(untitled)');
    const id = created.stdout.trim().split('\n').at(-1)!.split(' ')[0];

    const listed = runCli(['session', 'list', '--data-dir', dataDir]);
    expect(listed.stdout).toContain('  Session in Web shop  ');
    expect(listed.stdout).toContain(sessionTitle({ title: null, cwd: ws }, 'Web shop'));
    // your title wins, as in the UI
    expect(runCli(['session', 'rename', id, 'Fix login', '--data-dir', dataDir]).stdout).toContain('  Fix login  ');
  });

  it('a request cancelled because the terminal has no input is recorded as no one could answer, not "by you"', { timeout: 180_000 }, () => {
    const { ws, dataDir, cmdline } = world();
    // no TTY, empty stdin, no --on-permission: the ask policy has no one to ask
    const run = runCli(['session', 'new', ws, '--agent-command', cmdline, '--agent', 'fixture', '--prompt', 'please write', '--data-dir', dataDir]);
    expect(run.stdout).toContain(`[permission] Write notes.txt: cancelled (${NO_ONE_COULD_ANSWER})`);
    expect(run.stdout).not.toContain('by you');
    expect(fs.existsSync(path.join(ws, 'notes.txt'))).toBe(false);
    const id = run.stdout.split('\n').find((l) => l.includes('  fixture  '))!.split(' ')[0];

    const shown = runCli(['session', 'show', id, '--data-dir', dataDir]);
    expect(shown.stdout).toContain(`[permission] Write notes.txt: cancelled (${NO_ONE_COULD_ANSWER})`);
    const json = runCli(['session', 'show', id, '--json', '--data-dir', dataDir]).json as { transcript: { items: Array<{ kind: string; state?: string; answeredBy?: string }> } };
    expect(json.transcript.items.find((i) => i.kind === 'permission')).toMatchObject({ state: 'cancelled', answeredBy: 'nobody' });

    // an empty line typed in answer is a person cancelling: still "by you"
    const typed = runCli(['session', 'prompt', id, 'write again', '--data-dir', dataDir], {}, '\n');
    expect(typed.stdout).toContain('[permission] Write notes.txt: cancelled (by you)');
  });
});

describe('the worktree branch name: help, README and git agree', () => {
  const RULE = 'atrium/<title slug>-<first 8 characters of the session id>';

  it('session new --worktree creates the branch --help and the README describe', { timeout: 180_000 }, () => {
    const base = tempDir('atrium-cli-');
    const ws = path.join(base, 'ws');
    fs.mkdirSync(ws);
    const git = (...args: string[]) => execFileSync('git', args, { cwd: ws, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' } });
    git('init', '-q');
    fs.writeFileSync(path.join(ws, 'a.txt'), 'a\n');
    git('add', 'a.txt');
    git('commit', '-qm', 'first');
    const dataDir = path.join(base, 'data');
    const { command, args } = scriptedAgentCommand(base, { turns: [] });
    const cmdline = [command, ...args].map((a) => `'${a}'`).join(' ');

    expect(runCli(['session', 'new', '--help']).stdout.replace(/\s+/g, ' ')).toContain(RULE);
    expect(fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8').replace(/\s+/g, ' ')).toContain(`branch \`${RULE}\``);

    const created = runCli(['session', 'new', ws, '--worktree', '--title', 'Fix the Login!', '--agent-command', cmdline, '--agent', 'fixture', '--json', '--data-dir', dataDir]);
    expect(created.status, created.stderr).toBe(0);
    const id = (JSON.parse(created.stdout.trim().split('\n').at(-1)!) as { session: { id: string } }).session.id;
    const first8 = id.replace(/[^a-zA-Z0-9]/g, '').slice(0, 8).toLowerCase();
    expect(git('branch', '--list', 'atrium/*', '--format=%(refname:short)').trim()).toBe(`atrium/fix-the-login-${first8}`);
  });
});

describe('usage errors exit 2, as README "Command line" and --help say', () => {
  it('unknown option, missing argument and bad values (commander, the command, the request schema) all exit 2', { timeout: 180_000 }, () => {
    const dataDir = tempDir('atrium-cli-');
    const folder = tempDir();
    const cli = (...args: string[]) => runCli([...args, '--data-dir', dataDir]);
    expect(runCli(['--help']).stdout).toContain('2 bad usage (unknown command or option, missing argument, bad value)');
    expect(cli('workspace', 'list', '--bogus').status).toBe(2);
    expect(cli('workspace', 'add').status).toBe(2);
    // commander's own usage errors answer --json on stdout too
    for (const args of [['workspace', 'list', '--bogus'], ['rules', 'explain', folder], ['rules', 'frob'], ['rules', 'list']]) {
      const usage = cli(...args, '--json');
      expect(usage.status, args.join(' ')).toBe(2);
      expect(usage.json, args.join(' ')).toMatchObject({ error: { code: 'USAGE' } });
    }
    expect((cli('rules', 'explain', folder, '--json').json as { error: { message: string } }).error.message).toBe("required option '--path <path>' not specified");

    const emptyName = cli('workspace', 'add', folder, '--name', '', '--json');
    expect(emptyName.status).toBe(2);
    expect(emptyName.json).toMatchObject({ error: { code: 'USAGE' } });
    expect(emptyName.stderr).toContain('--name must not be empty');
    expect((cli('workspace', 'list', '--json').json as { workspaces: unknown[] }).workspaces).toEqual([]);

    const badEnv = cli('agents', 'define', 'mine', 'true', '--env', 'NOEQUALS');
    expect(badEnv.status).toBe(2);
    expect(badEnv.stderr).toContain('--env takes NAME=VALUE, not "NOEQUALS"');
    expect((cli('agents', 'list', '--json').json as { agents: Array<{ id: string }> }).agents.map((a) => a.id)).not.toContain('mine');

    // a failure that is not bad usage keeps exit 1
    expect(cli('workspace', 'add', path.join(folder, 'missing')).status).toBe(1);
  });
});

describe('--help names every default of the data directory', () => {
  it('says $XDG_CONFIG_HOME/atrium, and the CLI uses it when --data-dir and $ATRIUM_DATA_DIR are absent', { timeout: 180_000 }, () => {
    const rule = '$ATRIUM_DATA_DIR, else $XDG_CONFIG_HOME/atrium, else ~/.config/atrium';
    expect(runCli(['--help']).stdout.replace(/\s+/g, ' ')).toContain(rule);
    expect(runCli(['workspace', 'list', '--help']).stdout.replace(/\s+/g, ' ')).toContain(rule);
    const xdg = tempDir('atrium-xdg-');
    expect(runCli(['workspace', 'add', tempDir()], { ATRIUM_DATA_DIR: '', XDG_CONFIG_HOME: xdg }).status).toBe(0);
    expect(fs.existsSync(path.join(xdg, 'atrium', 'atrium.db'))).toBe(true);
  });
});
