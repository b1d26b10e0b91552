import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { RemoteAtrium } from '../../../src/main/cli/remote';
import { DATABASE_FILE } from '../../../src/main/core/store/database';
import { INSTALL_MARKER, installDir } from '../../../src/main/core/sessions/installer';
import { AGENT_PRESETS } from '../../../src/main/core/sessions/presets';
import type { TranscriptItem } from '../../../src/shared/contract';
import { AtriumError } from '../../../src/shared/errors';
import { runCli, spawnCli, startServe, stopSpawned, type Background } from '../../support/cli';
import { repoRoot } from '../../support/corpus';
import { lastUserText, startFakeAnthropic, type FakeAnthropic } from '../../support/fakeAnthropic';
import { agentTestEnv } from '../../support/policy';
import { isAlive, sessionEngine, waitFor, type Scenario } from '../../support/sessions';
import { tempDir } from '../../support/tempDir';

/**
 * Two real Atrium processes on one data directory: a session command from a terminal on a session
 * `atrium serve` hosts goes to that server (one agent process, output printed like a local run,
 * nothing lost or duplicated), and one on a session another terminal hosts is refused with where
 * it lives (and so is the server's request for it).
 */

const clients: RemoteAtrium[] = [];
let fake: FakeAnthropic | null = null;
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await stopSpawned();
  await fake?.close();
  fake = null;
});

/** `atrium serve` on `dataDir` (random port), once its server.json is written; a client connected to it. */
async function serveWithClient(dataDir: string, env: NodeJS.ProcessEnv = process.env): Promise<{ serve: Background; client: RemoteAtrium; origin: string }> {
  const { serve, info } = await startServe(dataDir, env);
  const client = await RemoteAtrium.connect(info.origin, info.token);
  clients.push(client);
  return { serve, client, origin: info.origin };
}

/** The session's journal and transcript as stored, read straight from SQLite (read-only). */
function stored(dataDir: string, sessionId: string) {
  const db = new Database(path.join(dataDir, DATABASE_FILE), { readonly: true, fileMustExist: true });
  try {
    const events = db.prepare('SELECT kind, data FROM session_events WHERE session_id = ? ORDER BY seq').all(sessionId) as Array<{ kind: string; data: string }>;
    const items = (db.prepare('SELECT data FROM session_items WHERE session_id = ? ORDER BY item').all(sessionId) as Array<{ data: string }>).map((r) => JSON.parse(r.data) as TranscriptItem);
    const row = db.prepare('SELECT title, state FROM sessions WHERE id = ?').get(sessionId) as { title: string | null; state: string };
    return {
      row,
      items,
      /** pids of the agent processes started for the session, in order */
      agentPids: events.filter((e) => e.kind === 'agent_started').map((e) => (JSON.parse(e.data) as { pid: number | null }).pid),
      turnEnds: events.filter((e) => e.kind === 'turn_end').map((e) => (JSON.parse(e.data) as { stopReason: string }).stopReason),
    };
  } finally {
    db.close();
  }
}

const messages = (items: TranscriptItem[]) => items.filter((i) => i.kind === 'agent_message').map((i) => (i.kind === 'agent_message' ? i.text : ''));

/** A workspace, a data dir with the scripted agent defined as `scripted` (by a short-lived engine, closed before the test's processes start). */
async function scriptedWorld(scenario: Scenario) {
  const base = tempDir('atrium-hosts-');
  const ws = path.join(base, 'ws');
  fs.mkdirSync(ws);
  const dataDir = path.join(base, 'data');
  const setup = sessionEngine(dataDir, base, scenario);
  await setup.close();
  return { base, ws, dataDir };
}

const TICKS = 200;
const expectedTicks = Array.from({ length: TICKS }, (_, i) => `tick${i} `).join('');

