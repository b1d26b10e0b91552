import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/main/core/engine';
import type { TranscriptItem } from '../../../src/shared/contract';
import { isAlive, record, sessionEngine, waitFor, type Scenario } from '../../support/sessions';
import { tempDir } from '../../support/tempDir';

const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
});

function setup(scenario: Scenario, options: { batchMs?: number; idleMs?: number } = {}) {
  const base = tempDir('atrium-sessions-');
  const ws = path.join(base, 'ws');
  fs.mkdirSync(ws);
  fs.writeFileSync(path.join(ws, 'README.md'), 'line1\nline2\nline3\nline4\n');
  const dataDir = path.join(base, 'data');
  const open = () => {
    const engine = sessionEngine(dataDir, base, scenario, options);
    engines.push(engine);
    return engine;
  };
  return { base, ws, dataDir, open };
}

/** Prompts and waits until the turn's stop item is durable; returns the stop reason. */
async function promptAndWait(engine: Engine, sessionId: string, text: string) {
  const { promptId } = engine.sessions.prompt(sessionId, text);
  return engine.sessions.waitForTurn(sessionId, promptId);
}

function items(engine: Engine, sessionId: string): TranscriptItem[] {
  return engine.sessions.transcript(sessionId, { limit: 1000 }).items;
}

const text = (all: TranscriptItem[]) =>
  all
    .filter((i) => i.kind === 'agent_message')
    .map((i) => (i.kind === 'agent_message' ? i.text : ''))
    .join('');

