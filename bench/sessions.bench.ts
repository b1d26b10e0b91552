/**
 * Benchmark: the ACP session runtime.
 *
 * 1. Updates persisted and broadcast per second: (a) end to end, a scripted ACP agent process
 *    streaming 100,000 `agent_message_chunk` updates over stdio into the engine (SDK parsing on both
 *    sides included); (b) the engine's write path alone (journal: event rows + projection rows in
 *    batched transactions, then the push), fed in-process.
 * 2. Time to open a session with 10^3, 10^5 and 10^6 stored events: reopen the database, then
 *    `sessions.show` + the last transcript page (what the UI does). Must stay flat.
 * 3. Main-process memory with 20 live sessions (20 agent processes, each after a streamed turn).
 * 4. What one long message costs: a scripted agent streams 256 KB in 32-byte chunks into a live
 *    session (real 25 ms batches); bytes written to SQLite (logical: the values of every row
 *    inserted or updated, counted by temporary triggers; physical: WAL growth with automatic
 *    checkpoints off) and bytes pushed (`sessionEvent` frames as the WebSocket sends them), each
 *    per streamed text byte. Aim <= 3.
 *
 * Aims: >= 20,000 updates/s persisted; open < 50 ms at 10^6 events. Prints a table on
 * stderr and one JSON line on stdout; asserts nothing. Run alone: `node --import tsx bench/sessions.bench.ts`
 * (`--long-message`: only measurement 4).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createEngine, type Engine } from '../src/main/core/engine';
import { Journal } from '../src/main/core/sessions/journal';
import type { SessionRecord } from '../src/main/core/sessions/records';
import { toSession } from '../src/main/core/sessions/records';
import { SessionTables } from '../src/main/core/sessions/tables';
import { SESSION_TABLES, writeMeter } from '../test/support/writeBytes';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsxLoader = pathToFileURL(path.join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;
const agentScript = path.join(repoRoot, 'test/fixtures/agents/scripted-agent.ts');

/** Result printed as one JSON line. Times in milliseconds, memory in MiB. */
export interface SessionsBenchResult {
  bench: 'sessions';
  cpus: number;
  /** `updates`: chunks the agent sent (all persisted); `eventRows`: the log rows they were stored as (small chunks of one batch merge). */
  streamEndToEnd: { updates: number; eventRows: number; seconds: number; updatesPerSecond: number; broadcasts: number };
  writePathOnly: { updates: number; seconds: number; updatesPerSecond: number; broadcasts: number };
  openSession: Array<{ events: number; items: number; firstOpenMs: number; medianOpenMs: number }>;
  liveSessions: { sessions: number; rssBeforeMiB: number; rssAfterMiB: number; heapUsedAfterMiB: number; perSessionMiB: number; agentProcessesRssMiB: number };
  longMessage: LongMessageResult;
}

/** Cost of streaming one long message; byte ratios are per streamed UTF-8 text byte. */
export interface LongMessageCost {
  streamedBytes: number;
  chunkBytes: number;
  updates: number;
  updatesPerSecond: number;
  batches: number;
  /** Logical bytes of rows written (all session tables) per streamed byte, and per table. */
  writtenPerByte: number;
  writtenByTable: Record<string, number>;
  /** WAL growth per streamed byte (pages as SQLite wrote them, checkpoints off). */
  walPerByte: number;
  /** Database file growth after a final checkpoint, per streamed byte. */
  fileGrowthPerByte: number;
  /** `sessionEvent` frames (`{"event", "payload"}` JSON, as the server sends each tab) per streamed byte. */
  pushedPerByte: number;
  /** `sessionUpdated` frames per streamed byte (header pushes; not part of the aim). */
  headerPushedPerByte: number;
}

/** {@link LongMessageCost} of the free-running agent plus the same message at a fixed number of chunks per 25 ms batch. */
export interface LongMessageResult {
  /** The scripted agent streams as fast as it can (hundreds of chunks per batch). */
  agent: LongMessageCost;
  /** The journal fed in-process, a batch cut every `chunksPerBatch` chunks (1 ≈ a model at 40 tokens/s). */
  paced: Array<LongMessageCost & { chunksPerBatch: number }>;
}

