import crypto from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionPrinter, type SessionFeed } from '../../../src/main/cli/commands/sessionOutput';
import { EventBus } from '../../../src/main/core/events/bus';
import { openStore } from '../../../src/main/core/migrations';
import { Journal } from '../../../src/main/core/sessions/journal';
import { MAX_ITEM_TEXT } from '../../../src/main/core/sessions/projector';
import { toSession, type SessionRecord } from '../../../src/main/core/sessions/records';
import { SessionTables } from '../../../src/main/core/sessions/tables';
import { tempDir } from '../../support/tempDir';

afterEach(() => {
  vi.restoreAllMocks();
});

function newRecord(): SessionRecord {
  const now = new Date().toISOString();
  return {
    id: crypto.randomUUID(), workspaceId: null, cwd: '/tmp', additionalDirectories: [], agentId: 'test', agentVersion: null, agentSessionId: 'a',
    title: 't', state: 'idle', stopReason: null, resume: null, lastError: null, exit: null, desiredModeId: null, modes: null, configOptions: [],
    usage: null, commands: [], capabilities: null, stderrTail: '', lastCommand: null, turnCount: 0, lastSeq: 0, lastItem: 0, createdAt: now, updatedAt: now,
  };
}

const chunk = (text: string) => ({ kind: 'update' as const, data: { update: { sessionUpdate: 'agent_message_chunk' as const, content: { type: 'text' as const, text } } } });

describe('the CLI printer with streamed appends', () => {
  it('prints a streamed answer exactly once, also when it attaches mid-stream (the gap is re-read from SQLite)', () => {
    const store = openStore(tempDir());
    const bus = new EventBus();
    const record = newRecord();
    const tables = SessionTables.of(store.db);
    tables.createSession(record);
    const journal = new Journal(store, bus, record, { batchMs: 1_000_000, summarize: (r) => toSession(r, { live: false, queue: [], pendingPermissions: 0 }) });
    const reads: number[] = [];
    const lines = { early: [] as string[], late: [] as string[] };
    let target: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => {
      target.push(String(s));
      return true;
    });
    // each printer's writes go to its own buffer (printers write synchronously inside the bus emit)
    const feed = (name: 'early' | 'late'): SessionFeed => ({
      subscribe: (l) =>
        bus.subscribe((event, payload) => {
          target = lines[name];
          l(event, payload);
        }),
      answerPermission: () => undefined,
      item: (sessionId, itemId) => {
        reads.push(itemId);
        return tables.item(sessionId, itemId);
      },
    });
    const printers: Array<{ name: 'early' | 'late'; printer: SessionPrinter }> = [];
    const capture = (name: 'early' | 'late') => printers.push({ name, printer: new SessionPrinter(feed(name), () => record.id, false, 'reject') });
    capture('early');
    const promptId = crypto.randomUUID();
    journal.append({ kind: 'prompt_queued', data: { promptId, text: 'go', blocks: [], queuedAt: new Date().toISOString() } });
    journal.append({ kind: 'prompt_sent', data: { promptId } });
    const words = Array.from({ length: 300 }, (_, i) => `word${i} `);
    words.forEach((w, i) => {
      journal.append(chunk(w));
      if (i % 5 === 4) journal.flush();
      if (i === 102) capture('late');
    });
    journal.append({ kind: 'turn_end', data: { stopReason: 'end_turn', error: null } });
    for (const { name, printer } of printers) {
      target = lines[name];
      printer.close();
    }
    const text = words.join('');
    expect(lines.early.join('')).toBe(`> go\n${text}\n[stop] end_turn\n`);
    // the late printer missed the start of the message: it re-read the item once and printed it whole, then the rest
    expect(lines.late.join('')).toBe(`${text}\n[stop] end_turn\n`);
    expect(reads.length).toBe(1);
    store.close();
  });

  it('prints a message that goes on in a new item at the size limit in order (the end of the first, then the second)', () => {
    const store = openStore(tempDir());
    const bus = new EventBus();
    const record = newRecord();
    SessionTables.of(store.db).createSession(record);
    const journal = new Journal(store, bus, record, { batchMs: 1_000_000, summarize: (r) => toSession(r, { live: false, queue: [], pendingPermissions: 0 }) });
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => {
      out.push(String(s));
      return true;
    });
    const printer = new SessionPrinter({ subscribe: (l) => bus.subscribe(l), answerPermission: () => undefined }, () => record.id, false, 'reject');
    const promptId = crypto.randomUUID();
    journal.append({ kind: 'prompt_queued', data: { promptId, text: 'go', blocks: [], queuedAt: new Date().toISOString() } });
    journal.append({ kind: 'prompt_sent', data: { promptId } });
    // just below the limit, flushed, then one batch whose chunk crosses it: an append to item 2 and a new item 3 in one push
    journal.append(chunk('a'.repeat(MAX_ITEM_TEXT - 3)));
    journal.flush();
    journal.append(chunk('bbbbbb'));
    journal.flush();
    journal.append({ kind: 'turn_end', data: { stopReason: 'end_turn', error: null } });
    printer.close();
    expect(out.join('')).toBe(`> go\n${'a'.repeat(MAX_ITEM_TEXT - 3)}bbb\nbbb\n[stop] end_turn\n`);
    store.close();
  });
});
