import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Engine } from '../../../src/main/core/engine';
import { claudeWorld, type ClaudeWorld } from '../../support/claude';
import { spawnCli, startServe, stopSpawned, type Background } from '../../support/cli';
import { lastUserText } from '../../support/fakeAnthropic';
import { agentTestEnv } from '../../support/policy';
import { isAlive, scriptedAgentCommand, sessionEngine, waitFor } from '../../support/sessions';
import { tempDir } from '../../support/tempDir';

// SIGKILL, not SIGTERM: after a failed test, cleanup need not wait for a streaming host to cancel its turn and shut down
afterEach(() => stopSpawned('SIGKILL'));

/** A real Atrium process (the CLI from source, stdin /dev/null), its output collected as it runs; `env` replaces the environment. */
function atrium(args: string[], env?: Record<string, string>): Background {
  return spawnCli(args, env ?? process.env, { stdin: 'ignore' });
}

/** Runs a short command to its end. */
async function run(args: string[], env?: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const p = atrium(args, env);
  const { status } = await p.exited;
  return { code: status, stdout: p.stdout(), stderr: p.stderr() };
}

interface World {
  ws: string;
  dataDir: string;
  cmdline: string;
}

/** A workspace, a data dir and the scripted agent streaming `chunks` ticks for a prompt matching "long". */
function world(chunks: number): World {
  const base = tempDir('atrium-two-');
  const ws = path.join(base, 'ws');
  fs.mkdirSync(ws);
  const dataDir = path.join(base, 'data');
  const { command, args } = scriptedAgentCommand(base, {
    capabilities: { loadSession: true },
    turns: [{ match: 'long', steps: [{ streamUntilCancelled: { intervalMs: 8, text: 'tick', maxChunks: chunks } }, { stop: 'end_turn' }] }],
  });
  return { ws, dataDir, cmdline: [command, ...args].map((a) => `'${a}'`).join(' ') };
}

/** Opens the data dir's database read-only (the test never writes unless it means to). */
function openDb(dataDir: string, readonly = true): Database.Database {
  return new Database(path.join(dataDir, 'atrium.db'), { readonly, fileMustExist: true });
}

function dbFile(dataDir: string): string {
  return path.join(dataDir, 'atrium.db');
}

interface Facts {
  state: string;
  lastSeq: number;
  owner: string | null;
  seqs: number[];
  kinds: string[];
  agentPids: number[];
  /** `foreign_write` notices: the host found another process's events in its log. */
  foreignWrites: number;
  text: string;
}

function facts(dataDir: string, sessionId: string): Facts {
  const db = openDb(dataDir);
  try {
    const row = db.prepare('SELECT state, last_seq, owner_json FROM sessions WHERE id = ?').get(sessionId) as { state: string; last_seq: number; owner_json: string | null };
    const events = db.prepare('SELECT seq, kind, data FROM session_events WHERE session_id = ? ORDER BY seq').all(sessionId) as Array<{ seq: number; kind: string; data: string }>;
    const messages = db.prepare("SELECT data FROM session_items WHERE session_id = ? AND kind = 'agent_message' ORDER BY item").all(sessionId) as Array<{ data: string }>;
    return {
      state: row.state,
      lastSeq: row.last_seq,
      owner: row.owner_json,
      seqs: events.map((e) => e.seq),
      kinds: events.map((e) => e.kind),
      agentPids: events.filter((e) => e.kind === 'agent_started').map((e) => (JSON.parse(e.data) as { pid: number }).pid),
      foreignWrites: events.filter((e) => e.kind === 'policy_notice' && (JSON.parse(e.data) as { code: string }).code === 'foreign_write').length,
      text: messages.map((m) => (JSON.parse(m.data) as { text: string }).text).join(''),
    };
  } finally {
    db.close();
  }
}

/** The id of the one session in the data dir once it is busy streaming (read from the file directly). */
async function busySession(dataDir: string, what: () => string): Promise<string> {
  return waitFor(() => {
    if (!fs.existsSync(dbFile(dataDir))) return null;
    const db = openDb(dataDir);
    try {
      const row = db.prepare("SELECT id FROM sessions WHERE state = 'busy' AND last_seq > 20").get() as { id: string } | undefined;
      return row?.id ?? null;
    } catch {
      return null; // schema not there yet
    } finally {
      db.close();
    }
  }, `a busy session (${what()})`, 60_000);
}

const ticks = (n: number) => Array.from({ length: n }, (_, i) => `tick${i} `).join('');
const noInternalErrors = (stderr: string) => {
  expect(stderr).not.toMatch(/constraint|SQLITE_|UNIQUE|Internal error|\n\s+at /);
};

