import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionHookRun, TranscriptItem } from '../../../src/shared/contract';
import { runCli, type CliRun } from '../../support/cli';
import { repoRoot } from '../../support/corpus';
import { commandHook, hookSettings, policyWorlds, promptAndWait, writeFiles, worldDirs, type Files } from '../../support/policy';
import { scriptedAgentCommand, waitFor, type Scenario } from '../../support/sessions';

/**
 * Nothing a session owes is lost when the process hosting it ends: every `atrium session prompt`
 * below is its own CLI process (the real CLI from source), as a user in a terminal runs them.
 * - Contextual rules a read triggers go with the next prompt (seed §7: rules for a touched path
 *   are attached to the next prompt), whichever process sends it, exactly once.
 * - Stop hooks, which Claude Code runs "when the main agent has finished responding" (hooks.md,
 *   Stop; a command handler's `timeout` defaults to 600 s, formats.md §2.5), and `async: true`
 *   handlers (started in the background, not awaited by the event) run to their end once per turn:
 *   the CLI command waits for them, bounded by their timeouts, and reports them.
 */

const RULE = '---\npaths:\n  - "docs/**"\n---\nDocs rule: every page starts with a title.\n';
const RULE_TEXT = 'Docs rule: every page starts with a title.';
const BLOCK = '<contextual-project-instructions trigger-paths="docs/guide.md">';

const FILES: Files = {
  '.claude/rules/docs.md': RULE,
  'docs/guide.md': '# Guide\nsome text\n',
};

/** Reads docs/guide.md on "read docs"; "die" crashes the agent before it answers; "slow" answers with the whole prompt, then takes 3 s; anything else is echoed whole (context included). */
const SCENARIO: Scenario = {
  capabilities: { loadSession: true },
  turns: [
    { match: '^read docs', steps: [{ read: { path: '{{cwd}}/docs/guide.md' } }] },
    { match: '^die', steps: [{ crash: { exitCode: 3, stderr: 'scripted crash' } }] },
    { match: '^slow', steps: [{ text: 'working on: {{prompt}}' }, { sleep: 3000 }, { stop: 'end_turn' }] },
  ],
};

interface CliWorld {
  ws: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  agent: string;
  /** Runs one CLI command to its end in its own process. */
  atrium(...args: string[]): CliRun;
}

/** A home, a workspace with `files`, a data dir; the workspace trusted through the CLI. */
function cliWorld(files: Files, scenario: Scenario): CliWorld {
  const dirs = worldDirs('atrium-owed-');
  writeFiles(dirs.ws, files);
  const { command, args } = scriptedAgentCommand(dirs.base, scenario);
  const env = { HOME: dirs.home, ATRIUM_DATA_DIR: dirs.dataDir };
  const atrium = (...a: string[]) => runCli([...a, '--data-dir', dirs.dataDir], env);
  const trusted = atrium('trust', 'set', dirs.ws, 'trusted');
  expect(trusted.status, trusted.stderr).toBe(0);
  return { ws: dirs.ws, dataDir: dirs.dataDir, env, agent: [command, ...args].map((a) => `'${a}'`).join(' '), atrium };
}

/** The last JSON line of a `--json` run (the command's result). */
function result(run: CliRun): Record<string, unknown> {
  const last = run.stdout.trim().split('\n').filter((l) => l.startsWith('{')).at(-1);
  if (!last) throw new Error(`no JSON result (exit ${run.status}): ${run.stderr}`);
  return JSON.parse(last) as Record<string, unknown>;
}

