import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sessionEvents, type ItemAppend, type PayloadOf, type TranscriptItem } from '../../../src/shared/contract';
import { openStore } from '../../../src/main/core/migrations';
import { EventBus } from '../../../src/main/core/events/bus';
import { Journal, mergeTextChunks } from '../../../src/main/core/sessions/journal';
import { MAX_ITEM_TEXT } from '../../../src/main/core/sessions/projector';
import { toSession, type SessionRecord } from '../../../src/main/core/sessions/records';
import { SessionTables } from '../../../src/main/core/sessions/tables';
import type { Store } from '../../../src/main/core/store/database';
import { tempDir } from '../../support/tempDir';
import { SESSION_TABLES, writeMeter } from '../../support/writeBytes';

function newRecord(): SessionRecord {
  const now = new Date().toISOString();
  return {
    id: crypto.randomUUID(), workspaceId: null, cwd: '/tmp', additionalDirectories: [], agentId: 'test', agentVersion: null, agentSessionId: 'a',
    title: 't', state: 'idle', stopReason: null, resume: null, lastError: null, exit: null, desiredModeId: null, modes: null, configOptions: [],
    usage: null, commands: [], capabilities: null, stderrTail: '', lastCommand: null, turnCount: 0, lastSeq: 0, lastItem: 0, createdAt: now, updatedAt: now,
  };
}

/** A journal on a real SQLite file; batches are cut by calling flush (what the 25 ms timer does). */
function journalOn(store: Store) {
  const bus = new EventBus();
  const pushed: Array<PayloadOf<'sessionEvent'>> = [];
  bus.subscribe((event, payload) => {
    if (event === 'sessionEvent') pushed.push(payload as PayloadOf<'sessionEvent'>);
  });
  const record = newRecord();
  SessionTables.of(store.db).createSession(record);
  const journal = new Journal(store, bus, record, { batchMs: 1_000_000, summarize: (r) => toSession(r, { live: false, queue: [], pendingPermissions: 0 }) });
  return { journal, pushed, id: record.id };
}

const chunk = (text: string) => ({ kind: 'update' as const, data: { update: { sessionUpdate: 'agent_message_chunk' as const, content: { type: 'text' as const, text } } } });

function startTurn(journal: Journal): void {
  const promptId = crypto.randomUUID();
  journal.append({ kind: 'prompt_queued', data: { promptId, text: 'go', blocks: [], queuedAt: new Date().toISOString() } });
  journal.append({ kind: 'prompt_sent', data: { promptId } });
}

/** Deterministic text of `n` characters (varied, with multi-byte characters and JSON escapes). */
function streamText(n: number): string {
  const alphabet = 'abcdefghij klmnopq "rst" uvw\nxyz é€ 0123456789';
  let s = '';
  for (let i = 0; s.length < n; i++) s += alphabet[(i * 7 + (i >> 5)) % alphabet.length];
  return s.slice(0, n);
}

function messageText(items: TranscriptItem[]): string {
  return items.map((i) => (i.kind === 'agent_message' ? i.text : '')).join('');
}

/** Streams `text` in `chunkChars` chunks, cutting a batch every `perBatch` chunks; `each` runs after every batch. */
function stream(journal: Journal, text: string, chunkChars: number, perBatch: number, each?: (sent: number) => void): void {
  let n = 0;
  for (let at = 0; at < text.length; at += chunkChars) {
    journal.append(chunk(text.slice(at, at + chunkChars)));
    if (++n % perBatch === 0) {
      journal.flush();
      each?.(Math.min(at + chunkChars, text.length));
    }
  }
  journal.flush();
  each?.(text.length);
}

