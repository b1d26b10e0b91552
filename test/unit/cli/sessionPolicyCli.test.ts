import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeServerInfo } from '../../../src/main/cli/remote';
import { createDispatcher } from '../../../src/main/core/dispatcher';
import { startServer, type RunningServer } from '../../../src/main/server/server';
import { runCli } from '../../support/cli';
import { repoRoot } from '../../support/corpus';
import { approveHooks, commandHook, hookSettings, policyWorld, type PolicyWorld } from '../../support/policy';
import { scriptedAgentCommand, waitFor } from '../../support/sessions';

/** CLI: `atrium session new --worktree` and `atrium session pickup CODE` against a running Atrium. */

let world: PolicyWorld | null = null;
let server: RunningServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  await world?.closeAll();
  world = null;
});

/** Runs the CLI without blocking this process (the server under test lives here). */
function cliAsync(args: string[], stdin?: (child: ReturnType<typeof spawn>) => void, env: NodeJS.ProcessEnv = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'src/main/cli/entry.ts'), ...args], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    if (stdin) stdin(child);
    else child.stdin.end();
  });
}

describe('atrium session', () => {
  it('session new records the hook runs that end after the turn (Stop, PostToolUse) before the CLI closes its database', async () => {
    world = policyWorld({ turns: [{ match: '^write', steps: [{ write: { path: '{{cwd}}/out.txt', content: 'x\n' } }] }] });
    // slow on purpose: the CLI prints the turn's end and closes while these still run
    world.write({
      '.claude/hooks/stop.sh': '#!/bin/sh\ncat > /dev/null\nsleep 1\ntouch "$CLAUDE_PROJECT_DIR/stopped"\n',
      '.claude/hooks/post.sh': '#!/bin/sh\ncat > /dev/null\nsleep 1\n',
      '.claude/settings.json': hookSettings({ Stop: [{ hooks: [commandHook('sh .claude/hooks/stop.sh')] }], PostToolUse: [{ matcher: 'Write', hooks: [commandHook('sh .claude/hooks/post.sh')] }] }),
    });
    const engine = world.openTrusted();
    await approveHooks(engine, world.ws, ['stop.sh', 'post.sh']);
    await world.closeAll();

    const run = await cliAsync(['session', 'new', world.ws, '--agent', 'scripted', '--prompt', 'write it', '--on-permission', 'allow-once', '--data-dir', world.dataDir], undefined, { HOME: world.home });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/failed|not open/i);
    expect(fs.existsSync(path.join(world.ws, 'stopped'))).toBe(true);
    const runs = runCli(['hooks', 'runs', world.ws, '--json', '--data-dir', world.dataDir], { HOME: world.home });
    expect(runs.status, runs.stderr).toBe(0);
    const events = (JSON.parse(runs.stdout) as { runs: Array<{ event: string }> }).runs.map((r) => r.event).sort();
    expect(events).toEqual(['PostToolUse', 'Stop']);
  }, 60_000);

  it('session new --worktree runs the agent in a new worktree of the folder', () => {
    world = policyWorld({});
    world.write({ 'README.md': 'hi\n' });
    world.gitInit();
    const { command, args } = scriptedAgentCommand(world.base, {}, 'cli');
    const cmdline = [command, ...args].map((a) => `'${a}'`).join(' ');
    const run = runCli(['session', 'new', world.ws, '--agent-command', cmdline, '--agent', 'fixture', '--worktree', '--title', 'cli work', '--prompt', 'hello', '--json', '--data-dir', world.dataDir]);
    expect(run.status, run.stderr).toBe(0);
    const last = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { session: { id: string; cwd: string }; stopReason: string };
    expect(last.stopReason).toBe('end_turn');
    expect(last.session.cwd).toBe(path.join(fs.realpathSync(world.dataDir), 'worktrees', last.session.id));
    expect(fs.readFileSync(path.join(last.session.cwd, 'README.md'), 'utf8')).toBe('hi\n');
    const bad = runCli(['session', 'new', world.base, '--agent', 'fixture', '--worktree', '--data-dir', world.dataDir]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('not inside a git checkout');
  }, 60_000);

  it('session pickup CODE attaches the terminal to a running Atrium session once, follows it and sends prompts', async () => {
    world = policyWorld({});
    const engine = world.open();
    const dispatcher = createDispatcher(engine, {
      'app.info': () => {
        throw new Error('unused');
      },
      'app.pickFolder': () => {
        throw new Error('unused');
      },
    });
    const renderer = path.join(world.base, 'renderer');
    fs.mkdirSync(renderer);
    server = await startServer({ engine, dispatcher, rendererDir: renderer });
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });

    // explicit --url with the token in the environment, attach only
    const first = engine.policy.issueHandover(s.id);
    const attached = await cliAsync(['session', 'pickup', first.code, '--url', server.origin, '--no-follow', '--json', '--data-dir', world.dataDir], undefined, { ATRIUM_TOKEN: server.token });
    expect(attached.status, attached.stderr).toBe(0);
    const out = JSON.parse(attached.stdout) as { session: { id: string }; surface: { kind: string; via: string } };
    expect(out.session.id).toBe(s.id);
    expect(out.surface).toMatchObject({ kind: 'cli', via: 'pickup' });
    const again = await cliAsync(['session', 'pickup', first.code, '--url', server.origin, '--no-follow', '--data-dir', world.dataDir], undefined, { ATRIUM_TOKEN: server.token });
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('is not a valid handover code');
    // the attach-only terminal exited: its connection closed, so the server detached its surface
    await waitFor(() => engine.policy.view(s.id).surfaces.length === 0, 'the exited terminal to be detached');

    // discovery through the data directory, following: a prompt typed in the terminal runs, output comes back
    writeServerInfo(world.dataDir, { origin: server.origin, token: server.token, pid: process.pid, startedAt: new Date().toISOString() });
    const second = engine.policy.issueHandover(s.id);
    const followed = await cliAsync(['session', 'pickup', second.code, '--on-permission', 'reject', '--data-dir', world.dataDir], (child) => {
      let seen = '';
      child.stdout!.on('data', (d: Buffer) => (seen += d.toString()));
      void (async () => {
        await waitFor(() => engine.policy.view(s.id).surfaces.length === 1, 'the terminal to attach');
        child.stdin!.write('hello from the terminal\n');
        // the terminal printed the agent's answer it received over the WebSocket
        await waitFor(() => seen.includes('echo: hello from the terminal'), 'the answer in the terminal');
        child.stdin!.end();
      })().catch(() => child.kill());
    });
    expect(followed.status, followed.stderr).toBe(0);
    expect(followed.stdout).toContain('echo: hello from the terminal');
    // the following terminal detached itself when its stdin ended
    await waitFor(() => engine.policy.view(s.id).surfaces.length === 0, 'the following terminal to detach');
  }, 90_000);

  it('session pickup answers requests pending for any surface, leaves ones addressed to a tab, and answers them once re-targeted to it', async () => {
    world = policyWorld({ turns: [{ match: 'ask', steps: [{ permission: { title: 'Write notes', kind: 'edit' } }] }] });
    const engine = world.open();
    const dispatcher = createDispatcher(engine, {
      'app.info': () => {
        throw new Error('unused');
      },
      'app.pickFolder': () => {
        throw new Error('unused');
      },
    });
    const renderer = path.join(world.base, 'renderer');
    fs.mkdirSync(renderer);
    server = await startServer({ engine, dispatcher, rendererDir: renderer });
    writeServerInfo(world.dataDir, { origin: server.origin, token: server.token, pid: process.pid, startedAt: new Date().toISOString() });
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    const pending = () => engine.sessions.show(s.id).permissions;
    const answered = (requestId: string) => {
      const item = engine.sessions.transcript(s.id, { limit: 1000 }).items.find((i) => i.kind === 'permission' && i.requestId === requestId);
      return item?.kind === 'permission' ? item : null;
    };

    // asked while nothing is attached (any surface): the terminal answers it when it picks the session up
    const first = engine.sessions.prompt(s.id, 'ask first');
    await waitFor(() => pending().length === 1, 'the first request');
    expect(pending()[0].surfaceId).toBeNull();
    const firstId = pending()[0].requestId;
    const code = engine.policy.issueHandover(s.id);
    let cliSurface = '';
    const followed = cliAsync(['session', 'pickup', code.code, '--on-permission', 'allow-once', '--data-dir', world.dataDir], (child) => {
      let seen = '';
      child.stdout!.on('data', (d: Buffer) => (seen += d.toString()));
      void (async () => {
        await waitFor(() => answered(firstId)?.state === 'selected', 'the terminal to answer the pending request');
        expect(await engine.sessions.waitForTurn(s.id, first.promptId)).toBe('end_turn');
        cliSurface = engine.policy.view(s.id).surfaces.find((x) => x.kind === 'cli')!.surfaceId;

        // a browser tab attaches and prompts: its request is not the terminal's to answer
        await dispatcher.call('sessions.attach', { sessionId: s.id, surfaceId: 'browser-b', kind: 'browser', label: 'Browser tab B' });
        const second = engine.sessions.prompt(s.id, 'ask second', 'browser-b');
        await waitFor(() => pending().length === 1, 'the second request');
        const secondId = pending()[0].requestId;
        expect(pending()[0].surfaceId).toBe('browser-b');
        await waitFor(() => seen.includes('waiting for an answer on Browser tab B'), 'the terminal to say where the request waits');
        await new Promise((r) => setTimeout(r, 300));
        expect(answered(secondId)?.state).toBe('pending');

        // the tab closes: the request moves to the terminal, which answers it
        await dispatcher.call('sessions.detach', { sessionId: s.id, surfaceId: 'browser-b' });
        await waitFor(() => answered(secondId)?.state === 'selected', 'the terminal to answer the re-targeted request');
        expect(await engine.sessions.waitForTurn(s.id, second.promptId)).toBe('end_turn');
        child.stdin!.end();
      })().catch((error: unknown) => {
        process.stderr.write(`${String(error)}\n`);
        child.kill();
      });
    });
    const run = await followed;
    expect(run.status, run.stderr).toBe(0);
    expect(cliSurface).toMatch(/^cli-/);
    const items = engine.sessions.transcript(s.id, { limit: 1000 }).items.filter((i) => i.kind === 'permission');
    expect(items.map((i) => (i.kind === 'permission' ? [i.state, i.optionId, i.answeredBy, i.surfaceId] : null))).toEqual([
      ['selected', 'allow', 'policy', null],
      ['selected', 'allow', 'policy', cliSurface],
    ]);
    expect(run.stdout.match(/\[permission\] Write notes: allow \(--on-permission allow-once\)/g)).toHaveLength(2);
  }, 90_000);
});