const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
const mib = (bytes: number) => round(bytes / 1024 / 1024);

function defineScripted(engine: Engine, dir: string, scenario: object): void {
  const file = path.join(dir, `scenario-${crypto.randomUUID()}.json`);
  fs.writeFileSync(file, JSON.stringify(scenario));
  engine.sessions.agents.define({ id: 'scripted', command: process.execPath, args: ['--import', tsxLoader, agentScript, '--scenario', file], env: {} });
}

function newRecord(ws: string): SessionRecord {
  const now = new Date().toISOString();
  return {
    id: crypto.randomUUID(), workspaceId: null, cwd: ws, additionalDirectories: [], agentId: 'bench', agentVersion: null, agentSessionId: 'bench',
    title: 'bench', state: 'idle', stopReason: null, resume: null, lastError: null, exit: null, desiredModeId: null, modes: null, configOptions: [],
    usage: null, commands: [], capabilities: null, stderrTail: '', lastCommand: null, turnCount: 0, lastSeq: 0, lastItem: 0, createdAt: now, updatedAt: now,
  };
}

/** Appends `count` streamed updates (in turns of 1,000) through the real journal; returns seconds taken. */
function feed(engine: Engine, record: SessionRecord, count: number, mergeChunks: boolean): { seconds: number; broadcasts: number } {
  let broadcasts = 0;
  const off = engine.bus.subscribe((event) => {
    if (event === 'sessionEvent') broadcasts++;
  });
  SessionTables.of(engine.store.db).createSession(record);
  const journal = new Journal(engine.store, engine.bus, record, { batchMs: 1_000_000, mergeChunks, summarize: (r) => toSession(r, { live: false, queue: [], pendingPermissions: 0 }) });
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    if (i % 1000 === 0) {
      const promptId = crypto.randomUUID();
      journal.append({ kind: 'prompt_queued', data: { promptId, text: `turn ${i / 1000}`, blocks: [], queuedAt: new Date().toISOString() } });
      journal.append({ kind: 'prompt_sent', data: { promptId } });
    }
    journal.append({ kind: 'update', data: { update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `token ${i} ` } } } });
    if (i % 1000 === 999) journal.append({ kind: 'turn_end', data: { stopReason: 'end_turn', error: null } });
  }
  journal.close();
  off();
  return { seconds: (performance.now() - started) / 1000, broadcasts };
}

async function streamEndToEnd(base: string): Promise<SessionsBenchResult['streamEndToEnd']> {
  const updates = 100_000;
  const ws = path.join(base, 'ws-stream');
  fs.mkdirSync(ws);
  const engine = createEngine({ dataDir: path.join(base, 'data-stream'), watchResources: false, sessions: { envPath: '', idleMs: 0 } });
  try {
    defineScripted(engine, base, { turns: [{ match: 'go', steps: [{ stream: { bytes: updates * 32, chunkBytes: 32 } }] }] });
    let broadcasts = 0;
    engine.bus.subscribe((event) => {
      if (event === 'sessionEvent') broadcasts++;
    });
    const s = engine.sessions.create({ cwd: ws, agentId: 'scripted' });
    await engine.sessions.resume(s.id);
    const started = performance.now();
    const { promptId } = engine.sessions.prompt(s.id, 'go');
    await engine.sessions.waitForTurn(s.id, promptId);
    const seconds = (performance.now() - started) / 1000;
    const eventRows = (engine.store.db.prepare("SELECT count(*) AS n FROM session_events WHERE session_id = ? AND kind = 'update'").get(s.id) as { n: number }).n;
    // every chunk is persisted, but adjacent small ones of a batch share one log row: count what was sent, and check it all arrived
    const text = engine.sessions.transcript(s.id, { limit: 1000 }).items.reduce((n, i) => n + (i.kind === 'agent_message' ? i.text.length : 0), 0);
    if (text !== updates * 32) throw new Error(`sessions bench: ${text} of ${updates * 32} streamed bytes stored`);
    return { updates, eventRows, seconds: round(seconds, 2), updatesPerSecond: Math.round(updates / seconds), broadcasts };
  } finally {
    await engine.close();
  }
}