/** The agent's messages of a session's last turn, read by another CLI process (`session show --json`). */
function lastAgentText(w: CliWorld, sessionId: string): string {
  const shown = w.atrium('session', 'show', sessionId, '--json');
  const items = (shown.json as { transcript: { items: TranscriptItem[] } }).transcript.items;
  const lastUser = items.map((i) => i.kind).lastIndexOf('user_message');
  return items
    .slice(lastUser + 1)
    .map((i) => (i.kind === 'agent_message' ? i.text : ''))
    .join('\n');
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

describe('what a session owes survives the process that hosted it (separate CLI processes)', () => {
  it('a contextual rule a read triggered goes with the next prompt from a new process, once', () => {
    const w = cliWorld(FILES, SCENARIO);
    const first = w.atrium('session', 'new', w.ws, '--agent-command', w.agent, '--prompt', 'read docs', '--json');
    expect(first.status, first.stderr).toBe(0);
    const id = (result(first).session as { id: string }).id;
    expect(lastAgentText(w, id)).toContain('read: # Guide');

    // the process that saw the read has ended: a new one sends the rule with its prompt
    const second = w.atrium('session', 'prompt', id, 'next', '--json');
    expect(second.status, second.stderr).toBe(0);
    const received = lastAgentText(w, id);
    expect(received).toContain(BLOCK);
    expect(received).toContain(RULE_TEXT);

    // and only once
    const third = w.atrium('session', 'prompt', id, 'and then', '--json');
    expect(third.status, third.stderr).toBe(0);
    const again = lastAgentText(w, id);
    expect(again).toContain('echo: ');
    expect(again).toContain('and then');
    expect(again).not.toContain(RULE_TEXT);

    // recorded as loaded once, with one rules_loaded notice for it
    const shown = w.atrium('session', 'show', id, '--json').json as { transcript: { items: TranscriptItem[] } };
    const loaded = shown.transcript.items.filter((i) => i.kind === 'notice' && i.code === 'rules_loaded' && i.title.startsWith('Contextual rules loaded'));
    expect(loaded).toHaveLength(1);
  }, 180_000);

  it('a prompt whose agent crashed before answering leaves the rule owed; a prompt the agent answered before its process was killed does not send it again', async () => {
    const w = cliWorld(FILES, SCENARIO);
    const first = w.atrium('session', 'new', w.ws, '--agent-command', w.agent, '--prompt', 'read docs', '--json');
    expect(first.status, first.stderr).toBe(0);
    const id = (result(first).session as { id: string }).id;

    // the prompt carrying the rule never reached an answer: the agent died first
    const died = w.atrium('session', 'prompt', id, 'die', '--json');
    expect(result(died).stopReason).toBe('crashed');

    // so the next prompt, in another process, carries it again (never zero) ...
    const slow = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'src/main/cli/entry.ts'), 'session', 'prompt', id, 'slow', '--data-dir', w.dataDir], {
      cwd: repoRoot,
      env: { ...process.env, ...w.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(slow);
    let out = '';
    slow.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise((resolve) => slow.once('exit', resolve));
    await waitFor(() => out.includes(RULE_TEXT), 'the agent to answer with the prompt it received', 60_000);
    expect(out).toContain(BLOCK);
    // ... and the process is killed after the agent answered, before the turn ended
    await new Promise((r) => setTimeout(r, 300));
    slow.kill('SIGKILL');
    await exited;

    // the journal shows the agent had that prompt: a new process does not send the rule a third time (never twice)
    const after = w.atrium('session', 'prompt', id, 'after', '--json');
    expect(after.status, after.stderr).toBe(0);
    const received = lastAgentText(w, id);
    expect(received).toContain('after');
    expect(received).not.toContain(RULE_TEXT);
  }, 180_000);

  it('an approved Stop hook and an async Stop handler run to their end once per turn across three CLI prompt processes, and each command reports them', () => {
    const w = cliWorld(
      {
        '.claude/settings.json': hookSettings({
          Stop: [{ hooks: [commandHook('sleep 0.3; echo x >> "$CLAUDE_PROJECT_DIR/stop.log"'), commandHook('sleep 0.5; echo y >> "$CLAUDE_PROJECT_DIR/async.log"', { async: true })] }],
        }),
      },
      SCENARIO,
    );
    const listed = w.atrium('hooks', 'list', w.ws, '--json').json as { hooks: Array<{ id: string; command: string; }> };
    const stop = listed.hooks.find((h) => h.command.includes('stop.log'))!;
    const later = listed.hooks.find((h) => h.command.includes('async.log'))!;
    const approved = w.atrium('hooks', 'approve', w.ws, stop.id, later.id);
    expect(approved.status, approved.stderr).toBe(0);

    const first = w.atrium('session', 'new', w.ws, '--agent-command', w.agent, '--prompt', 'one');
    expect(first.status, first.stderr).toBe(0);
    const id = (w.atrium('session', 'list', '--json').json as { sessions: Array<{ id: string }> }).sessions[0].id;
    const second = w.atrium('session', 'prompt', id, 'two');
    expect(second.status, second.stderr).toBe(0);
    const third = w.atrium('session', 'prompt', id, 'three', '--json');
    expect(third.status, third.stderr).toBe(0);

    const lines = (file: string) => fs.readFileSync(path.join(w.ws, file), 'utf8').split('\n').filter(Boolean);
    expect(lines('stop.log')).toEqual(['x', 'x', 'x']);
    expect(lines('async.log')).toEqual(['y', 'y', 'y']);

    // human output: one [hook] line per handler, after the turn
    for (const run of [first, second]) {
      expect(run.stdout).toMatch(new RegExp(`\\[hook\\] Stop ${stop.id}  exit 0  \\d+ ms  none\\n`));
      expect(run.stdout).toMatch(new RegExp(`\\[hook\\] Stop ${later.id}  exit 0  \\d+ ms  none  ran in the background \\(async\\)`));
    }
    // --json: the runs in the result
    const runs = result(third).hookRuns as SessionHookRun[];
    expect(runs.flatMap((r) => r.results.map((x) => [r.event, x.id, x.exitCode, x.message]))).toEqual(
      expect.arrayContaining([
        ['Stop', stop.id, 0, null],
        ['Stop', later.id, 0, null],
      ]),
    );
    // the async handler's real result is in the run history of every turn, not only its placeholder
    const history = w.atrium('hooks', 'runs', w.ws, '--json').json as { runs: Array<{ id: string; exitCode: number | null }> };
    expect(history.runs.filter((r) => r.id === later.id && r.exitCode === 0)).toHaveLength(3);
  }, 180_000);
  it('Ctrl+C while a prompt command waits for its Stop hook kills the hook, records it as interrupted and exits 130', async () => {
    const w = cliWorld({ '.claude/settings.json': hookSettings({ Stop: [{ hooks: [commandHook('sleep 30; touch "$CLAUDE_PROJECT_DIR/late"')] }] }) }, SCENARIO);
    const listed = w.atrium('hooks', 'list', w.ws, '--json').json as { hooks: Array<{ id: string }> };
    expect(w.atrium('hooks', 'approve', w.ws, listed.hooks[0].id).status).toBe(0);
    const created = w.atrium('session', 'new', w.ws, '--agent-command', w.agent, '--json');
    const id = (result(created).session as { id: string }).id;

    const cli = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'src/main/cli/entry.ts'), 'session', 'prompt', id, 'hello', '--data-dir', w.dataDir], {
      cwd: repoRoot,
      env: { ...process.env, ...w.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(cli);
    let out = '';
    cli.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => cli.once('exit', (code) => resolve(code)));
    await waitFor(() => out.includes('[stop] end_turn'), 'the turn to end', 60_000);
    // the command waits for the Stop hook (30 s); the user interrupts it
    await new Promise((r) => setTimeout(r, 1_000));
    cli.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(out).toContain(`[hook] Stop ${listed.hooks[0].id}  exit -`);
    expect(fs.existsSync(path.join(w.ws, 'late'))).toBe(false);
    const history = w.atrium('hooks', 'runs', w.ws, '--json').json as { runs: Array<{ id: string; message: string | null }> };
    expect(history.runs.find((r) => r.id === listed.hooks[0].id)?.message).toBe('interrupted: Ctrl+C in the terminal that waited for it; the process tree was killed');
  }, 180_000);
});