describe('sessions with the scripted ACP agent', () => {
  it('streams messages, tool calls and a plan into durable transcript items, pushed only after commit', async () => {
    const { ws, open } = setup({
      turns: [
        {
          match: 'go',
          steps: [
            { thought: 'thinking…' },
            { plan: [{ content: 'read', priority: 'high', status: 'in_progress' }, { content: 'answer', priority: 'low', status: 'pending' }] },
            { toolCall: { id: 't1', title: 'Read README', kind: 'read', status: 'pending', locations: [{ path: '{{cwd}}/README.md', line: 1 }] } },
            { toolUpdate: { id: 't1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'ok' } }] } },
            { plan: [{ content: 'read', priority: 'high', status: 'completed' }, { content: 'answer', priority: 'low', status: 'in_progress' }] },
            { text: 'Hello from the scripted agent.', chunks: 6 },
            { title: 'Scripted title' },
            { usage: { used: 120, size: 1000 } },
          ],
        },
      ],
    });
    const engine = open();
    const rec = record(engine);
    const durable: boolean[] = [];
    engine.bus.subscribe((event, payload) => {
      if (event !== 'sessionEvent') return;
      const p = payload as { sessionId: string; lastSeq: number; items: TranscriptItem[] };
      const count = engine.store.db.prepare('SELECT count(*) AS n FROM session_events WHERE session_id = ?').get(p.sessionId) as { n: number };
      const stored = p.items.every((i) => engine.store.db.prepare('SELECT 1 FROM session_items WHERE session_id = ? AND item = ?').get(p.sessionId, i.id));
      durable.push(count.n >= p.lastSeq && stored);
    });
    const s = engine.sessions.create({ cwd: ws, agentId: 'scripted' });
    expect(s.state).toBe('starting');
    await engine.sessions.resume(s.id);
    expect(await promptAndWait(engine, s.id, 'go')).toBe('end_turn');
    const all = items(engine, s.id);
    // a user-defined agent Atrium cannot identify: the session starts by saying it cannot enforce approvals for it
    expect(all.map((i) => i.kind)).toEqual(['notice', 'user_message', 'agent_thought', 'plan', 'tool_call', 'agent_message', 'stop']);
    expect(all[0]).toMatchObject({ kind: 'notice', code: 'agent_not_isolated' });
    expect(text(all)).toBe('Hello from the scripted agent.');
    const plan = all.find((i) => i.kind === 'plan');
    expect(plan?.kind === 'plan' && plan.entries.map((e) => e.status)).toEqual(['completed', 'in_progress']);
    const tool = all.find((i) => i.kind === 'tool_call');
    expect(tool?.kind === 'tool_call' && [tool.status, tool.locations[0].path, tool.content[0].type]).toEqual(['completed', path.join(ws, 'README.md'), 'content']);
    const shown = engine.sessions.show(s.id);
    expect([shown.state, shown.title, shown.usage?.used, shown.stopReason, shown.live]).toEqual(['idle', 'Scripted title', 120, 'end_turn', true]);
    expect(durable.length).toBeGreaterThan(0);
    expect(durable.every(Boolean)).toBe(true);
    // the workspace was added for the folder
    expect(engine.workspaces.list().map((w) => w.path)).toEqual([ws]);
    expect(rec.of('sessionUpdated').some((p) => p.session.state === 'busy')).toBe(true);
  });

  it('persists a permission request as pending, shows it, and returns the chosen option; nothing is auto-allowed', async () => {
    const { ws, open } = setup({
      turns: [
        {
          match: 'edit',
          steps: [
            { toolCall: { id: 'w1', title: 'Edit notes', kind: 'edit', status: 'pending', locations: [{ path: '{{cwd}}/notes.md' }], content: [{ type: 'diff', path: '{{cwd}}/notes.md', oldText: null, newText: 'hello\n' }] } },
            { permission: { toolCallId: 'w1', title: 'Edit notes', kind: 'edit', options: [{ optionId: 'yes', name: 'Yes', kind: 'allow_once' }, { optionId: 'always', name: 'Always', kind: 'allow_always' }, { optionId: 'no', name: 'No', kind: 'reject_once' }] } },
          ],
        },
      ],
    });
    const engine = open();
    const rec = record(engine);
    const s = engine.sessions.create({ cwd: ws, agentId: 'scripted' });
    const { promptId } = engine.sessions.prompt(s.id, 'edit please');
    const pending = await waitFor(() => engine.sessions.show(s.id).permissions[0], 'a pending permission');
    expect(engine.sessions.show(s.id).state).toBe('awaiting_permission');
    expect(pending.title).toBe('Edit notes');
    expect(pending.toolKind).toBe('edit');
    expect(pending.locations.map((l) => l.path)).toEqual([path.join(ws, 'notes.md')]);
    expect(pending.content[0]).toMatchObject({ type: 'diff', newText: 'hello\n' });
    expect(pending.options.map((o) => o.optionId)).toEqual(['yes', 'always', 'no']);
    expect(rec.of('permissionRequested').map((p) => p.permission.requestId)).toEqual([pending.requestId]);
    // stored as pending in SQLite before anyone answered
    const row = engine.store.db.prepare("SELECT status FROM session_items WHERE session_id = ? AND ref = ?").get(s.id, pending.requestId) as { status: string };
    expect(row.status).toBe('pending');
    expect(() => engine.sessions.answerPermission(s.id, pending.requestId, 'maybe')).toThrow(/not one of the agent's options/);
    const answered = engine.sessions.answerPermission(s.id, pending.requestId, 'no');
    expect([answered.state, answered.optionId, answered.answeredBy]).toEqual(['selected', 'no', 'user']);
    expect(await engine.sessions.waitForTurn(s.id, promptId)).toBe('end_turn');
    expect(text(items(engine, s.id))).toContain('permission: no');
    expect(() => engine.sessions.answerPermission(s.id, pending.requestId, 'yes')).toThrow(/No pending permission/);
  });

  it('reads with line/limit, writes atomically, and refuses paths outside the session (also through symlinks)', async () => {
    const outside = tempDir('atrium-outside-');
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret');
    const { ws, open } = setup({
      turns: [
        {
          match: 'files',
          steps: [
            { read: { path: '{{cwd}}/README.md', line: 2, limit: 2 } },
            { write: { path: '{{cwd}}/sub/new.txt', content: 'written by agent' } },
            { text: '\n' },
            { read: { path: `${outside}/secret.txt` } },
            { text: '\n' },
            { read: { path: '{{cwd}}/link/secret.txt' } },
            { text: '\n' },
            { write: { path: '{{cwd}}/link/evil.txt', content: 'x' } },
            { text: '\n' },
            { read: { path: 'relative.txt' } },
          ],
        },
      ],
    });
    fs.symlinkSync(outside, path.join(ws, 'link'));
    const engine = open();
    const s = engine.sessions.create({ cwd: ws, agentId: 'scripted' });
    expect(await promptAndWait(engine, s.id, 'files')).toBe('end_turn');
    const out = text(items(engine, s.id)).split('\n');
    expect(out[0]).toBe('read: line2');
    expect(out[1]).toBe('line3');
    expect(out[2]).toBe('write ok');
    expect(fs.readFileSync(path.join(ws, 'sub/new.txt'), 'utf8')).toBe('written by agent');
    expect(fs.readdirSync(path.join(ws, 'sub'))).toEqual(['new.txt']); // no temp file left
    expect(out[3]).toContain(`read error: Refused to read "${outside}/secret.txt"`);
    expect(out[4]).toContain(`Refused to read "${path.join(ws, 'link/secret.txt')}" (resolves to "${path.join(outside, 'secret.txt')}")`);
    expect(out[5]).toContain(`write error: Refused to write "${path.join(ws, 'link/evil.txt')}"`);
    expect(fs.existsSync(path.join(outside, 'evil.txt'))).toBe(false);
    expect(out[6]).toContain('must be absolute');
    const notices = items(engine, s.id).filter((i) => i.kind === 'notice' && i.code === 'fs_refused');
    expect(notices).toHaveLength(4);
  });

  it('runs terminals confined to the session, caps output at outputByteLimit and kills the tree', async () => {
    const { ws, open } = setup({
      turns: [
        {
          match: 'term',
          steps: [
            { terminal: { command: process.execPath, args: ['-e', "process.stdout.write('abcdefghij'.repeat(10)); process.exit(3)"], outputByteLimit: 25 } },
            { text: '\n' },
            { terminal: { command: process.execPath, args: ['-e', "const c = require('child_process').spawn(process.execPath,['-e','setInterval(()=>{},1000)'],{stdio:'inherit'}); console.log('started', c.pid); setInterval(()=>{},1000)"], kill: true, killAfterMs: 600 } },
            { text: '\n' },
            { terminal: { command: 'pwd', cwd: '/' } },
            { text: '\n' },
            { terminal: { command: 'echo from-shell && echo $0' } },
          ],
        },
      ],
    });
    const engine = open();
    const s = engine.sessions.create({ cwd: ws, agentId: 'scripted' });
    expect(await promptAndWait(engine, s.id, 'term')).toBe('end_turn');
    const out = text(items(engine, s.id)).split('\n');
    expect(out[0]).toBe(`terminal exit=3 signal=null truncated=true output=${JSON.stringify('abcdefghij'.repeat(10).slice(-25))}`);
    const grandchild = /^terminal exit=null signal=SIGKILL truncated=false output="started (\d+)\\n"$/.exec(out[1]);
    expect(grandchild).not.toBeNull();
    await waitFor(() => !isAlive(Number(grandchild![1])), 'the terminal\'s grandchild to be killed with its group');
    expect(out[2]).toContain('terminal error: Refused to run a terminal in "/"');
    expect(out[3]).toContain('from-shell');
    // the terminal's tail is kept for the UI after release
    const terminalId = (items(engine, s.id).find((i) => i.kind === 'tool_call') as Extract<TranscriptItem, { kind: 'tool_call' }>).content[0];
    expect(terminalId.type).toBe('terminal');
    if (terminalId.type === 'terminal') expect(engine.sessions.terminalOutput(s.id, terminalId.terminalId).exitStatus?.exitCode).toBe(3);
    // every terminal was released: the agent has no child processes left
    const pid = engine.sessions.show(s.id).diagnostics.pid!;
    const children = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p) && readPpid(Number(p)) === pid);
    expect(children).toEqual([]);
  });

  it('cancel bypasses the queue, answers a pending permission `cancelled` and ends the turn `cancelled`', async () => {
    const { ws, open } = setup({
      turns: [
        { match: 'stream', steps: [{ streamUntilCancelled: { intervalMs: 5, text: 'tick' } }] },
        { match: 'ask', steps: [{ permission: { title: 'Dangerous' } }, { text: 'never' }] },
      ],
    });
    const engine = open();
    const s = engine.sessions.create({ cwd: ws, agentId: 'scripted' });
    const first = engine.sessions.prompt(s.id, 'stream please');
    const second = engine.sessions.prompt(s.id, 'ask me');
    expect(second.position).toBe(1);
    await waitFor(() => text(items(engine, s.id)).includes('tick3'), 'streaming');
    expect(engine.sessions.show(s.id).queue.map((q) => q.text)).toEqual(['ask me']);
    engine.sessions.cancel(s.id);
    expect(await engine.sessions.waitForTurn(s.id, first.promptId)).toBe('cancelled');
    const pending = await waitFor(() => engine.sessions.show(s.id).permissions[0], 'the queued prompt asks');
    engine.sessions.cancel(s.id);
    expect(await engine.sessions.waitForTurn(s.id, second.promptId)).toBe('cancelled');
    const perm = items(engine, s.id).find((i) => i.kind === 'permission' && i.requestId === pending.requestId);
    expect(perm).toMatchObject({ state: 'cancelled', answeredBy: 'cancel' });
    expect(text(items(engine, s.id))).not.toContain('never');
    const stops = items(engine, s.id).filter((i) => i.kind === 'stop').map((i) => (i.kind === 'stop' ? i.stopReason : ''));
    expect(stops).toEqual(['cancelled', 'cancelled']);
    expect(engine.sessions.show(s.id).state).toBe('idle');
  });

  it('cancel with clearQueue drops queued prompts; dequeue removes one', async () => {
    const { ws, open } = setup({ turns: [{ match: 'wait', steps: [{ waitForCancel: true }] }] });
    const engine = open();
    const s = engine.sessions.create({ cwd: ws, agentId: 'scripted' });
    const a = engine.sessions.prompt(s.id, 'wait');
    const b = engine.sessions.prompt(s.id, 'b');
    const c = engine.sessions.prompt(s.id, 'c');
    await waitFor(() => engine.sessions.show(s.id).state === 'busy', 'busy');
    expect(engine.sessions.dequeue(s.id, b.promptId).removed).toBe(true);
    expect(engine.sessions.show(s.id).queue.map((q) => q.text)).toEqual(['c']);
    engine.sessions.cancel(s.id, true);
    expect(await engine.sessions.waitForTurn(s.id, a.promptId)).toBe('cancelled');
    const users = items(engine, s.id).filter((i) => i.kind === 'user_message');
    // b (removed) and c (dropped by the cancel) enter the transcript when they leave the queue, as not sent
    expect(users.map((u) => (u.kind === 'user_message' ? `${u.text}:${u.status}` : ''))).toEqual(['wait:sent', 'b:dropped', 'c:dropped']);
    expect(c.position).toBe(2);
  });

  it('a prompt sent during a turn enters the transcript and the journal after that turn, when its own turn starts', async () => {
    const { ws, open } = setup({
      turns: [
        { match: 'first', steps: [{ text: 'working on the first' }, { sleep: 600 }, { text: ' — Done.' }] },
        { match: 'second', steps: [{ text: 'answer to the second' }] },
      ],
    });
    let engine = open();
    const s = engine.sessions.create({ cwd: ws, agentId: 'scripted' });
    const first = engine.sessions.prompt(s.id, 'first');
    await waitFor(() => text(items(engine, s.id)).includes('working on the first'), 'the first turn to stream');
    const second = engine.sessions.prompt(s.id, 'second');
    expect(second.position).toBe(1);
    // while it waits it is in the queue only
    expect(engine.sessions.show(s.id).queue.map((q) => q.text)).toEqual(['second']);
    expect(items(engine, s.id).filter((i) => i.kind === 'user_message').map((i) => (i.kind === 'user_message' ? i.text : ''))).toEqual(['first']);
    expect(await engine.sessions.waitForTurn(s.id, first.promptId)).toBe('end_turn');
    expect(await engine.sessions.waitForTurn(s.id, second.promptId)).toBe('end_turn');
    const order = (all: TranscriptItem[]) =>
      all
        .filter((i) => i.kind !== 'notice')
        .map((i) => (i.kind === 'user_message' ? `user:${i.text}:${i.status}:${i.turn}` : i.kind === 'agent_message' ? `agent:${i.text}` : i.kind === 'stop' ? `stop:${i.turn}` : i.kind));
    const expected = ['user:first:sent:1', 'agent:working on the first — Done.', 'stop:1', 'user:second:sent:2', 'agent:answer to the second', 'stop:2'];
    expect(order(items(engine, s.id))).toEqual(expected);
    // the stored transcript, read by a new engine, keeps that order
    await engine.close();
    engine = open();
    expect(order(items(engine, s.id))).toEqual(expected);
  });

  it('session/load replays history that is recognised and not stored again', async () => {
    const { ws, open } = setup({ capabilities: { loadSession: true }, turns: [{ match: 'one', steps: [{ text: 'first answer' }, { toolCall: { id: 'x', title: 'X', status: 'completed' } }] }] });
    let engine = open();
    const s = engine.sessions.create({ cwd: ws, agentId: 'scripted' });
    expect(await promptAndWait(engine, s.id, 'one')).toBe('end_turn');
    const before = items(engine, s.id);
    await engine.close();
    engine = open();
    expect(engine.sessions.show(s.id)).toMatchObject({ state: 'idle', live: false });
    expect(await promptAndWait(engine, s.id, 'two')).toBe('end_turn');
    const shown = engine.sessions.show(s.id);
    expect(shown.resume?.outcome).toBe('loaded');
    const after = items(engine, s.id);
    // the old items are untouched, then: the resume notice, the prompt (sent once the agent is back), the new turn
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length).map((i) => i.kind)).toEqual(['notice', 'user_message', 'agent_message', 'stop']);
    const notice = after[before.length];
    expect(notice.kind === 'notice' && [notice.outcome, notice.title]).toEqual(['loaded', expect.stringContaining('3 replayed updates recognised, not stored again')]);
    expect(after.filter((i) => i.kind === 'agent_message' && i.text === 'first answer')).toHaveLength(1);
    const updates = engine.store.db.prepare("SELECT count(*) AS n FROM session_events WHERE session_id = ? AND kind = 'update' AND data LIKE '%first answer%'").get(s.id) as { n: number };
    expect(updates.n).toBe(1);
  });

  it('session/resume re-attaches without replay; a stale id falls back to session/new with outcome replaced-by-new', async () => {
    const { ws, open } = setup({ capabilities: { loadSession: true, resume: true } });
    let engine = open();
    const s = engine.sessions.create({ cwd: ws, agentId: 'scripted' });
    expect(await promptAndWait(engine, s.id, 'hi')).toBe('end_turn');
    const agentSessionId = engine.sessions.show(s.id).agentSessionId;
    await engine.close();
    engine = open();
    const resumed = await engine.sessions.resume(s.id);
    expect([resumed.resume?.outcome, resumed.agentSessionId, resumed.state]).toEqual(['resumed', agentSessionId, 'idle']);
    await engine.close();

    // the agent forgot its sessions: -32002 on resume and load → new session, said so
    const stale = setup({ capabilities: { loadSession: true, resume: true }, persist: false });
    engine = stale.open();
    const t = engine.sessions.create({ cwd: stale.ws, agentId: 'scripted' });
    expect(await promptAndWait(engine, t.id, 'hi')).toBe('end_turn');
    const oldId = engine.sessions.show(t.id).agentSessionId;
    await engine.close();
    engine = stale.open();
    expect(await promptAndWait(engine, t.id, 'again')).toBe('end_turn');
    const shown = engine.sessions.show(t.id);
    expect(shown.resume?.outcome).toBe('replaced-by-new');
    expect(shown.resume?.message).toMatch(/session\/resume failed: Resource not found \(-32002\).*session\/load failed: Resource not found/);
    expect(shown.agentSessionId).not.toBe(oldId);
    const notice = items(engine, t.id).find((i) => i.kind === 'notice' && i.code === 'resume');
    expect(notice).toMatchObject({ severity: 'warning', outcome: 'replaced-by-new' });
    expect(text(items(engine, t.id))).toContain('echo: again');
  });

  it('an agent crash mid-turn fails the session with exit status and stderr tail, without restarting it', async () => {
    const { ws, open } = setup({ capabilities: { loadSession: true }, turns: [{ match: 'crash', steps: [{ text: 'about to crash' }, { sleep: 50 }, { crash: { exitCode: 7, stderr: 'fatal: scripted crash' } }] }] });
    const engine = open();
    const s = engine.sessions.create({ cwd: ws, agentId: 'scripted' });
    await engine.sessions.resume(s.id);
    const pid = engine.sessions.show(s.id).diagnostics.pid!;
    expect(await promptAndWait(engine, s.id, 'crash now')).toBe('crashed');
    const shown = await waitFor(() => {
      const x = engine.sessions.show(s.id);
      return x.state === 'failed' ? x : null;
    }, 'failed state');
    expect(shown.exit).toMatchObject({ code: 7, signal: null });
    expect(shown.lastError).toContain('exit code 7');
    expect(shown.diagnostics.stderrTail).toContain('fatal: scripted crash');
    expect(shown.live).toBe(false);
    const all = items(engine, s.id);
    expect(all.find((i) => i.kind === 'stop')).toMatchObject({ stopReason: 'crashed' });
    expect(all.find((i) => i.kind === 'notice' && i.code === 'agent_exit')).toMatchObject({ severity: 'error', detail: expect.stringContaining('fatal: scripted crash') });
    expect(isAlive(pid)).toBe(false);
    // no restart loop: still failed, no new process
    expect(engine.sessions.show(s.id).diagnostics.pid).toBeNull();
    // the user may resume explicitly
    expect(await promptAndWait(engine, s.id, 'hello')).toBe('end_turn');
    expect(engine.sessions.show(s.id).state).toBe('idle');
  });

  it('stores 10 MB of streamed output in bounded items without losing a byte', async () => {
    const bytes = 10 * 1024 * 1024;
    const { ws, open } = setup({ turns: [{ match: 'big', steps: [{ stream: { bytes, chunkBytes: 8192 } }] }] }, { batchMs: 25 });
    const engine = open();
    const s = engine.sessions.create({ cwd: ws, agentId: 'scripted' });
    expect(await promptAndWait(engine, s.id, 'big')).toBe('end_turn');
    const page = engine.sessions.transcript(s.id, { limit: 1000 });
    const messages = page.items.filter((i) => i.kind === 'agent_message');
    const total = messages.reduce((n, i) => n + (i.kind === 'agent_message' ? i.text.length : 0), 0);
    expect(total).toBe(Math.ceil(bytes / 8192) * 8192);
    expect(Math.max(...messages.map((i) => (i.kind === 'agent_message' ? i.text.length : 0)))).toBeLessThanOrEqual(32 * 1024);
    expect(messages.slice(1).every((i) => i.kind === 'agent_message' && i.continued)).toBe(true);
    const events = engine.store.db.prepare("SELECT count(*) AS n FROM session_events WHERE session_id = ? AND kind = 'update'").get(s.id) as { n: number };
    expect(events.n).toBe(Math.ceil(bytes / 8192));
  }, 120_000);

  it('closes a session by killing the agent process tree; close and quit leave it resumable', async () => {
    const { ws, open } = setup({ capabilities: { resume: true, close: true } });
    const engine = open();
    const s = engine.sessions.create({ cwd: ws, agentId: 'scripted' });
    await engine.sessions.resume(s.id);
    const pid = engine.sessions.show(s.id).diagnostics.pid!;
    expect(isAlive(pid)).toBe(true);
    const closed = await engine.sessions.closeSession(s.id);
    expect([closed.state, closed.live]).toEqual(['closed', false]);
    expect(isAlive(pid)).toBe(false);
    const again = await engine.sessions.resume(s.id);
    expect([again.state, again.resume?.outcome]).toEqual(['idle', 'resumed']);
  });

  it('stops an idle agent after the idle time and resumes it transparently with the next prompt', async () => {
    const { ws, open } = setup({ capabilities: { resume: true } }, { idleMs: 300 });
    const engine = open();
    const s = engine.sessions.create({ cwd: ws, agentId: 'scripted' });
    expect(await promptAndWait(engine, s.id, 'one')).toBe('end_turn');
    const pid = engine.sessions.show(s.id).diagnostics.pid!;
    await waitFor(() => !engine.sessions.show(s.id).live && !isAlive(pid), 'idle shutdown');
    expect(engine.sessions.show(s.id).state).toBe('idle');
    expect(await promptAndWait(engine, s.id, 'two')).toBe('end_turn');
    expect(engine.sessions.show(s.id).resume?.outcome).toBe('resumed');
  });

  it('quitting Atrium mid-turn kills the agent tree and leaves the session interrupted and resumable', async () => {
    const { ws, open } = setup({ capabilities: { resume: true }, turns: [{ match: 'wait', steps: [{ text: 'working' }, { waitForCancel: true }] }] });
    let engine = open();
    const s = engine.sessions.create({ cwd: ws, agentId: 'scripted' });
    const { promptId } = engine.sessions.prompt(s.id, 'wait');
    await waitFor(() => text(items(engine, s.id)).includes('working'), 'the turn to start');
    const pid = engine.sessions.show(s.id).diagnostics.pid!;
    const queued = engine.sessions.prompt(s.id, 'queued behind');
    await engine.close();
    expect(isAlive(pid)).toBe(false);
    expect(await engine.sessions.waitForTurn(s.id, queued.promptId)).toBe('dropped');
    expect(await engine.sessions.waitForTurn(s.id, promptId)).toBe('cancelled');
    engine = open();
    // the prompt that never ran keeps its text in the transcript, after the interrupted turn, marked dropped
    const users = items(engine, s.id).filter((i) => i.kind === 'user_message');
    expect(users.map((u) => (u.kind === 'user_message' ? `${u.text}:${u.status}` : ''))).toEqual(['wait:sent', 'queued behind:dropped']);
    const shown = engine.sessions.show(s.id);
    expect([shown.state, shown.live]).toEqual(['interrupted', false]);
    expect(items(engine, s.id).find((i) => i.kind === 'notice' && i.code === 'interrupted')).toMatchObject({ title: expect.stringContaining('Atrium quit during a turn') });
    expect((await engine.sessions.resume(s.id)).state).toBe('idle');
  });

  it('switches modes and config options the agent offers, and refuses others', async () => {
    const { ws, open } = setup({
      modes: { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'code', name: 'Code' }] },
      configOptions: [{ id: 'model', name: 'Model', type: 'select', currentValue: 'a', options: [{ value: 'a', name: 'A' }, { value: 'b', name: 'B' }] }],
    });
    const engine = open();
    const s = engine.sessions.create({ cwd: ws, agentId: 'scripted', modeId: 'code' });
    const started = await engine.sessions.resume(s.id);
    expect(started.modes?.currentModeId).toBe('code');
    expect((await engine.sessions.setMode(s.id, 'ask')).modes?.currentModeId).toBe('ask');
    await expect(engine.sessions.setMode(s.id, 'yolo')).rejects.toThrow(/offers no mode "yolo"/);
    const configured = await engine.sessions.setConfigOption(s.id, 'model', 'b');
    expect(configured.configOptions[0].currentValue).toBe('b');
  });

  it('adopts a session the agent lists (session/list) and loads its history once', async () => {
    const { ws, open, base } = setup({ capabilities: { loadSession: true, list: true } });
    let engine = open();
    const s = engine.sessions.create({ cwd: ws, agentId: 'scripted' });
    expect(await promptAndWait(engine, s.id, 'outside history')).toBe('end_turn');
    const agentSessionId = engine.sessions.show(s.id).agentSessionId!;
    await engine.close();
    // a second Atrium data dir that never saw the session: it was "started outside"
    engine = sessionEngine(path.join(base, 'data2'), base, { capabilities: { loadSession: true, list: true } });
    engines.push(engine);
    const listed = await engine.sessions.agentSessions({ cwd: ws, agentId: 'scripted' });
    expect(listed.supported).toBe(true);
    expect(listed.sessions.map((x) => [x.agentSessionId, x.adoptedAs])).toEqual([[agentSessionId, null]]);
    const adopted = await engine.sessions.adopt({ cwd: ws, agentId: 'scripted', agentSessionId });
    expect(adopted.resume?.outcome).toBe('loaded');
    const all = items(engine, adopted.id);
    expect(all.filter((i) => i.kind === 'user_message').map((i) => (i.kind === 'user_message' ? [i.text, i.status] : []))).toEqual([['outside history', 'replayed']]);
    expect(text(all)).toBe('echo: outside history');
    const again = await engine.sessions.agentSessions({ cwd: ws, agentId: 'scripted' });
    expect(again.sessions[0].adoptedAs).toBe(adopted.id);
  });

  it('survives malformed updates and unknown agents without crashing the engine', async () => {
    const { ws, open } = setup({
      turns: [{ match: 'bad', steps: [{ update: { sessionUpdate: 'tool_call_update', toolCallId: 'ghost', status: 'bogus' } }, { update: { sessionUpdate: 'something_new', x: 1 } }, { text: 'still fine' }] }],
    });
    const engine = open();
    expect(() => engine.sessions.create({ cwd: ws, agentId: 'nope' })).toThrow(/No agent "nope"/);
    expect(() => engine.sessions.create({ cwd: ws, agentId: 'claude' })).toThrow(/not installed/);
    const s = engine.sessions.create({ cwd: ws, agentId: 'scripted' });
    expect(await promptAndWait(engine, s.id, 'bad')).toBe('end_turn');
    expect(text(items(engine, s.id))).toBe('still fine');
    engine.sessions.agents.define({ id: 'missing', command: '/nonexistent/agent', args: [], env: {} });
    const m = engine.sessions.create({ cwd: ws, agentId: 'missing' });
    const failed = await engine.sessions.resume(m.id);
    expect(failed.state).toBe('failed');
    expect(failed.lastError).toMatch(/ENOENT|could not be started|Cannot start/);
  });
});

function readPpid(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}