async function openTimes(base: string): Promise<{ write: SessionsBenchResult['writePathOnly']; open: SessionsBenchResult['openSession'] }> {
  const dataDir = path.join(base, 'data-open');
  const ws = path.join(base, 'ws-open');
  fs.mkdirSync(ws);
  const sizes = [1_000, 100_000, 1_000_000];
  const ids: Array<{ id: string; events: number }> = [];
  let write: SessionsBenchResult['writePathOnly'] = { updates: 0, seconds: 0, updatesPerSecond: 0, broadcasts: 0 };
  let engine = createEngine({ dataDir, watchResources: false, sessions: { envPath: '' } });
  try {
    // the write path as it runs (small chunks of a batch merge into one log row)
    process.stderr.write('sessions bench: writing 100,000 updates through the journal…\n');
    const measured = feed(engine, newRecord(ws), 100_000, true);
    write = { updates: 100_000, seconds: round(measured.seconds, 2), updatesPerSecond: Math.round(100_000 / measured.seconds), broadcasts: measured.broadcasts };
    for (const n of sizes) {
      const record = newRecord(ws);
      process.stderr.write(`sessions bench: writing ${n.toLocaleString('en')} events…\n`);
      // one log row per update, so the session to open has exactly this many events
      feed(engine, record, n, false);
      ids.push({ id: record.id, events: record.lastSeq });
    }
  } finally {
    await engine.close();
  }
  const open: SessionsBenchResult['openSession'] = [];
  for (const { id, events } of ids) {
    const samples: number[] = [];
    let items = 0;
    for (let run = 0; run < 6; run++) {
      engine = createEngine({ dataDir, watchResources: false, sessions: { envPath: '' } });
      const t0 = performance.now();
      engine.sessions.show(id);
      const page = engine.sessions.transcript(id, { limit: 100 });
      samples.push(performance.now() - t0);
      items = page.total;
      await engine.close();
    }
    const sorted = samples.slice(1).sort((a, b) => a - b);
    open.push({ events, items, firstOpenMs: round(samples[0], 2), medianOpenMs: round(sorted[Math.floor(sorted.length / 2)], 2) });
  }
  return { write, open };
}

function agentsRss(pids: number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
    } catch {
      // not Linux, or gone
    }
  }
  return mib(total);
}

async function liveSessions(base: string): Promise<SessionsBenchResult['liveSessions']> {
  const count = 20;
  const engine = createEngine({ dataDir: path.join(base, 'data-live'), watchResources: false, sessions: { envPath: '', idleMs: 0 } });
  try {
    defineScripted(engine, base, { turns: [{ match: 'go', steps: [{ stream: { bytes: 256 * 1024, chunkBytes: 256 } }, { text: 'done' }] }] });
    global.gc?.();
    const before = process.memoryUsage();
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const ws = path.join(base, `ws-live-${i}`);
      fs.mkdirSync(ws);
      ids.push(engine.sessions.create({ cwd: ws, agentId: 'scripted' }).id);
    }
    await Promise.all(ids.map((id) => engine.sessions.resume(id)));
    await Promise.all(ids.map((id) => engine.sessions.waitForTurn(id, engine.sessions.prompt(id, 'go').promptId)));
    global.gc?.();
    const after = process.memoryUsage();
    const pids = ids.map((id) => engine.sessions.show(id).diagnostics.pid).filter((p): p is number => p !== null);
    return {
      sessions: pids.length,
      rssBeforeMiB: mib(before.rss),
      rssAfterMiB: mib(after.rss),
      heapUsedAfterMiB: mib(after.heapUsed),
      perSessionMiB: round((after.rss - before.rss) / 1024 / 1024 / count, 2),
      agentProcessesRssMiB: agentsRss(pids),
    };
  } finally {
    await engine.close();
  }
}