const worlds = policyWorlds();

describe('closing the engine while a hook still runs', () => {
  it('waits its grace period, then kills the hook and records it as interrupted (never dropped silently)', async () => {
    const world = worlds.create({}, { '.claude/settings.json': hookSettings({ Stop: [{ hooks: [commandHook('sleep 30; touch "$CLAUDE_PROJECT_DIR/late"')] }] }) });
    const engine = world.openTrusted();
    const listing = await engine.hooks.list({ path: world.ws });
    await engine.hooks.approve({ path: world.ws }, listing.hooks.map((h) => ({ id: h.id, digest: h.digest })));
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    expect(await promptAndWait(engine, s.id, 'hello')).toBe('end_turn');

    const started = Date.now();
    await engine.policy.close(300);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(fs.existsSync(path.join(world.ws, 'late'))).toBe(false);
    const run = engine.policy.view(s.id).hooks.runs.find((r) => r.event === 'Stop')!;
    expect(run.results[0].message).toBe('interrupted: Atrium closed before the hook finished; the process tree was killed');
  }, 60_000);

  it('the hook service waits for async handlers started in the background and records their results; one still running after the grace period is killed and recorded as interrupted', async () => {
    const world = worlds.create(
      {},
      {
        '.claude/settings.json': hookSettings({
          Notification: [{ hooks: [commandHook('sleep 0.3; echo quick >> "$CLAUDE_PROJECT_DIR/quick.log"', { async: true }), commandHook('sleep 30; touch "$CLAUDE_PROJECT_DIR/late"', { async: true })] }],
        }),
      },
    );
    const engine = world.openTrusted();
    const listing = await engine.hooks.list({ path: world.ws });
    await engine.hooks.approve({ path: world.ws }, listing.hooks.map((h) => ({ id: h.id, digest: h.digest })));
    const quick = listing.hooks.find((h) => h.command!.includes('quick.log'))!;
    const slow = listing.hooks.find((h) => h.command!.includes('late'))!;
    const outcome = await engine.hooks.run('Notification', { hook_event_name: 'Notification', message: 'hi' }, { path: world.ws });
    // not awaited by the event (Claude Code `async: true`)
    expect(outcome.results.map((r) => r.exitCode)).toEqual([null, null]);

    const started = Date.now();
    await engine.hooks.close(1_500);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(fs.readFileSync(path.join(world.ws, 'quick.log'), 'utf8')).toBe('quick\n');
    expect(fs.existsSync(path.join(world.ws, 'late'))).toBe(false);
    const runs = engine.hooks.runs({ path: world.ws }, undefined);
    expect(runs.find((r) => r.id === quick.id && r.exitCode === 0)).toBeDefined();
    expect(runs.find((r) => r.id === slow.id)?.message).toBe('interrupted: Atrium closed before the hook finished; the process tree was killed');
  }, 60_000);
});