describe('two real Atrium processes on one data dir', () => {
  it('CLI + CLI: read-only commands from a second process leave a streaming session alone; a second prompt is refused', async () => {
    const w = world(3000);
    const host = atrium(['session', 'new', w.ws, '--agent-command', w.cmdline, '--agent', 'scripted', '--prompt', 'long run', '--data-dir', w.dataDir]);
    const id = await busySession(w.dataDir, host.stderr);

    const workspaces = await run(['workspace', 'list', '--json', '--data-dir', w.dataDir]);
    expect(workspaces.code, workspaces.stderr).toBe(0);
    const list = await run(['session', 'list', '--json', '--data-dir', w.dataDir]);
    expect(list.code, list.stderr).toBe(0);
    expect((JSON.parse(list.stdout) as { sessions: Array<{ id: string; state: string }> }).sessions).toEqual([expect.objectContaining({ id, state: 'busy' })]);
    const shown = await run(['session', 'show', id, '--json', '--data-dir', w.dataDir]);
    expect(shown.code, shown.stderr).toBe(0);
    expect((JSON.parse(shown.stdout) as { session: { state: string } }).session.state).toBe('busy');
    for (const r of [workspaces, list, shown]) noInternalErrors(r.stderr);

    // a write from the second process is refused, naming where the session runs
    const prompt = await run(['session', 'prompt', id, 'second agent?', '--data-dir', w.dataDir]);
    expect(prompt.code).toBe(1);
    expect(prompt.stderr).toContain(`is running in a terminal (an atrium session command, pid ${host.child.pid})`);
    const rename = await run(['session', 'rename', id, 'renamed', '--json', '--data-dir', w.dataDir]);
    expect(rename.code).toBe(1);
    expect((JSON.parse(rename.stdout) as { error: { code: string } }).error.code).toBe('SESSION_HOSTED_ELSEWHERE');

    const during = facts(w.dataDir, id);
    expect(during.state).toBe('busy');
    expect(during.kinds).not.toContain('interrupted');
    expect(during.kinds).not.toContain('title_set');

    const end = await host.exited;
    expect(end.status, host.stderr()).toBe(0);
    noInternalErrors(host.stderr());
    expect(host.stdout()).toContain('Stop: end_turn');
    const after = facts(w.dataDir, id);
    expect(after.seqs).toEqual(Array.from({ length: after.lastSeq }, (_, i) => i + 1));
    expect(after.kinds).not.toContain('interrupted');
    expect(after.foreignWrites).toBe(0);
    expect(after.text).toBe(ticks(3000));
    expect(after.agentPids).toHaveLength(1);
    expect(after.state).toBe('idle');
    expect(after.owner).toBeNull();
  }, 180_000);

  it('CLI + serve starting while the CLI streams: serve recovers nothing live; after SIGKILL of the CLI the next write recovers the session as interrupted', async () => {
    const w = world(100_000);
    const host = atrium(['session', 'new', w.ws, '--agent-command', w.cmdline, '--agent', 'scripted', '--prompt', 'long run', '--data-dir', w.dataDir]);
    const id = await busySession(w.dataDir, host.stderr);
    const rendererDir = path.join(w.dataDir, '..', 'renderer');
    fs.mkdirSync(rendererDir);
    const { serve } = await startServe(w.dataDir, process.env, { stdin: 'ignore', rendererDir });
    const atStart = facts(w.dataDir, id).lastSeq;
    // still streaming and persisting after serve's recovery ran
    await waitFor(() => facts(w.dataDir, id).lastSeq > atStart + 50, 'the CLI session to keep streaming');
    const live = facts(w.dataDir, id);
    expect(live.state).toBe('busy');
    expect(live.kinds).not.toContain('interrupted');
    expect(JSON.parse(live.owner!)).toMatchObject({ pid: host.child.pid, kind: 'cli' });

    host.child.kill('SIGKILL');
    await host.exited;
    const [agentPid] = facts(w.dataDir, id).agentPids;
    await waitFor(() => !isAlive(agentPid!), 'the killed CLI\'s agent to exit');
    const killed = facts(w.dataDir, id);
    expect(killed.seqs).toEqual(Array.from({ length: killed.lastSeq }, (_, i) => i + 1));

    // reading shows it interrupted and writes nothing
    const shown = await run(['session', 'show', id, '--json', '--data-dir', w.dataDir]);
    expect(shown.code, shown.stderr).toBe(0);
    expect((JSON.parse(shown.stdout) as { session: { state: string } }).session.state).toBe('interrupted');
    expect(facts(w.dataDir, id).lastSeq).toBe(killed.lastSeq);

    // the next write recovers it (interrupted notice) and continues with exactly one new agent
    const resumed = await run(['session', 'resume', id, '--json', '--data-dir', w.dataDir]);
    expect(resumed.code, resumed.stderr).toBe(0);
    noInternalErrors(resumed.stderr);
    const after = facts(w.dataDir, id);
    expect(after.kinds.slice(killed.seqs.length, killed.seqs.length + 2)).toEqual(['interrupted', 'state']);
    expect(after.seqs).toEqual(Array.from({ length: after.lastSeq }, (_, i) => i + 1));
    expect(after.agentPids).toHaveLength(2);
    expect(after.text.startsWith(killed.text)).toBe(true);

    serve.child.kill('SIGTERM');
    expect((await serve.exited).status).toBe(0);
    noInternalErrors(serve.stderr());
  }, 180_000);

  it('serve recovers at start only sessions whose host is gone', async () => {
    const w = world(100_000);
    const host = atrium(['session', 'new', w.ws, '--agent-command', w.cmdline, '--agent', 'scripted', '--prompt', 'long run', '--data-dir', w.dataDir]);
    const id = await busySession(w.dataDir, host.stderr);
    host.child.kill('SIGKILL');
    await host.exited;
    const [agentPid] = facts(w.dataDir, id).agentPids;
    await waitFor(() => !isAlive(agentPid!), 'the killed CLI\'s agent to exit');
    const rendererDir = path.join(w.dataDir, '..', 'renderer');
    fs.mkdirSync(rendererDir);
    const { serve } = await startServe(w.dataDir, process.env, { stdin: 'ignore', rendererDir });
    const after = facts(w.dataDir, id);
    expect(after.state).toBe('interrupted');
    expect(after.kinds.at(-2)).toBe('interrupted');
    expect(after.owner).toBeNull();
    serve.child.kill('SIGTERM');
    expect((await serve.exited).status).toBe(0);
  }, 180_000);

  it('SIGINT mid-stream, also after a foreign write, ends the CLI cleanly without a stack trace', async () => {
    const w = world(100_000);
    const host = atrium(['session', 'new', w.ws, '--agent-command', w.cmdline, '--agent', 'scripted', '--prompt', 'long run', '--data-dir', w.dataDir]);
    const id = await busySession(w.dataDir, host.stderr);
    // a foreign write (what an older Atrium's recovery did): the next seq taken, the state changed
    const db = openDb(w.dataDir, false);
    db.pragma('busy_timeout = 5000');
    db.transaction(() => {
      const { last_seq } = db.prepare('SELECT last_seq FROM sessions WHERE id = ?').get(id) as { last_seq: number };
      db.prepare('INSERT INTO session_events (session_id, seq, at, kind, data) VALUES (?, ?, ?, ?, ?)').run(id, last_seq + 1, new Date().toISOString(), 'interrupted', JSON.stringify({ reason: 'foreign' }));
      db.prepare("UPDATE sessions SET last_seq = ?, state = 'interrupted' WHERE id = ?").run(last_seq + 1, id);
    }).immediate();
    db.close();
    const foreignSeq = facts(w.dataDir, id).lastSeq;
    // the host resynchronises and keeps persisting after the foreign event
    await waitFor(() => facts(w.dataDir, id).lastSeq > foreignSeq + 20, `the host to keep writing (${host.stderr()})`);
    const mid = facts(w.dataDir, id);
    expect(mid.state).toBe('busy');
    expect(mid.foreignWrites).toBe(1);
    expect(mid.seqs).toEqual(Array.from({ length: mid.lastSeq }, (_, i) => i + 1));

    host.child.kill('SIGINT');
    const end = await host.exited;
    expect([130, 1]).toContain(end.status);
    expect(host.stderr()).toContain('Cancelling the turn');
    noInternalErrors(host.stderr());
    const after = facts(w.dataDir, id);
    expect(after.seqs).toEqual(Array.from({ length: after.lastSeq }, (_, i) => i + 1));
    expect(after.owner).toBeNull();
    expect(after.agentPids).toHaveLength(1);
  }, 180_000);

  it('SIGINT after another process took the session over stops the CLI with the reason, no stack trace', async () => {
    const w = world(100_000);
    const host = atrium(['session', 'new', w.ws, '--agent-command', w.cmdline, '--agent', 'scripted', '--prompt', 'long run', '--data-dir', w.dataDir]);
    const id = await busySession(w.dataDir, host.stderr);
    // another live host (this test process, as atrium serve) takes the session over
    const db = openDb(w.dataDir, false);
    db.pragma('busy_timeout = 5000');
    const other = { pid: process.pid, hostname: (await import('node:os')).hostname(), kind: 'serve', origin: 'http://127.0.0.1:9', startedAt: new Date().toISOString(), leaseUntil: new Date(Date.now() + 600_000).toISOString() };
    db.prepare('UPDATE sessions SET owner_json = ? WHERE id = ?').run(JSON.stringify(other), id);
    db.close();
    await waitFor(() => host.stderr().includes('atrium serve (pid'), `the host to notice (${host.stderr()})`);
    host.child.kill('SIGINT');
    const end = await host.exited;
    expect([130, 1], `${end.signal} ${host.stderr()}`).toContain(end.status);
    expect(host.stderr()).toContain(`is running in atrium serve (pid ${process.pid}) at http://127.0.0.1:9`);
    noInternalErrors(host.stderr());
    const after = facts(w.dataDir, id);
    expect(after.seqs).toEqual(Array.from({ length: after.lastSeq }, (_, i) => i + 1));
    // the taken-over session was not written to by the old host once it noticed
    expect(JSON.parse(after.owner!)).toMatchObject({ pid: process.pid, kind: 'serve' });
  }, 180_000);
});