describe('atrium serve hosts a session; terminal commands go to it', () => {
  it('session prompt is forwarded (printed, one agent, nothing lost or duplicated); rename and close too', async () => {
    const { ws, dataDir } = await scriptedWorld({
      turns: [
        { match: '^long', steps: [{ streamUntilCancelled: { intervalMs: 10, text: 'tick', maxChunks: TICKS } }] },
        { match: 'question', steps: [{ permission: { title: 'Write notes', kind: 'edit' } }, { text: 'the answer is 42', chunks: 4 }] },
      ],
    });
    const { serve, client } = await serveWithClient(dataDir);
    const pushed: Array<{ event: string; payload: unknown }> = [];
    client.subscribe((event, payload) => pushed.push({ event, payload }));

    const { session } = await client.call('sessions.new', { cwd: ws, agentId: 'scripted', prompt: 'long run' });
    const streamingText = () => pushed.some((e) => e.event === 'sessionEvent' && JSON.stringify(e.payload).includes('tick5 '));
    await waitFor(streamingText, `the served session to stream (${serve.stderr()})`, 60_000);

    // a terminal prompts the session while serve streams it: queued there, followed here
    const cli = spawnCli(['session', 'prompt', session.id, 'a question', '--data-dir', dataDir, '--on-permission', 'allow-once']);
    const { status } = await cli.exited;
    expect(status, cli.stderr()).toBe(0);
    expect(cli.stderr()).toContain('runs in the Atrium at');
    expect(cli.stdout()).toContain('[permission] Write notes: allow (--on-permission allow-once)');
    expect(cli.stdout()).toContain('the answer is 42');
    expect(cli.stdout()).toContain('Stop: end_turn');
    expect(cli.stderr()).not.toMatch(/constraint|SQLITE/i);

    let db = stored(dataDir, session.id);
    // exactly one agent process (serve's), both turns ended normally
    expect(db.agentPids).toHaveLength(1);
    expect(db.turnEnds).toEqual(['end_turn', 'end_turn']);
    // the long turn's stream is complete and once; the forwarded answer once
    expect(messages(db.items).join('')).toBe(`${expectedTicks}permission: allowthe answer is 42`);
    // this terminal's policy answered its turn's request, at the host
    expect(db.items.filter((i) => i.kind === 'permission').map((i) => (i.kind === 'permission' ? [i.state, i.optionId, i.answeredBy] : []))).toEqual([['selected', 'allow', 'policy']]);
    expect(db.items.filter((i) => i.kind === 'user_message').map((i) => (i.kind === 'user_message' ? [i.text, i.status] : []))).toEqual([
      ['long run', 'sent'],
      ['a question', 'sent'],
    ]);

    // rename and close from terminals run at the host too (serve pushes them to its clients)
    const renamed = runCli(['session', 'rename', session.id, 'Named from a terminal', '--data-dir', dataDir, '--json']);
    expect(renamed.status, renamed.stderr).toBe(0);
    expect((renamed.json as { session: { title: string } }).session.title).toBe('Named from a terminal');
    await waitFor(() => pushed.some((e) => e.event === 'sessionUpdated' && (e.payload as { session: { title: string | null } }).session.title === 'Named from a terminal'), 'serve to push the new title');

    const agentPid = db.agentPids[0]!;
    expect(isAlive(agentPid)).toBe(true);
    const closed = runCli(['session', 'close', session.id, '--data-dir', dataDir, '--json']);
    expect(closed.status, closed.stderr).toBe(0);
    expect((closed.json as { session: { live: boolean } }).session.live).toBe(false);
    await waitFor(() => !isAlive(agentPid), "serve's agent process to stop after close");

    db = stored(dataDir, session.id);
    expect(db.row.title).toBe('Named from a terminal');
    expect(db.agentPids).toHaveLength(1);
    expect(serve.stderr()).not.toMatch(/constraint|SQLITE|uncaught/i);
  }, 180_000);

  it('Ctrl+C on a forwarded prompt cancels its turn at the host, which keeps the session and its agent', async () => {
    const { ws, dataDir } = await scriptedWorld({ turns: [{ match: '^long', steps: [{ streamUntilCancelled: { intervalMs: 10, text: 'tick' } }] }] });
    const { serve, client } = await serveWithClient(dataDir);
    const { session } = await client.call('sessions.new', { cwd: ws, agentId: 'scripted' });
    const started = await client.call('sessions.resume', { sessionId: session.id });
    expect(started.session.live, started.session.lastError ?? serve.stderr()).toBe(true);

    const cli = spawnCli(['session', 'prompt', session.id, 'long run', '--data-dir', dataDir, '--json']);
    await waitFor(() => cli.lines().some((l) => l.event === 'sessionEvent' && JSON.stringify(l).includes('tick3 ')), `the forwarded turn to stream here (${cli.stderr()})`, 60_000);
    cli.child.kill('SIGINT');
    const { status } = await cli.exited;
    expect(status, cli.stderr()).toBe(130);
    expect(cli.stderr()).toContain('Cancelling the turn');
    // the final JSON line is the session and the stop reason, as a local run prints it
    const last = cli.lines().at(-1) as { session: { id: string; live: boolean }; stopReason: string };
    expect(last).toMatchObject({ session: { id: session.id, live: true }, stopReason: 'cancelled' });

    const db = stored(dataDir, session.id);
    expect(db.agentPids).toHaveLength(1);
    expect(isAlive(db.agentPids[0]!)).toBe(true);
    expect(db.turnEnds).toEqual(['cancelled']);
    const ticks = [...messages(db.items).join('').matchAll(/tick(\d+) /g)].map((m) => Number(m[1]));
    expect(ticks.length).toBeGreaterThan(3);
    expect(ticks).toEqual(Array.from({ length: ticks.length }, (_, i) => i));
    expect(serve.stderr()).not.toMatch(/constraint|SQLITE|uncaught/i);
  }, 180_000);
});

