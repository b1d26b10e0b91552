import { describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../../src/shared/contract';
import { groupSummary, groupTranscriptRows } from '../../../src/renderer/src/features/sessions/transcriptItems';

const base = (id: number) => ({ id, turn: 1, createdAt: '', updatedAt: '' });
const tool = (id: number, toolKind: 'read' | 'search' | 'edit', status: 'completed' | 'failed' | 'in_progress' = 'completed'): TranscriptItem => ({
  ...base(id), kind: 'tool_call', toolCallId: `t${id}`, title: `${toolKind} ${id}`, toolKind, status, locations: [], content: [], rawInput: null, rawOutput: null,
});
const message = (id: number): TranscriptItem => ({ ...base(id), kind: 'agent_message', text: 'x', blocks: [], messageId: null, continued: false });

describe('groupTranscriptRows (compact rows for runs of read/search tool calls)', () => {
  it('groups a run of two or more consecutive read/search calls into one row; a single one stays a card', () => {
    const rows = groupTranscriptRows([message(1), tool(2, 'read'), tool(3, 'search'), tool(4, 'read'), message(5), tool(6, 'read'), message(7)]);
    expect(rows.map((r) => (r.type === 'group' ? r.items.map((i) => i.id) : r.item.id))).toEqual([1, [2, 3, 4], 5, 6, 7]);
    expect(rows[1].key).toBe('g2');
  });

  it('an edit or a failed read ends the run (they stay visible as their own cards)', () => {
    const rows = groupTranscriptRows([tool(1, 'read'), tool(2, 'read'), tool(3, 'edit'), tool(4, 'read'), tool(5, 'read', 'failed'), tool(6, 'read'), tool(7, 'search', 'in_progress')]);
    expect(rows.map((r) => (r.type === 'group' ? r.items.map((i) => i.id) : r.item.id))).toEqual([[1, 2], 3, 4, 5, [6, 7]]);
  });

  it('keeps the group key while the run grows at its end (streaming), so its expanded state stays', () => {
    const before = groupTranscriptRows([message(1), tool(2, 'read'), tool(3, 'read')]);
    const after = groupTranscriptRows([message(1), tool(2, 'read'), tool(3, 'read'), tool(4, 'search')]);
    expect(before[1].key).toBe(after[1].key);
  });

  it('summarises what the group did', () => {
    expect(groupSummary([tool(1, 'read'), tool(2, 'read'), tool(3, 'search')] as never)).toBe('Read 2 files · searched 1 time');
    expect(groupSummary([tool(1, 'search'), tool(2, 'search')] as never)).toBe('Searched 2 times');
  });
});