describe('two engines on one data dir (as serve and a CLI are)', () => {
  const engines: Engine[] = [];
  afterEach(async () => {
    for (const e of engines.splice(0)) await e.close();
  });

  it('refuses writes while the other hosts the session, reads its current state, and takes over cleanly once its agent stopped', async () => {
    const base = tempDir('atrium-engines-');
    const ws = path.join(base, 'ws');
    fs.mkdirSync(ws);
    const dataDir = path.join(base, 'data');
    const scenario = { capabilities: { loadSession: true }, turns: [{ match: 'wait', steps: [{ waitForCancel: true }] }] };
    const serve = sessionEngine(dataDir, base, scenario);
    const cli = sessionEngine(dataDir, base, scenario);
    engines.push(serve, cli);
    const s = serve.sessions.create({ cwd: ws, agentId: 'scripted' });
    const first = serve.sessions.prompt(s.id, 'hello');
    expect(await serve.sessions.waitForTurn(s.id, first.promptId)).toBe('end_turn');
    // serve's agent runs (idle): the CLI may read but not write
    expect(cli.sessions.hostOf(s.id)).toMatchObject({ pid: process.pid, kind: 'cli' });
    expect(() => cli.sessions.prompt(s.id, 'no')).toThrow(expect.objectContaining({ code: 'SESSION_HOSTED_ELSEWHERE' }));
    expect(() => cli.sessions.rename(s.id, 'no')).toThrow(expect.objectContaining({ code: 'SESSION_HOSTED_ELSEWHERE' }));
    await expect(cli.sessions.closeSession(s.id)).rejects.toMatchObject({ code: 'SESSION_HOSTED_ELSEWHERE' });
    expect(cli.sessions.transcript(s.id).total).toBe(serve.sessions.transcript(s.id).total);

    // serve's agent stops: the CLI hosts the next turn, serve reads it and is refused meanwhile
    await serve.sessions.closeSession(s.id);
    expect(cli.sessions.hostOf(s.id)).toBeNull();
    const { promptId } = cli.sessions.prompt(s.id, 'wait here');
    await waitFor(() => serve.sessions.show(s.id).state === 'busy', 'the CLI turn, seen from serve');
    expect(serve.sessions.hostOf(s.id)).not.toBeNull();
    expect(() => serve.sessions.cancel(s.id)).toThrow(expect.objectContaining({ code: 'SESSION_HOSTED_ELSEWHERE' }));
    cli.sessions.cancel(s.id);
    expect(await cli.sessions.waitForTurn(s.id, promptId)).toBe('cancelled');
    await cli.sessions.closeSession(s.id);

    // serve continues from the stored row: no foreign-write notice, one log without gaps
    const again = serve.sessions.prompt(s.id, 'hello again');
    expect(await serve.sessions.waitForTurn(s.id, again.promptId)).toBe('end_turn');
    const db = serve.store.db;
    const rows = db.prepare('SELECT seq, kind, data FROM session_events WHERE session_id = ? ORDER BY seq').all(s.id) as Array<{ seq: number; kind: string; data: string }>;
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: rows.length }, (_, i) => i + 1));
    expect(rows.filter((r) => r.kind === 'policy_notice' && r.data.includes('foreign_write'))).toEqual([]);
    expect(rows.filter((r) => r.kind === 'agent_started')).toHaveLength(3);
    expect(rows.filter((r) => r.kind === 'turn_end').map((r) => (JSON.parse(r.data) as { stopReason: string }).stopReason)).toEqual(['end_turn', 'cancelled', 'end_turn']);

    // a host on another machine takes the session over while serve's agent idles: serve stops writing…
    const elsewhere = { pid: 1, hostname: 'another-machine', kind: 'app', origin: null, startedAt: new Date().toISOString(), leaseUntil: new Date(Date.now() + 600_000).toISOString() };
    db.prepare('UPDATE sessions SET owner_json = ? WHERE id = ?').run(JSON.stringify(elsewhere), s.id);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    serve.sessions.load(s.id).append({ kind: 'title_set', data: { title: 'lost' } });
    expect(serve.sessions.load(s.id).journal.haltedReason).toContain('the desktop app (pid 1 on another-machine)');
    expect(() => serve.sessions.prompt(s.id, 'no')).toThrow(expect.objectContaining({ code: 'SESSION_HOSTED_ELSEWHERE' }));
    await waitFor(() => !serve.sessions.load(s.id).busy, "serve's agent to stop");
    errors.mockRestore();
    // …and once that host is gone, serve writes again from the stored row
    db.prepare('UPDATE sessions SET owner_json = NULL WHERE id = ?').run(s.id);
    const last = serve.sessions.prompt(s.id, 'back');
    expect(await serve.sessions.waitForTurn(s.id, last.promptId)).toBe('end_turn');
    const seqs = (db.prepare('SELECT seq FROM session_events WHERE session_id = ? ORDER BY seq').all(s.id) as Array<{ seq: number }>).map((r) => r.seq);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    expect(db.prepare("SELECT count(*) AS n FROM session_events WHERE session_id = ? AND kind = 'title_set'").get(s.id)).toEqual({ n: 0 });
  }, 120_000);
});