describe('a terminal hosts a session; other processes are refused', () => {
  it('a second terminal is told where the session runs; serve answers SESSION_HOSTED_ELSEWHERE; the host goes on', async () => {
    const { ws, dataDir } = await scriptedWorld({ turns: [{ match: '^long', steps: [{ streamUntilCancelled: { intervalMs: 10, text: 'tick' } }] }] });
    const host = spawnCli(['session', 'new', ws, '--agent', 'scripted', '--prompt', 'long run', '--data-dir', dataDir, '--json', '--on-permission', 'reject']);
    const first = await waitFor(() => host.lines().find((l) => typeof l.sessionId === 'string' && JSON.stringify(l).includes('tick3 ')), `the terminal's session to stream (${host.stderr()})`, 60_000);
    const sessionId = first.sessionId as string;

    for (const args of [
      ['prompt', sessionId, 'hello there'],
      ['rename', sessionId, 'Not here'],
      ['resume', sessionId],
      ['close', sessionId],
    ]) {
      const refused = runCli(['session', ...args, '--data-dir', dataDir]);
      expect(refused.status, `${args[0]}: ${refused.stderr}`).toBe(1);
      expect(refused.stderr).toContain(`Session ${sessionId} is running in a terminal (an atrium session command, pid ${host.child.pid}); wait for it to finish or stop it there`);
    }
    // the JSON form carries the same message
    const refusedJson = runCli(['session', 'prompt', sessionId, 'hello there', '--data-dir', dataDir, '--json']);
    expect(refusedJson.status).toBe(1);
    expect((refusedJson.json as { error: { code: string; message: string } }).error).toMatchObject({ code: 'SESSION_HOSTED_ELSEWHERE', message: expect.stringContaining('is running in a terminal') });

    // serve on the same data dir: its UI's requests for the session are refused with the code the UI shows
    const { serve, client } = await serveWithClient(dataDir);
    const attempt = await client.call('sessions.prompt', { sessionId, text: 'from the browser' }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(attempt).toBeInstanceOf(AtriumError);
    expect((attempt as AtriumError).code).toBe('SESSION_HOSTED_ELSEWHERE');
    expect((attempt as AtriumError).message).toContain(String(host.child.pid));

    // the host kept streaming through all of it, then stops cleanly on Ctrl+C
    const before = host.stdout().length;
    await waitFor(() => host.stdout().length > before + 200, 'the terminal to keep streaming');
    host.child.kill('SIGINT');
    const { status } = await host.exited;
    expect(status, host.stderr()).toBe(130); // interrupted with Ctrl+C
    expect(host.stderr()).toContain('Cancelling the turn');
    expect(host.stderr()).not.toMatch(/constraint|SQLITE|uncaught/i);

    const db = stored(dataDir, sessionId);
    expect(db.agentPids).toHaveLength(1);
    expect(db.turnEnds).toEqual(['cancelled']);
    expect(db.items.filter((i) => i.kind === 'user_message').map((i) => (i.kind === 'user_message' ? i.text : ''))).toEqual(['long run']);
    // the stream is whole and in order: tick0 … tickN, each once
    const text = messages(db.items).join('');
    const ticks = [...text.matchAll(/tick(\d+) /g)].map((m) => Number(m[1]));
    expect(ticks.length).toBeGreaterThan(3);
    expect(ticks).toEqual(Array.from({ length: ticks.length }, (_, i) => i));
    expect(serve.stderr()).not.toMatch(/constraint|SQLITE|uncaught/i);
  }, 180_000);
});

const claude = AGENT_PRESETS.find((p) => p.id === 'claude')!;
const CLAUDE_ENTRY = path.join(repoRoot, 'node_modules', claude.package, 'dist/index.js');
const claudeInstalled = fs.existsSync(CLAUDE_ENTRY);
if (!claudeInstalled) console.warn(`[hostRouting] skipping the Claude adapter test: ${CLAUDE_ENTRY} is not installed (npm install the devDependencies).`);

describe('the real Claude adapter hosted by atrium serve', () => {
  it.skipIf(!claudeInstalled)('a terminal prompt is forwarded: one adapter process, the answer streamed and persisted once', async () => {
    const base = tempDir('atrium-hosts-claude-');
    const home = path.join(base, 'home');
    const ws = path.join(base, 'ws');
    const dataDir = path.join(base, 'data');
    fs.mkdirSync(home);
    fs.mkdirSync(ws);
    const answer = `Forwarded answer from the fake model: ${Array.from({ length: 24 }, (_, i) => `word${i}`).join(' ')} the end.`;
    // the forwarded answer comes a word at a time and stops after its first words until the terminal printed them
    let partPrinted!: () => void;
    const printed = new Promise<void>((resolve) => (partPrinted = resolve));
    fake = await startFakeAnthropic((req) => {
      const text = lastUserText(req);
      if (text.includes('<session>')) return { text: 'Fake title' };
      return /from a terminal/.test(text) ? { text: answer, paceMs: 40, hold: { afterWords: 8, until: Promise.race([printed, new Promise((r) => setTimeout(r, 60_000).unref())]) } } : { text: 'Warm-up reply.' };
    });
    fs.mkdirSync(installDir(dataDir, claude), { recursive: true });
    fs.writeFileSync(
      path.join(installDir(dataDir, claude), INSTALL_MARKER),
      JSON.stringify({ id: 'claude', package: claude.package, version: claude.version, entry: CLAUDE_ENTRY, installedAt: new Date().toISOString() }),
    );
    // the machine's own Claude settings never reach the adapter; HOME is a temp dir (Claude keeps sessions under ~/.claude)
    const env = agentTestEnv(/^(ANTHROPIC_|CLAUDE)/, { HOME: home, IS_SANDBOX: '1', ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'sk-ant-fake', DISABLE_AUTOUPDATER: '1' });

    const { serve, client } = await serveWithClient(dataDir, env);
    const { session } = await client.call('sessions.new', { cwd: ws, agentId: 'claude' });
    const started = await client.call('sessions.resume', { sessionId: session.id });
    expect(started.session.state, started.session.lastError ?? serve.stderr()).not.toBe('failed');

    const cli = spawnCli(['session', 'prompt', session.id, 'say hello from a terminal', '--data-dir', dataDir, '--on-permission', 'allow-once'], env);
    // seen here while the answer was still coming: its start printed, not yet its end
    let sawPart = false;
    cli.child.stdout!.on('data', () => {
      const out = cli.stdout();
      if (out.includes('Forwarded answer') && !out.includes('the end.')) {
        sawPart = true;
        partPrinted();
      }
    });
    const { status } = await cli.exited;
    expect(sawPart).toBe(true);
    expect(status, cli.stderr()).toBe(0);
    expect(cli.stderr()).toContain('runs in the Atrium at');
    expect(cli.stdout()).toContain(answer);
    expect(cli.stdout()).toContain('Stop: end_turn');

    const db = stored(dataDir, session.id);
    expect(db.agentPids).toHaveLength(1);
    expect(db.turnEnds).toEqual(['end_turn']);
    expect(messages(db.items).filter((t) => t.includes(answer))).toHaveLength(1);
    expect(messages(db.items).join('').split(answer)).toHaveLength(2);
    expect(serve.stderr()).not.toMatch(/constraint|SQLITE|uncaught/i);
  }, 180_000);
});
