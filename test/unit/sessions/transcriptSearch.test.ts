import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/main/core/migrations';
import { EventBus } from '../../../src/main/core/events/bus';
import { Journal } from '../../../src/main/core/sessions/journal';
import { toSession, type SessionRecord } from '../../../src/main/core/sessions/records';
import { SessionTables } from '../../../src/main/core/sessions/tables';
import { searchableText, searchTranscript } from '../../../src/main/core/sessions/transcriptSearch';
import type { Store } from '../../../src/main/core/store/database';
import { tempDir } from '../../support/tempDir';

function newRecord(): SessionRecord {
  const now = new Date().toISOString();
  return {
    id: crypto.randomUUID(), workspaceId: null, cwd: '/tmp', additionalDirectories: [], agentId: 'test', agentVersion: null, agentSessionId: 'a',
    title: 't', state: 'idle', stopReason: null, resume: null, lastError: null, exit: null, desiredModeId: null, modes: null, configOptions: [],
    usage: null, commands: [], capabilities: null, stderrTail: '', lastCommand: null, turnCount: 0, lastSeq: 0, lastItem: 0, createdAt: now, updatedAt: now,
  };
}

/** A real journal on a real SQLite file; `flush` cuts a batch (what the timer does). */
function journalOn(store: Store) {
  const record = newRecord();
  const tables = SessionTables.of(store.db);
  tables.createSession(record);
  const journal = new Journal(store, new EventBus(), record, { batchMs: 1_000_000, summarize: (r) => toSession(r, { live: false, queue: [], pendingPermissions: 0 }) });
  return { journal, tables, id: record.id };
}

const update = (u: Record<string, unknown>) => ({ kind: 'update' as const, data: { update: u } }) as never;

function prompt(journal: Journal, text: string): void {
  const promptId = crypto.randomUUID();
  journal.append({ kind: 'prompt_queued', data: { promptId, text, blocks: [], queuedAt: new Date().toISOString() } });
  journal.append({ kind: 'prompt_sent', data: { promptId } });
}

function say(journal: Journal, text: string): void {
  journal.append(update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } }));
}

function endTurn(journal: Journal): void {
  journal.append({ kind: 'turn_end', data: { stopReason: 'end_turn' } } as never);
}

describe('transcript search (every stored item, not only a loaded page)', () => {
  it('finds plain text case-insensitively in messages, tool calls and notices, counting occurrences, in transcript order', () => {
    const store = openStore(tempDir());
    const { journal, tables, id } = journalOn(store);
    prompt(journal, 'Please fix the Parser');
    say(journal, 'Looking at the parser now. The parser is in src/parse.ts.');
    journal.append(update({ sessionUpdate: 'tool_call', toolCallId: 'r1', title: 'Read file', kind: 'read', status: 'completed', locations: [{ path: '/w/src/parser.ts' }] }));
    journal.append(update({ sessionUpdate: 'tool_call', toolCallId: 'e1', title: 'Edit', kind: 'edit', status: 'completed', content: [{ type: 'diff', path: '/w/src/x.ts', oldText: 'a', newText: 'const PARSER = 1;' }] }));
    endTurn(journal);
    journal.flush();

    const r = searchTranscript(tables, id, '  parser ');
    expect(r.matches.map((m) => m.kind)).toEqual(['user_message', 'agent_message', 'tool_call', 'tool_call']);
    expect(r.matches.map((m) => m.count)).toEqual([1, 2, 1, 1]);
    expect(r.items).toBe(4);
    expect(r.occurrences).toBe(5);
    expect(r.truncated).toBe(false);
    const ids = r.matches.map((m) => m.itemId);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(r.matches[1].snippet).toContain('Looking at the parser now');
  });

  it('matches text the stored JSON escapes (quotes, backslashes), non-ASCII case, and text still held in chunk rows', () => {
    const store = openStore(tempDir());
    const { journal, tables, id } = journalOn(store);
    prompt(journal, 'go');
    say(journal, 'He said "hello" to C:\\Users and to ÉCOLE. ');
    journal.flush();
    // a message still growing: its later text is in chunk rows, not yet in the item row
    say(journal, 'tail text zebra');
    journal.flush();
    expect(tables.chunkedItems(id).length).toBeGreaterThan(0);

    expect(searchTranscript(tables, id, '"hello"').items).toBe(1);
    expect(searchTranscript(tables, id, 'c:\\users').items).toBe(1);
    expect(searchTranscript(tables, id, 'école').items).toBe(1);
    expect(searchTranscript(tables, id, 'ZEBRA').items).toBe(1);
  });

  it('never matches what only the storage holds (JSON keys, ids), and an empty query matches nothing', () => {
    const store = openStore(tempDir());
    const { journal, tables, id } = journalOn(store);
    prompt(journal, 'hello');
    say(journal, 'world');
    endTurn(journal);
    journal.flush();
    expect(searchTranscript(tables, id, 'sessionUpdate').items).toBe(0);
    expect(searchTranscript(tables, id, 'kind').items).toBe(0);
    expect(searchTranscript(tables, id, 'createdAt').items).toBe(0);
    expect(searchTranscript(tables, id, '   ')).toEqual({ matches: [], items: 0, occurrences: 0, truncated: false });
  });

  it('lists at most `limit` matches but counts all of them, across more items than one scan batch', () => {
    const store = openStore(tempDir());
    const { journal, tables, id } = journalOn(store);
    for (let i = 0; i < 1200; i++) {
      prompt(journal, `question ${i}${i % 3 === 0 ? ' needle' : ''}`);
      say(journal, `answer ${i}`);
      endTurn(journal);
      if (i % 100 === 0) journal.flush();
    }
    journal.flush();
    const r = searchTranscript(tables, id, 'needle', 50);
    expect(r.items).toBe(400);
    expect(r.matches).toHaveLength(50);
    expect(r.truncated).toBe(true);
    // the last match is in the last turn that has the word, well past the first scan batch
    expect(searchTranscript(tables, id, 'question 1197 needle').items).toBe(1);
  });

  it('searchableText reads what a person sees of each kind', () => {
    const base = { id: 1, turn: 1, createdAt: '', updatedAt: '' };
    expect(searchableText({ ...base, kind: 'plan', entries: [{ content: 'Write tests', priority: 'high', status: 'pending' }] })).toBe('Write tests');
    expect(searchableText({ ...base, kind: 'notice', severity: 'info', code: 'x', title: 'Resumed', detail: 'via load', outcome: null })).toBe('Resumed\nvia load');
    expect(searchableText({ ...base, kind: 'stop', stopReason: 'end_turn', error: null })).toBe('');
  });
});