describe('streamed text is stored and pushed as appends', () => {
  it('writes and pushes a bounded number of bytes per streamed byte for one long message (256 KB in 32-byte chunks)', () => {
    const store = openStore(tempDir());
    const { journal, pushed, id } = journalOn(store);
    startTurn(journal);
    journal.flush();
    const meter = writeMeter(store.db, SESSION_TABLES);
    pushed.length = 0;
    const text = streamText(256 * 1024);
    // 256 chunks (8 KB) per batch: 25 ms at ~10,000 tokens/s
    stream(journal, text, 32, 256);
    journal.append({ kind: 'turn_end', data: { stopReason: 'end_turn', error: null } });
    const streamed = Buffer.byteLength(text);
    const written = meter.read();
    const pushedBytes = pushed.reduce((n, p) => n + Buffer.byteLength(JSON.stringify({ event: 'sessionEvent', payload: p })), 0);
    // the log, one chunk row per batch and one folded row per item: about 3 copies of the text
    expect(written.total.bytes / streamed).toBeLessThan(3.3);
    expect(written.session_events.bytes / streamed).toBeLessThan(1.1);
    expect(pushedBytes / streamed).toBeLessThan(1.2);
    // pushes were appends, not whole items: only each item's first batch and the stop are whole
    const wholeMessages = pushed.flatMap((p) => p.items).filter((i) => i.kind === 'agent_message');
    expect(wholeMessages.length).toBe(Math.ceil(text.length / MAX_ITEM_TEXT));
    expect(pushed.some((p) => (p.appends?.length ?? 0) > 0)).toBe(true);
    // every payload matches the contract
    for (const p of pushed) expect(sessionEvents.sessionEvent.payload.safeParse(p).success).toBe(true);
    // after the turn everything is folded: no chunk rows, the items hold the text
    const tables = SessionTables.of(store.db);
    expect(tables.chunkedItems(id)).toEqual([]);
    expect(messageText(tables.page(id, 1000))).toBe(text);
    store.close();
  });

  it('readers see the whole text after every batch, mid-stream and after folding, with MAX_ITEM_TEXT splits kept', () => {
    const store = openStore(tempDir());
    const { journal, id } = journalOn(store);
    const tables = SessionTables.of(store.db);
    startTurn(journal);
    const text = streamText(MAX_ITEM_TEXT * 2 + 5000);
    let sawChunks = false;
    stream(journal, text, 100, 7, (sent) => {
      const page = tables.page(id, 1000);
      expect(messageText(page)).toBe(text.slice(0, sent));
      const messages = page.filter((i) => i.kind === 'agent_message');
      expect(Math.max(...messages.map((i) => (i.kind === 'agent_message' ? i.text.length : 0)))).toBeLessThanOrEqual(MAX_ITEM_TEXT);
      const last = messages[messages.length - 1];
      // the single-item reads agree with the page, including updatedAt from the last chunk
      expect(tables.item(id, last.id)).toEqual(last);
      if (tables.chunkedItems(id).length) sawChunks = true;
      // only the growing item may have chunks
      expect(tables.chunkedItems(id).every((i) => i === last.id)).toBe(true);
    });
    expect(sawChunks).toBe(true);
    const before = tables.page(id, 1000);
    journal.append({ kind: 'turn_end', data: { stopReason: 'end_turn', error: null } });
    expect(tables.chunkedItems(id)).toEqual([]);
    const after = tables.page(id, 1000);
    expect(messageText(after)).toBe(text);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.filter((i) => i.kind === 'agent_message').slice(1).every((i) => i.kind === 'agent_message' && i.continued)).toBe(true);
    store.close();
  });

  it('a connection abandoned mid-stream (killed process) leaves every committed byte readable; the next writer folds its chunks', () => {
    const dir = tempDir();
    const killed = openStore(dir);
    const { journal, id } = journalOn(killed);
    startTurn(journal);
    const text = streamText(20_000);
    stream(journal, text, 64, 10);
    // one more batch buffered but never written: it is lost with the process, as designed
    journal.append(chunk('never written'));
    // no close, no fold: the process "dies" here (its connection is simply never used again)
    const reopened = openStore(dir);
    const tables = SessionTables.of(reopened.db);
    expect(tables.chunkedItems(id).length).toBe(1);
    expect(messageText(tables.page(id, 100))).toBe(text);
    const item = tables.page(id, 100).find((i) => i.kind === 'agent_message')!;
    expect(tables.item(id, item.id)).toEqual(item);
    // recovery writes the session with a journal of its own: the killed process's chunks are folded
    const record = tables.session(id)!;
    const recovery = new Journal(reopened, new EventBus(), record, { batchMs: 0, summarize: (r) => toSession(r, { live: false, queue: [], pendingPermissions: 0 }) });
    recovery.append({ kind: 'interrupted', data: { reason: 'killed' } });
    expect(tables.chunkedItems(id)).toEqual([]);
    const raw = reopened.db.prepare('SELECT data FROM session_items WHERE session_id = ? AND item = ?').get(id, item.id) as { data: string };
    expect((JSON.parse(raw.data) as { text: string }).text).toBe(text);
    // streaming continues in a new item after the interruption
    recovery.append(chunk('after'));
    expect(messageText(tables.page(id, 100))).toBe(`${text}after`);
    reopened.close();
  });

  it('closing the journal folds the growing item; a change other than appended text is pushed and stored whole', () => {
    const store = openStore(tempDir());
    const { journal, pushed, id } = journalOn(store);
    const tables = SessionTables.of(store.db);
    startTurn(journal);
    journal.append(chunk('hello'));
    journal.flush();
    journal.append(chunk(' world'));
    journal.flush();
    expect(pushed[pushed.length - 1].appends).toEqual([expect.objectContaining({ offset: 5, text: ' world' })]);
    expect(tables.chunkedItems(id).length).toBe(1);
    // an image block changes `blocks`: not an append
    journal.append({ kind: 'update', data: { update: { sessionUpdate: 'agent_message_chunk', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } } } });
    journal.flush();
    const last = pushed[pushed.length - 1];
    expect(last.appends).toBeUndefined();
    expect(last.items.map((i) => i.kind)).toEqual(['agent_message']);
    expect(tables.chunkedItems(id)).toEqual([]);
    journal.append(chunk('!'));
    journal.flush();
    expect(tables.chunkedItems(id).length).toBe(1);
    journal.close();
    expect(tables.chunkedItems(id)).toEqual([]);
    expect(messageText(tables.page(id, 10))).toBe('hello world!');
    store.close();
  });

  it('merges adjacent small text chunks of one message into one event, keeps others apart', () => {
    const at = (i: number) => `2026-01-01T00:00:0${i}.000Z`;
    const merged = mergeTextChunks([
      { event: chunk('a'), at: at(1) },
      { event: chunk('b'), at: at(2) },
      { event: { kind: 'update', data: { update: { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'x' } } } }, at: at(3) },
      { event: chunk('c'), at: at(4) },
      { event: { kind: 'fs_read', data: { path: '/a', line: null, limit: null, chars: 1 } }, at: at(5) },
      { event: chunk('d'), at: at(6) },
      { event: chunk('e'.repeat(5000)), at: at(7) },
    ]);
    expect(merged.map((p) => [p.event.kind, (p.event.data as { update?: { content?: { text?: string } } }).update?.content?.text?.length ?? null, p.at])).toEqual([
      ['update', 2, at(2)],
      ['update', 1, at(3)],
      ['update', 1, at(4)],
      ['fs_read', null, at(5)],
      ['update', 1, at(6)],
      ['update', 5000, at(7)],
    ]);
    expect((merged[0].event.data as { update: { content: { text: string } } }).update.content.text).toBe('ab');
  });
});

describe('contract: sessionEvent appends', () => {
  it('accepts appends and refuses malformed ones', () => {
    const ok: ItemAppend = { itemId: 3, offset: 10, text: 'abc', updatedAt: '2026-01-01T00:00:00.000Z' };
    expect(sessionEvents.sessionEvent.payload.safeParse({ sessionId: 's', lastSeq: 4, items: [], appends: [ok] }).success).toBe(true);
    expect(sessionEvents.sessionEvent.payload.safeParse({ sessionId: 's', lastSeq: 4, items: [], appends: [{ ...ok, offset: -1 }] }).success).toBe(false);
  });
});
