import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { JournalEvent } from '../../../src/main/core/sessions/events';
import { Projector } from '../../../src/main/core/sessions/projector';
import type { SessionRecord } from '../../../src/main/core/sessions/records';
import type { TranscriptItem } from '../../../src/shared/contract';

function record(): SessionRecord {
  const now = new Date().toISOString();
  return {
    id: 's', workspaceId: null, cwd: '/w', additionalDirectories: [], agentId: 'gemini', agentVersion: null, agentSessionId: null, title: null, state: 'idle',
    stopReason: null, resume: null, lastError: null, exit: null, desiredModeId: null, modes: null, configOptions: [], usage: null, commands: [],
    capabilities: null, stderrTail: '', lastCommand: null, turnCount: 0, lastSeq: 0, lastItem: 0, createdAt: now, updatedAt: now,
  };
}

/** The transcript the engine projects from `events` (an in-memory item store). */
function project(events: JournalEvent[]): TranscriptItem[] {
  const stored = new Map<number, TranscriptItem>();
  const p = new Projector(record(), {
    load: (id) => stored.get(id) ?? null,
    findByRef: (ref) => [...stored.values()].reverse().find((i) => ('toolCallId' in i && i.kind === 'tool_call' && i.toolCallId === ref) || ('requestId' in i && i.requestId === ref)) ?? null,
    openIds: () => [],
  });
  for (const e of events) {
    p.apply(e, new Date().toISOString());
    for (const i of p.takeDirty()) stored.set(i.id, i);
  }
  return [...stored.values()].sort((a, b) => a.id - b.id);
}

describe('transcript tool call card', () => {
  it('shows a call Gemini CLI 0.61.0 announced only in its permission request by the request\'s title, kind and location, never its id', async () => {
    const items = project([
      { kind: 'prompt_queued', data: { promptId: 'p', text: 'write the notes', blocks: [], queuedAt: '' } },
      { kind: 'prompt_sent', data: { promptId: 'p' } },
      // recorded from the real CLI (default approval mode, write_file): no tool_call notification first
      {
        kind: 'permission_requested',
        data: {
          requestId: 'r',
          toolCall: { toolCallId: 'write_file__call_fake_1', kind: 'edit', status: 'pending', title: 'Writing to notes.md', content: [], locations: [{ path: '/w/notes.md' }] } as never,
          options: [{ optionId: 'proceed_once', name: 'Allow', kind: 'allow_once' }],
        },
      },
      { kind: 'permission_answered', data: { requestId: 'r', outcome: 'selected', optionId: 'proceed_once', by: 'user' } },
      // the update Gemini sends when the tool throws: status, content and kind only
      { kind: 'update', data: { update: { sessionUpdate: 'tool_call_update', toolCallId: 'write_file__call_fake_1', status: 'failed', content: [{ type: 'content', content: { type: 'text', text: 'disk full' } }], kind: 'edit' } as never } },
    ]);
    // the card's module graph reads the window's address at import (the app store's initial route)
    vi.stubGlobal('location', { hash: '' });
    const { ToolCallCard } = await import('../../../src/renderer/src/features/sessions/ToolCallCard');
    const tool = items.find((i): i is Extract<TranscriptItem, { kind: 'tool_call' }> => i.kind === 'tool_call')!;
    const html = renderToStaticMarkup(createElement(ToolCallCard, { sessionId: 's', item: tool }));
    expect(html).toContain('<span class="sess-tool-title">Writing to notes.md</span>');
    expect(html).toContain('data-tool-kind="edit"');
    expect(html).toContain('data-tool-status="failed"');
    expect(html).toContain('/w/notes.md');
    expect(html).toContain('disk full');
    expect(html).not.toContain('write_file__call_fake_1');
  });
});