describe('two real Atrium processes with the real Claude adapter (offline, fake Messages endpoint)', () => {
  let world: ClaudeWorld | null = null;
  afterEach(async () => {
    await world?.closeAll();
    world = null;
  });

  it('CLI + CLI: a slow Claude answer keeps streaming and persisting while another process lists, shows and is refused a prompt', async () => {
    const words = Array.from({ length: 400 }, (_, i) => `word${i}`);
    const answer = `${words.join(' ')}.`;
    // the answer stops half-way until the other process has listed, shown and been refused
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    world = await claudeWorld((req) => {
      const text = lastUserText(req);
      if (text.includes('<session>')) return { text: 'Fake title' };
      if (/long/i.test(text)) return { text: answer, paceMs: 25, hold: { afterWords: 200, until: released } };
      return { text: 'short answer' };
    });
    const w = world;
    const env = agentTestEnv(/^(ANTHROPIC_|CLAUDE)/, { HOME: w.home, IS_SANDBOX: '1', ANTHROPIC_BASE_URL: w.fake.url, ANTHROPIC_API_KEY: 'sk-ant-fake', DISABLE_AUTOUPDATER: '1' });
    const host = atrium(['session', 'new', w.ws, '--agent', 'claude', '--prompt', 'a long answer please', '--data-dir', w.dataDir], env);
    await waitFor(() => host.stdout().includes('word20 '), `Claude to stream (${host.stderr()})`, 120_000);
    const id = await busySession(w.dataDir, host.stderr);
    for (const args of [['workspace', 'list'], ['session', 'list'], ['session', 'show', id]]) {
      const r = await run([...args, '--json', '--data-dir', w.dataDir], env);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      noInternalErrors(r.stderr);
    }
    const refused = await run(['session', 'prompt', id, 'second agent?', '--data-dir', w.dataDir], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`pid ${host.child.pid})`);
    expect(facts(w.dataDir, id).state).toBe('busy');
    expect(host.stdout()).not.toContain('word200 ');
    release();

    const end = await host.exited;
    expect(end.status, host.stderr()).toBe(0);
    noInternalErrors(host.stderr());
    const after = facts(w.dataDir, id);
    expect(after.seqs).toEqual(Array.from({ length: after.lastSeq }, (_, i) => i + 1));
    expect(after.kinds).not.toContain('interrupted');
    expect(after.agentPids).toHaveLength(1);
    expect(after.text).toContain(answer);
    expect(after.text.split('word399.').length).toBe(2);
    expect(after.state).toBe('idle');
  }, 240_000);
});