/** Starts measuring one session's writes (temporary triggers, WAL with checkpoints off) and pushes on `engine`. */
function costMeter(engine: Engine, sessionId: () => string) {
  const db = engine.store.db;
  const existing = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((r) => r.name));
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.pragma('wal_autocheckpoint = 0');
  const wal = `${engine.store.file}-wal`;
  const size = (f: string) => (fs.existsSync(f) ? fs.statSync(f).size : 0);
  const walBefore = size(wal);
  const fileBefore = size(engine.store.file);
  const meter = writeMeter(db, SESSION_TABLES.filter((t) => existing.has(t)));
  let pushed = 0;
  let headers = 0;
  let batches = 0;
  const off = engine.bus.subscribe((event, payload) => {
    const p = payload as { sessionId?: string; session?: { id: string } };
    if ((p.sessionId ?? p.session?.id) !== sessionId()) return;
    const frame = Buffer.byteLength(JSON.stringify({ event, payload }));
    if (event === 'sessionEvent') {
      pushed += frame;
      batches++;
    } else if (event === 'sessionUpdated') {
      headers += frame;
    }
  });
  return {
    /** Stops measuring; `text` is the streamed message (its UTF-8 bytes are the denominator). */
    stop(streamed: number, chunkBytes: number, updates: number, seconds: number): LongMessageCost {
      off();
      const written = meter.read();
      const walGrowth = size(wal) - walBefore;
      meter.remove();
      db.pragma('wal_autocheckpoint = 1000');
      db.pragma('wal_checkpoint(TRUNCATE)');
      const per = (n: number) => round(n / streamed, 3);
      const byTable: Record<string, number> = {};
      for (const [table, v] of Object.entries(written)) if (table !== 'total' && v.bytes > 0) byTable[table] = per(v.bytes);
      return {
        streamedBytes: streamed,
        chunkBytes,
        updates,
        updatesPerSecond: Math.round(updates / seconds),
        batches,
        writtenPerByte: per(written.total.bytes),
        writtenByTable: byTable,
        walPerByte: per(walGrowth),
        fileGrowthPerByte: per(size(engine.store.file) - fileBefore),
        pushedPerByte: per(pushed),
        headerPushedPerByte: per(headers),
      };
    },
  };
}

/** One long message fed through a real journal in-process, a batch cut (flush) every `perBatch` chunks. */
function pacedMessage(engine: Engine, ws: string, streamedBytes: number, chunkBytes: number, perBatch: number): LongMessageCost & { chunksPerBatch: number } {
  const record = newRecord(ws);
  SessionTables.of(engine.store.db).createSession(record);
  const journal = new Journal(engine.store, engine.bus, record, { batchMs: 1_000_000, summarize: (r) => toSession(r, { live: false, queue: [], pendingPermissions: 0 }) });
  const promptId = crypto.randomUUID();
  journal.append({ kind: 'prompt_queued', data: { promptId, text: 'long', blocks: [], queuedAt: new Date().toISOString() } });
  journal.append({ kind: 'prompt_sent', data: { promptId } });
  journal.flush();
  const meter = costMeter(engine, () => record.id);
  const chunk = 'x'.repeat(chunkBytes - 1) + '\n';
  const updates = Math.ceil(streamedBytes / chunkBytes);
  const started = performance.now();
  for (let i = 0; i < updates; i++) {
    journal.append({ kind: 'update', data: { update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: chunk } } } });
    if ((i + 1) % perBatch === 0) journal.flush();
  }
  journal.append({ kind: 'turn_end', data: { stopReason: 'end_turn', error: null } });
  journal.close();
  const seconds = (performance.now() - started) / 1000;
  return { ...meter.stop(updates * chunkBytes, chunkBytes, updates, seconds), chunksPerBatch: perBatch };
}

