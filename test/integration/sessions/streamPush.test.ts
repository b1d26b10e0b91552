import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/main/core/engine';
import { applySessionEvent } from '../../../src/renderer/src/features/sessions/transcriptItems';
import { sessionEvents, type PayloadOf, type TranscriptItem } from '../../../src/shared/contract';
import { sessionEngine } from '../../support/sessions';
import { tempDir } from '../../support/tempDir';

const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
});

describe('a streamed answer from the scripted agent is pushed as appends', () => {
  it('a tab applying the pushes holds exactly the stored transcript, and the pushes cost about the text', async () => {
    const base = tempDir('atrium-stream-push-');
    const ws = path.join(base, 'ws');
    fs.mkdirSync(ws);
    // ~100 KB in ~30-byte chunks, 1 ms apart: spread over many 25 ms batches, several 32 KB items
    const chunks = 3500;
    const engine = sessionEngine(path.join(base, 'data'), base, { turns: [{ match: 'long', steps: [{ streamUntilCancelled: { intervalMs: 1, text: 'a streamed token, number', maxChunks: chunks } }] }] }, { batchMs: 25 });
    engines.push(engine);
    const s = engine.sessions.create({ cwd: ws, agentId: 'scripted' });
    await engine.sessions.resume(s.id);
    // a tab open from the start: applies every push with the session view's reducer
    let tab: TranscriptItem[] = engine.sessions.transcript(s.id, { limit: 100 }).items;
    let pushedBytes = 0;
    let pushes = 0;
    let appends = 0;
    const gaps: number[] = [];
    const invalid: unknown[] = [];
    engine.bus.subscribe((event, payload) => {
      if (event !== 'sessionEvent') return;
      const p = payload as PayloadOf<'sessionEvent'>;
      if (p.sessionId !== s.id) return;
      // (a throwing listener would be swallowed by the bus: collect instead)
      if (!sessionEvents.sessionEvent.payload.safeParse(p).success) invalid.push(p);
      pushedBytes += Buffer.byteLength(JSON.stringify({ event, payload }));
      pushes++;
      appends += p.appends?.length ?? 0;
      const r = applySessionEvent(tab, p, null);
      gaps.push(...r.refetch);
      tab = r.items;
    });
    const { promptId } = engine.sessions.prompt(s.id, 'long');
    expect(await engine.sessions.waitForTurn(s.id, promptId)).toBe('end_turn');
    const stored = engine.sessions.transcript(s.id, { limit: 1000 }).items;
    const streamed = stored.filter((i) => i.kind === 'agent_message').reduce((n, i) => n + (i.kind === 'agent_message' ? i.text.length : 0), 0);
    const expected = Array.from({ length: chunks }, (_, i) => `a streamed token, number${i} `).join('');
    expect(stored.map((i) => (i.kind === 'agent_message' ? i.text : '')).join('')).toBe(expected);
    expect(streamed).toBe(expected.length);
    expect(stored.filter((i) => i.kind === 'agent_message').length).toBeGreaterThan(2);
    expect(gaps).toEqual([]);
    expect(invalid).toEqual([]);
    expect(appends).toBeGreaterThan(0);
    expect(tab).toEqual(stored);
    // linear: each streamed byte is pushed about once, plus a constant per push (ids, offset,
    // timestamp); re-sending the growing item each batch would cost its whole length per push
    expect(pushes).toBeGreaterThan(10);
    expect(pushedBytes).toBeLessThan(streamed * 1.1 + pushes * 400);
  }, 60_000);
});
