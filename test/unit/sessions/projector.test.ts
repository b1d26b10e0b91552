import { describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../../src/shared/contract';
import type { JournalEvent } from '../../../src/main/core/sessions/events';
import { MAX_ITEM_TEXT, Projector } from '../../../src/main/core/sessions/projector';
import type { SessionRecord } from '../../../src/main/core/sessions/records';

function record(): SessionRecord {
  const now = new Date().toISOString();
  return {
    id: 's', workspaceId: null, cwd: '/w', additionalDirectories: [], agentId: 'a', agentVersion: null, agentSessionId: null, title: null, state: 'idle',
    stopReason: null, resume: null, lastError: null, exit: null, desiredModeId: null, modes: null, configOptions: [], usage: null, commands: [],
    capabilities: null, stderrTail: '', lastCommand: null, turnCount: 0, lastSeq: 0, lastItem: 0, createdAt: now, updatedAt: now,
  };
}

/** A projector over an in-memory item store, applying events and keeping every written item. */
function harness(start: Partial<SessionRecord> = {}, titleFromAgent?: (title: string, beforeSeq: number) => boolean, lastAgentTitle?: (beforeSeq: number) => string | null) {
  const stored = new Map<number, TranscriptItem>();
  const p = new Projector({ ...record(), ...start }, {
    titleFromAgent,
    lastAgentTitle,
    load: (id) => stored.get(id) ?? null,
    findByRef: (ref) => [...stored.values()].reverse().find((i) => ('toolCallId' in i && i.toolCallId === ref) || ('requestId' in i && i.requestId === ref) || ('promptId' in i && i.promptId === ref)) ?? null,
    openIds: (statuses) => [...stored.values()].filter((i) => ('status' in i && statuses.includes(i.status)) || ('state' in i && statuses.includes(i.state))).map((i) => i.id),
  });
  const apply = (...events: JournalEvent[]) => {
    for (const e of events) p.apply(e, new Date().toISOString());
    for (const i of p.takeDirty()) stored.set(i.id, i);
  };
  const update = (u: Record<string, unknown>): JournalEvent => ({ kind: 'update', data: { update: u as never } });
  return { p, stored, apply, update, items: () => [...stored.values()].sort((a, b) => a.id - b.id) };
}

describe('Projector', () => {
  it('merges chunks of one message, splits long ones at the item cap and keeps kinds apart', () => {
    const h = harness();
    h.apply({ kind: 'prompt_queued', data: { promptId: 'p1', text: 'hi', blocks: [{ type: 'text', text: 'hi' }], queuedAt: '' } }, { kind: 'prompt_sent', data: { promptId: 'p1' } });
    h.apply(h.update({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'hmm' } }));
    h.apply(h.update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hel' } }), h.update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'lo' } }));
    h.apply(h.update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x'.repeat(MAX_ITEM_TEXT + 10) } }));
    const items = h.items();
    expect(items.map((i) => i.kind)).toEqual(['user_message', 'agent_thought', 'agent_message', 'agent_message']);
    expect(items[0]).toMatchObject({ status: 'sent', turn: 1 });
    expect(items[2]).toMatchObject({ text: `Hello${'x'.repeat(MAX_ITEM_TEXT - 5)}`, continued: false });
    expect(items[3]).toMatchObject({ text: 'x'.repeat(15), continued: true });
    // a new messageId starts a new item
    h.apply(h.update({ sessionUpdate: 'agent_message_chunk', messageId: 'm2', content: { type: 'text', text: 'next' } }));
    expect(h.items().at(-1)).toMatchObject({ text: 'next', messageId: 'm2', continued: false });
  });

  it('merges tool call updates, replaces the plan within a turn and marks unfinished tools cancelled', () => {
    const h = harness();
    h.apply({ kind: 'prompt_queued', data: { promptId: 'p', text: 't', blocks: [], queuedAt: '' } }, { kind: 'prompt_sent', data: { promptId: 'p' } });
    h.apply(h.update({ sessionUpdate: 'tool_call', toolCallId: 'a', title: 'A', kind: 'read', status: 'pending' }));
    h.apply(h.update({ sessionUpdate: 'tool_call', toolCallId: 'b', title: 'B', kind: 'nonsense' }));
    h.apply(h.update({ sessionUpdate: 'tool_call_update', toolCallId: 'a', status: 'completed', locations: [{ path: '/w/x', line: 3 }] }));
    h.apply(h.update({ sessionUpdate: 'plan', entries: [{ content: 'one', priority: 'high', status: 'pending' }] }));
    h.apply(h.update({ sessionUpdate: 'plan', entries: [{ content: 'one', priority: 'high', status: 'completed' }, { content: 'two', priority: 'x', status: 'y' }] }));
    h.apply({ kind: 'turn_end', data: { stopReason: 'cancelled', error: null } });
    const items = h.items();
    expect(items.filter((i) => i.kind === 'plan')).toHaveLength(1);
    expect(items.find((i) => i.kind === 'plan')).toMatchObject({ entries: [{ status: 'completed' }, { content: 'two', priority: 'medium', status: 'pending' }] });
    expect(items.find((i) => i.kind === 'tool_call' && i.toolCallId === 'a')).toMatchObject({ status: 'completed', locations: [{ path: '/w/x', line: 3 }] });
    expect(items.find((i) => i.kind === 'tool_call' && i.toolCallId === 'b')).toMatchObject({ status: 'cancelled', toolKind: 'other' });
    expect(items.at(-1)).toMatchObject({ kind: 'stop', stopReason: 'cancelled' });
    expect(h.p.record.stopReason).toBe('cancelled');
  });

  it('records header data and resume outcomes as notices; ignores malformed updates', () => {
    const h = harness();
    h.apply(h.update({ sessionUpdate: 'usage_update', used: 5, size: 10, cost: { amount: 1, currency: 'USD' } }));
    h.apply(h.update({ sessionUpdate: 'session_info_update', title: '  Title  ' }));
    h.apply(h.update({ sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'fix', description: 'Fix', input: { hint: 'what' } }, { nope: 1 }] }));
    h.apply(h.update({ sessionUpdate: 'tool_call_update' }), h.update({ sessionUpdate: 'whatever' }), { kind: 'update', data: { update: null as never } });
    h.apply({ kind: 'resume', data: { outcome: 'replaced-by-new', message: 'stale', replayed: 0, imported: false } });
    expect(h.p.record).toMatchObject({ usage: { used: 5, size: 10, cost: { amount: 1, currency: 'USD' } }, title: 'Title', commands: [{ name: 'fix', hint: 'what' }], resume: { outcome: 'replaced-by-new', message: 'stale' } });
    expect(h.items()).toEqual([expect.objectContaining({ kind: 'notice', code: 'resume', severity: 'warning', outcome: 'replaced-by-new', detail: 'stale' })]);
  });

  it('interruption drops queued prompts, cancels pending permissions and open tool calls', () => {
    const h = harness();
    h.apply({ kind: 'prompt_queued', data: { promptId: 'p1', text: 'a', blocks: [], queuedAt: '' } }, { kind: 'prompt_sent', data: { promptId: 'p1' } });
    h.apply(h.update({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'T', status: 'in_progress' }));
    h.apply({ kind: 'permission_requested', data: { requestId: 'r', toolCall: { toolCallId: 't', title: 'Allow?' }, options: [{ optionId: 'y', name: 'Y', kind: 'allow_once' }] } });
    h.apply({ kind: 'prompt_queued', data: { promptId: 'p2', text: 'b', blocks: [], queuedAt: '' } });
    h.apply({ kind: 'interrupted', data: { reason: 'Atrium stopped' } });
    const byKind = (k: string) => h.items().filter((i) => i.kind === k);
    expect(byKind('tool_call')[0]).toMatchObject({ status: 'cancelled' });
    expect(byKind('permission')[0]).toMatchObject({ state: 'cancelled', answeredBy: 'shutdown', title: 'Allow?' });
    expect(byKind('user_message').map((u) => (u.kind === 'user_message' ? u.status : ''))).toEqual(['sent', 'dropped']);
  });

  it('puts a queued prompt into the transcript when its turn starts (after the running turn) or when it is dropped, marked so', () => {
    const h = harness();
    const queued = (promptId: string, text: string): JournalEvent => ({ kind: 'prompt_queued', data: { promptId, text, blocks: [{ type: 'text', text }], queuedAt: '' } });
    h.apply(queued('p1', 'one'), { kind: 'prompt_sent', data: { promptId: 'p1', text: 'one', blocks: [{ type: 'text', text: 'one' }] } });
    h.apply(h.update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'working' } }));
    h.apply(queued('p2', 'two'), queued('p3', 'three'), queued('p4', 'four'));
    expect(h.items().filter((i) => i.kind === 'user_message')).toHaveLength(1);
    h.apply(h.update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: ' Done.' } }));
    h.apply({ kind: 'turn_end', data: { stopReason: 'end_turn', error: null } });
    h.apply({ kind: 'prompt_dropped', data: { promptId: 'p3', reason: 'removed from the queue', text: 'three', blocks: [] } });
    h.apply({ kind: 'prompt_sent', data: { promptId: 'p2', text: 'two', blocks: [{ type: 'text', text: 'two' }] } });
    h.apply({ kind: 'turn_end', data: { stopReason: 'end_turn', error: null } });
    h.apply({ kind: 'prompt_dropped', data: { promptId: 'p4', reason: 'the agent exited', text: 'four', blocks: [] } });
    const seen = h.items().map((i) => (i.kind === 'user_message' ? `user:${i.text}:${i.status}:${i.turn}` : i.kind === 'agent_message' ? `agent:${i.text}` : i.kind));
    expect(seen).toEqual(['user:one:sent:1', 'agent:working Done.', 'stop', 'user:three:dropped:null', 'user:two:sent:2', 'stop', 'user:four:dropped:null']);
  });

  it('starts a new agent message after a permission answer, a file request or a terminal (text never runs together)', () => {
    const h = harness();
    const say = (text: string) => h.apply(h.update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } }));
    h.apply({ kind: 'prompt_queued', data: { promptId: 'p', text: 'write', blocks: [], queuedAt: '' } }, { kind: 'prompt_sent', data: { promptId: 'p' } });
    say("I'll put ");
    say('the notes in notes.md.');
    h.apply(h.update({ sessionUpdate: 'tool_call', toolCallId: 'w1', title: 'Write notes.md', kind: 'edit', status: 'pending' }));
    h.apply({ kind: 'permission_requested', data: { requestId: 'r', toolCall: { toolCallId: 'w1', title: 'Write notes.md' }, options: [{ optionId: 'allow', name: 'Allow once', kind: 'allow_once' }] } });
    h.apply({ kind: 'permission_answered', data: { requestId: 'r', outcome: 'selected', optionId: 'allow', by: 'user' } });
    say('permission: allow');
    // a tool call update of a known call changes that card in place and keeps the message open (as Zed does)
    h.apply(h.update({ sessionUpdate: 'tool_call_update', toolCallId: 'w1', status: 'in_progress' }));
    say(' (ok)');
    h.apply({ kind: 'fs_write', data: { path: '/w/notes.md', chars: 10 } });
    say('write ok');
    h.apply({ kind: 'fs_read', data: { path: '/w/notes.md', line: null, limit: null, chars: 10 } });
    say('read ok');
    h.apply({ kind: 'terminal_created', data: { terminalId: 't1', command: 'ls', args: [], cwd: null } });
    say('running');
    h.apply({ kind: 'terminal_exited', data: { terminalId: 't1', output: '', truncated: false, exitCode: 0, signal: null } });
    say('ran');
    const messages = h.items().filter((i) => i.kind === 'agent_message');
    expect(messages.map((m) => (m.kind === 'agent_message' ? m.text : ''))).toEqual([
      "I'll put the notes in notes.md.",
      'permission: allow (ok)',
      'write ok',
      'read ok',
      'running',
      'ran',
    ]);
    expect(messages.every((m) => m.kind === 'agent_message' && m.continued === false)).toBe(true);
  });

  /**
   * `session/request_permission` as Gemini CLI 0.61.0 sends it for `write_file` in its default
   * approval mode (recorded from the real CLI; bundle `runTool`): a full ToolCallUpdate for a call
   * no `tool_call` announced, then only a `tool_call_update` once the tool ran (`completed` with
   * title and locations, or `failed` with neither), and nothing when the answer rejects it.
   */
  const geminiWrite = (requestId: string, toolCallId = 'write_file__call_fake_1'): JournalEvent => ({
    kind: 'permission_requested',
    data: {
      requestId,
      toolCall: {
        toolCallId,
        kind: 'edit',
        status: 'pending',
        title: 'Writing to notes.md',
        content: [{ path: '/w/notes.md', oldText: '', newText: 'gemini notes\n', _meta: { kind: 'add' }, type: 'diff' }],
        locations: [{ path: '/w/notes.md' }],
      } as never,
      options: [
        { optionId: 'proceed_always', name: 'Allow for this session', kind: 'allow_always' },
        { optionId: 'proceed_once', name: 'Allow', kind: 'allow_once' },
        { optionId: 'cancel', name: 'Reject', kind: 'reject_once' },
      ],
      route: null,
    },
  });

  it('makes a tool call first seen in a permission request (Gemini CLI 0.61.0) a tool call item from the request (ACP v1 tool-calls: Requesting Permission, Updating)', () => {
    const h = harness();
    h.apply({ kind: 'prompt_queued', data: { promptId: 'p', text: 'write the notes', blocks: [], queuedAt: '' } }, { kind: 'prompt_sent', data: { promptId: 'p' } });
    h.apply(geminiWrite('r1'));
    const tool = () => h.items().filter((i) => i.kind === 'tool_call');
    expect(tool()).toEqual([
      expect.objectContaining({
        toolCallId: 'write_file__call_fake_1',
        title: 'Writing to notes.md',
        toolKind: 'edit',
        status: 'pending',
        turn: 1,
        locations: [{ path: '/w/notes.md', line: null }],
        content: [{ type: 'diff', path: '/w/notes.md', oldText: '', newText: 'gemini notes\n', truncated: false }],
      }),
    ]);
    // the card comes after its call, as with agents that announce the call first
    expect(h.items().map((i) => i.kind)).toEqual(['user_message', 'tool_call', 'permission']);
    expect(h.items()[2]).toMatchObject({ title: 'Writing to notes.md', toolKind: 'edit', toolCallId: 'write_file__call_fake_1' });

    // allowed: the agent reports progress; Gemini's failure update has no title or locations, which are kept
    h.apply({ kind: 'permission_answered', data: { requestId: 'r1', outcome: 'selected', optionId: 'proceed_once', by: 'user' } });
    expect(tool()[0]).toMatchObject({ status: 'pending', title: 'Writing to notes.md' });
    h.apply(h.update({ sessionUpdate: 'tool_call_update', toolCallId: 'write_file__call_fake_1', status: 'failed', content: [{ type: 'content', content: { type: 'text', text: 'EACCES' } }], kind: 'edit' }));
    expect(tool()).toHaveLength(1);
    expect(tool()[0]).toMatchObject({ status: 'failed', title: 'Writing to notes.md', toolKind: 'edit', locations: [{ path: '/w/notes.md', line: null }] });

    // rejected: Gemini sends nothing more, so the call must not stay pending
    h.apply(geminiWrite('r2', 'write_file__call_fake_2'));
    h.apply({ kind: 'permission_answered', data: { requestId: 'r2', outcome: 'selected', optionId: 'cancel', by: 'user' } });
    h.apply({ kind: 'turn_end', data: { stopReason: 'end_turn', error: null } });
    expect(tool()[1]).toMatchObject({ toolCallId: 'write_file__call_fake_2', title: 'Writing to notes.md', status: 'cancelled' });
  });

  it('a permission request for an announced call replaces the fields it carries; a rejected or cancelled request cancels its pending call, not one the agent reported running', () => {
    const h = harness();
    h.apply({ kind: 'prompt_queued', data: { promptId: 'p', text: 't', blocks: [], queuedAt: '' } }, { kind: 'prompt_sent', data: { promptId: 'p' } });
    // announced first, as claude-agent-acp does: an allow leaves the status to the agent
    h.apply(h.update({ sessionUpdate: 'tool_call', toolCallId: 'w', title: 'Write a.md', kind: 'edit', status: 'pending' }));
    h.apply({ kind: 'permission_requested', data: { requestId: 'rw', toolCall: { toolCallId: 'w', title: 'Write a.md' }, options: [{ optionId: 'y', name: 'Yes', kind: 'allow_always' }] } });
    h.apply({ kind: 'permission_answered', data: { requestId: 'rw', outcome: 'selected', optionId: 'y', by: 'user' } });
    expect(h.items().find((i) => i.kind === 'tool_call' && i.toolCallId === 'w')).toMatchObject({ status: 'pending' });
    // a request cancelled with its turn cancels its pending call
    h.apply(h.update({ sessionUpdate: 'tool_call', toolCallId: 'x', title: 'Delete b', kind: 'delete', status: 'pending' }));
    h.apply({ kind: 'permission_requested', data: { requestId: 'rx', toolCall: { toolCallId: 'x' }, options: [{ optionId: 'y', name: 'Yes', kind: 'allow_once' }] } });
    h.apply({ kind: 'permission_answered', data: { requestId: 'rx', outcome: 'cancelled', optionId: null, by: 'cancel' } });
    expect(h.items().find((i) => i.kind === 'tool_call' && i.toolCallId === 'x')).toMatchObject({ status: 'cancelled', title: 'Delete b' });
    h.apply(h.update({ sessionUpdate: 'tool_call', toolCallId: 'c', title: 'Run ls', kind: 'execute', status: 'in_progress', rawInput: { command: 'ls' } }));
    h.apply({ kind: 'permission_requested', data: { requestId: 'r', toolCall: { toolCallId: 'c', title: 'Run ls -la', locations: [{ path: '/w', line: 2 }] }, options: [{ optionId: 'n', name: 'No', kind: 'reject_once' }] } });
    h.apply({ kind: 'permission_answered', data: { requestId: 'r', outcome: 'selected', optionId: 'n', by: 'user' } });
    expect(h.items().find((i) => i.kind === 'tool_call' && i.toolCallId === 'c')).toMatchObject({ title: 'Run ls -la', toolKind: 'execute', status: 'in_progress', rawInput: '{"command":"ls"}', locations: [{ path: '/w', line: 2 }] });
    // a request without a tool call id adds no tool call item
    h.apply({ kind: 'permission_requested', data: { requestId: 'r2', toolCall: { title: 'Something' } as never, options: [] } });
    expect(h.items().filter((i) => i.kind === 'tool_call')).toHaveLength(3);
    expect(h.items().at(-1)).toMatchObject({ kind: 'permission', title: 'Something', toolCallId: null });
  });

  it('keeps a title the user set over agent titles; an agent title only fills an empty one and may then change', () => {
    const info = (title: unknown) => ({ kind: 'update', data: { update: { sessionUpdate: 'session_info_update', title } } }) as JournalEvent;
    // typed in the new-session dialog or given with --title: the agent's title never replaces it
    const typed = harness({ title: 'Handover test' });
    typed.apply(info('Write the notes'));
    expect(typed.p.record.title).toBe('Handover test');
    expect(typed.p.headerChanged).toBe(false);

    // no title: the agent fills it and may refine it; a rename wins from then on; clearing hands it back
    const empty = harness();
    empty.apply(info('Write the notes'));
    expect(empty.p.record.title).toBe('Write the notes');
    empty.apply(info('  Write the notes, then summarise  '), info(''), info(42));
    expect(empty.p.record.title).toBe('Write the notes, then summarise');
    empty.apply({ kind: 'title_set', data: { title: '  Mine  ' } });
    empty.apply(info('Agent again'));
    expect(empty.p.record.title).toBe('Mine');
    empty.apply({ kind: 'title_set', data: { title: '  ' } });
    // clearing brings back the agent's newest title, even one it reported while yours held
    expect(empty.p.record.title).toBe('Agent again');
    empty.apply(info('Agent once more'));
    expect(empty.p.record.title).toBe('Agent once more');

    // the agent never named it: clearing leaves no title (the UI shows "Session in <workspace>")
    const unnamed = harness({ title: 'Mine' });
    unnamed.apply({ kind: 'title_set', data: { title: '' } });
    expect(unnamed.p.record.title).toBeNull();
  });

  it('after a reload, clearing your title asks the log for the agent\'s newest title', () => {
    const asked: number[] = [];
    const reloaded = harness({ title: 'Mine', lastSeq: 12 }, () => false, (beforeSeq) => (asked.push(beforeSeq), 'Named by the agent'));
    reloaded.apply({ kind: 'title_set', data: { title: ' ' } });
    expect(reloaded.p.record.title).toBe('Named by the agent');
    expect(asked).toEqual([13]);
    const never = harness({ title: 'Mine', lastSeq: 3 }, () => false, () => null);
    never.apply({ kind: 'title_set', data: { title: '' } });
    expect(never.p.record.title).toBeNull();
  });

  it('after a reload asks the log once whether the stored title is the agent\'s', () => {
    const asked: Array<[string, number]> = [];
    const agents = harness({ title: 'From the agent', lastSeq: 7 }, (title, beforeSeq) => (asked.push([title, beforeSeq]), true));
    const info = (title: string) => ({ kind: 'update', data: { update: { sessionUpdate: 'session_info_update', title } } }) as JournalEvent;
    agents.apply(info('Newer agent title'), info('Newest agent title'));
    expect(agents.p.record.title).toBe('Newest agent title');
    expect(asked).toEqual([['From the agent', 7]]);
    const users = harness({ title: 'Typed by the user' }, () => false);
    users.apply(info('Agent title'));
    expect(users.p.record.title).toBe('Typed by the user');
  });
});