/** Measurement 4 alone: `node --import tsx bench/sessions.bench.ts --long-message` runs only this. */
export async function longMessage(base: string): Promise<LongMessageResult> {
  const streamedBytes = 256 * 1024;
  const chunkBytes = 32;
  const ws = path.join(base, 'ws-long');
  fs.mkdirSync(ws);
  const engine = createEngine({ dataDir: path.join(base, 'data-long'), watchResources: false, sessions: { envPath: '', idleMs: 0 } });
  try {
    defineScripted(engine, base, { turns: [{ match: 'long', steps: [{ stream: { bytes: streamedBytes, chunkBytes } }] }] });
    const s = engine.sessions.create({ cwd: ws, agentId: 'scripted' });
    await engine.sessions.resume(s.id);
    const meter = costMeter(engine, () => s.id);
    const started = performance.now();
    const { promptId } = engine.sessions.prompt(s.id, 'long');
    await engine.sessions.waitForTurn(s.id, promptId);
    const seconds = (performance.now() - started) / 1000;
    const streamed = engine.sessions
      .transcript(s.id, { limit: 1000 })
      .items.reduce((n, i) => n + (i.kind === 'agent_message' ? Buffer.byteLength(i.text) : 0), 0);
    const agent = meter.stop(streamed, chunkBytes, Math.ceil(streamedBytes / chunkBytes), seconds);
    const paced = [1, 16, 256].map((k) => pacedMessage(engine, ws, streamedBytes, chunkBytes, k));
    return { agent, paced };
  } finally {
    await engine.close();
  }
}

/** Runs the measurements and prints them. */
export default async function benchSessions(): Promise<SessionsBenchResult> {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-sessions-')));
  try {
    process.stderr.write('sessions bench: streaming 100,000 updates from a scripted agent…\n');
    const streamed = await streamEndToEnd(base);
    const { write, open } = await openTimes(base);
    process.stderr.write('sessions bench: 20 live sessions…\n');
    const live = await liveSessions(base);
    process.stderr.write('sessions bench: one long message (256 KB in 32-byte chunks)…\n');
    const long = await longMessage(base);
    const result: SessionsBenchResult = { bench: 'sessions', cpus: os.cpus().length, streamEndToEnd: streamed, writePathOnly: write, openSession: open, liveSessions: live, longMessage: long };
    process.stderr.write(
      [
        'sessions bench:',
        `  stream end to end: ${streamed.updatesPerSecond.toLocaleString('en')} updates/s persisted+broadcast (${streamed.updates.toLocaleString('en')} in ${streamed.seconds} s as ${streamed.eventRows.toLocaleString('en')} log rows, ${streamed.broadcasts} pushes; aim >= 20,000)`,
        `  write path only:   ${write.updatesPerSecond.toLocaleString('en')} updates/s (${write.updates.toLocaleString('en')} in ${write.seconds} s)`,
        ...open.map((o) => `  open session:      ${o.events.toLocaleString('en').padStart(9)} events, ${o.items.toLocaleString('en')} items: first ${o.firstOpenMs} ms, median ${o.medianOpenMs} ms (aim < 50 ms)`),
        `  20 live sessions:  main RSS ${live.rssBeforeMiB} → ${live.rssAfterMiB} MiB (${live.perSessionMiB} MiB/session, heap ${live.heapUsedAfterMiB} MiB); agent processes ${live.agentProcessesRssMiB} MiB together`,
        longMessageLine(long),
      ].join('\n') + '\n',
    );
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return result;
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
}

/** The bench lines for one long message. */
export function longMessageLine(l: LongMessageResult): string {
  const line = (label: string, c: LongMessageCost) => {
    const tables = Object.entries(c.writtenByTable).map(([t, v]) => `${t.replace(/^session_/, '')} ${v}`).join(', ');
    return `  ${label.padEnd(28)} ${c.updatesPerSecond.toLocaleString('en').padStart(7)} updates/s, ${String(c.batches).padStart(4)} pushes; per streamed byte: written ${c.writtenPerByte} (${tables}), WAL ${c.walPerByte}, file +${c.fileGrowthPerByte}; pushed ${c.pushedPerByte} (+ headers ${c.headerPushedPerByte})`;
  };
  return [
    `  one long message: ${Math.round(l.agent.streamedBytes / 1024)} KB in ${l.agent.chunkBytes}-byte chunks (aim <= 3 bytes written and pushed per streamed byte)`,
    line('scripted agent, free-running:', l.agent),
    ...l.paced.map((p) => line(`${p.chunksPerBatch} chunk(s) per batch:`, p)),
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  if (process.argv.includes('--long-message')) {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-sessions-')));
    try {
      const long = await longMessage(base);
      process.stderr.write(`sessions bench:\n${longMessageLine(long)}\n`);
      process.stdout.write(`${JSON.stringify({ bench: 'sessions', longMessage: long })}\n`);
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  } else {
    await benchSessions();
  }
}
