import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/main/core/engine';
import { SessionTables } from '../../../src/main/core/sessions/tables';
import { repoRoot } from '../../support/corpus';
import { isAlive, sessionEngine, TSX_LOADER, waitFor } from '../../support/sessions';
import { tempDir } from '../../support/tempDir';

const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
});

describe('crash safety: Atrium killed with SIGKILL mid-stream', () => {
  it('keeps every event written before the kill, marks the session interrupted, resumes without duplicates', async () => {
    const base = tempDir('atrium-crash-');
    const ws = path.join(base, 'ws');
    fs.mkdirSync(ws);
    const dataDir = path.join(base, 'data');
    const scenario = { capabilities: { loadSession: true }, turns: [{ match: 'stream', steps: [{ streamUntilCancelled: { intervalMs: 1, text: 'chunk' } }] }] };
    const host = spawn(process.execPath, ['--import', TSX_LOADER, path.join(repoRoot, 'test/fixtures/sessions/crash-host.ts'), dataDir, base, ws, JSON.stringify(scenario)], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: Array<Record<string, unknown>> = [];
    let buffer = '';
    let stderr = '';
    host.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop() ?? '';
      for (const p of parts) if (p.trim()) lines.push(JSON.parse(p));
    });
    host.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<void>((resolve) => host.on('exit', () => resolve()));
    const header = await waitFor(() => lines.find((l) => 'sessionId' in l), `the host to start a session (${stderr})`);
    const sessionId = header.sessionId as string;
    const agentPid = header.agentPid as number;
    // mid-stream: well into the second turn
    await waitFor(() => lines.filter((l) => 'lastSeq' in l && (l.lastSeq as number) > 150).length > 0, `streaming (${stderr})`, 60_000);
    host.kill('SIGKILL');
    await exited;
    const reported = lines.filter((l) => 'lastSeq' in l) as Array<{ lastSeq: number; items: Array<{ id: number; kind: string; length: number }> }>;
    const lastSeq = Math.max(...reported.map((l) => l.lastSeq));

    // the orphaned agent notices its closed stdin and exits (its process group is its own)
    await waitFor(() => !isAlive(agentPid), 'the agent of the killed host to exit');

    const engine = sessionEngine(dataDir, base, scenario);
    engines.push(engine);
    // opening an engine writes nothing; serve and the app recover at start (the killed host is gone)
    expect(engine.sessions.show(sessionId).state).toBe('interrupted');
    expect(engine.sessions.recover()).toEqual([sessionId]);
    const db = engine.store.db;
    const seqs = (db.prepare('SELECT seq FROM session_events WHERE session_id = ? ORDER BY seq').all(sessionId) as Array<{ seq: number }>).map((r) => r.seq);
    // every event reported before the kill is present, without gaps
    expect(seqs.length).toBeGreaterThanOrEqual(lastSeq);
    expect(seqs.slice(0, lastSeq)).toEqual(Array.from({ length: lastSeq }, (_, i) => i + 1));
    // every pushed item is stored with at least the pushed text (read as every reader does: the item
    // row plus the chunks appended to it, which the killed host could not fold any more)
    const tables = SessionTables.of(db);
    for (const line of reported) {
      for (const item of line.items) {
        const stored = tables.item(sessionId, item.id) as { kind: string; text?: string } | null;
        expect(stored, `item ${item.id}`).not.toBeNull();
        expect(stored!.kind).toBe(item.kind);
        expect(stored!.text?.length ?? 0).toBeGreaterThanOrEqual(item.length);
      }
    }
    const shown = engine.sessions.show(sessionId);
    expect([shown.state, shown.live]).toEqual(['interrupted', false]);
    const transcript = engine.sessions.transcript(sessionId, { limit: 1000 }).items;
    expect(transcript.some((i) => i.kind === 'notice' && i.code === 'interrupted')).toBe(true);
    // the prompt queued behind the stream was never sent: recovery keeps its text, after the stream, marked dropped
    const users = transcript.filter((i) => i.kind === 'user_message').map((i) => (i.kind === 'user_message' ? `${i.text}:${i.status}` : ''));
    expect(users).toEqual(['warmup:sent', 'stream forever:sent', 'queued behind the stream:dropped']);
    const lastStreamed = Math.max(...transcript.filter((i) => i.kind === 'agent_message').map((i) => i.id));
    expect(transcript.find((i) => i.kind === 'user_message' && i.status === 'dropped')!.id).toBeGreaterThan(lastStreamed);
    const eventsBefore = seqs.length;

    // resume (session/load: the agent replays the warm-up turn) and continue
    const { promptId } = engine.sessions.prompt(sessionId, 'after the crash');
    expect(await engine.sessions.waitForTurn(sessionId, promptId)).toBe('end_turn');
    const after = engine.sessions.show(sessionId);
    expect(after.resume?.outcome).toBe('loaded');
    expect(after.state).toBe('idle');
    const items = engine.sessions.transcript(sessionId, { limit: 1000 }).items;
    const messages = items.filter((i) => i.kind === 'agent_message').map((i) => (i.kind === 'agent_message' ? i.text : ''));
    expect(messages.filter((t) => t === 'echo: warmup')).toHaveLength(1);
    expect(messages.filter((t) => t === 'echo: after the crash')).toHaveLength(1);
    expect(items.filter((i) => i.kind === 'user_message' && i.text === 'warmup')).toHaveLength(1);
    // the replay was not appended to the log: only the resume and the new turn were
    const newKinds = (db.prepare('SELECT kind FROM session_events WHERE session_id = ? AND seq > ? ORDER BY seq').all(sessionId, eventsBefore) as Array<{ kind: string }>).map((r) => r.kind);
    expect(newKinds.filter((k) => k === 'update')).toHaveLength(1);
    expect(newKinds).toContain('resume');
  }, 120_000);
});
