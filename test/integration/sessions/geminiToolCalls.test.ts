import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/main/core/engine';
import { readInstallMarker } from '../../../src/main/core/sessions/installer';
import type { TranscriptItem } from '../../../src/shared/contract';
import { AGENT_CACHE, presetOf } from '../../support/agents';
import { endsWithFunctionResponse, lastUserText, type GeminiRequest } from '../../support/fakeGemini';
import { geminiWorld, type GeminiWorld } from '../../support/gemini';
import { items, lastTurnText } from '../../support/policy';
import { waitFor } from '../../support/sessions';

/**
 * Tool calls the real Gemini CLI 0.61.0 announces only through `session/request_permission`: in its
 * default approval mode it asks before `write_file` with a `toolCall` (id, title, kind, locations, a
 * diff) and sends no `tool_call` notification first (bundle `runTool`: `requestPermission`, then
 * only a `tool_call_update` once the tool ran, none at all when the answer rejected it). The
 * transcript's tool call item must carry the request's title, kind and locations, never the raw id.
 */

const marker = readInstallMarker(AGENT_CACHE, presetOf('gemini'));
const reason = marker ? '' : ` — skipped: Gemini CLI 0.61.0 is not installed in ${AGENT_CACHE} (set ATRIUM_TEST_AGENT_CACHE or run the *Real tests once)`;

let world: GeminiWorld | null = null;
afterEach(async () => {
  await world?.closeAll();
  world = null;
});

/** The fake model: a write_file of `notes.md` for "write the notes", then text. */
function replies(ws: () => string) {
  return (req: GeminiRequest) => {
    if (/write the notes/.test(lastUserText(req)) && !endsWithFunctionResponse(req)) {
      return { functionCall: { name: 'write_file', args: { file_path: path.join(ws(), 'notes.md'), content: 'gemini notes\n' } } };
    }
    return { text: 'done' };
  };
}

type Tool = Extract<TranscriptItem, { kind: 'tool_call' }>;
type Permission = Extract<TranscriptItem, { kind: 'permission' }>;

/** The toolCall of the session's first recorded `permission_requested` event, as the agent sent it. */
function requestedToolCall(engine: Engine, sessionId: string): { toolCallId: string; title: string; kind: string; locations: Array<{ path: string }> } {
  const row = engine.store.db.prepare("SELECT data FROM session_events WHERE session_id = ? AND kind = 'permission_requested' ORDER BY seq LIMIT 1").get(sessionId) as { data: string };
  return JSON.parse(row.data).toolCall;
}

/** Prompts "write the notes" and waits for Gemini's permission request; returns the pending request and its turn. */
async function askToWrite(engine: Engine, ws: string) {
  const s = engine.sessions.create({ cwd: ws, agentId: 'gemini' });
  const { promptId } = engine.sessions.prompt(s.id, 'please write the notes');
  const done = engine.sessions.waitForTurn(s.id, promptId);
  const pending = await waitFor(() => engine.sessions.show(s.id).permissions[0], 'the permission request', 90_000);
  return { id: s.id, pending, done };
}

describe.skipIf(!marker)(`Gemini CLI 0.61.0 tool calls first seen in a permission request (real agent, fake Gemini API)${reason}`, () => {
  it('shows the write as a tool call with the request\'s title, kind and locations while it waits, runs it after allow, and keeps them when Gemini reports completion', async () => {
    world = await geminiWorld(replies(() => world!.ws));
    const engine = world.openTrusted();
    const { id, pending, done } = await askToWrite(engine, world.ws);
    const asked = requestedToolCall(engine, id);
    // the fixture is what it claims: Gemini asked with a full toolCall and announced nothing before
    expect(asked).toMatchObject({ kind: 'edit', locations: [{ path: path.join(world.ws, 'notes.md') }] });
    expect(asked.title).not.toBe(asked.toolCallId);
    const updatesBefore = engine.store.db.prepare("SELECT count(*) AS n FROM session_events WHERE session_id = ? AND kind = 'update' AND data LIKE ?").get(id, `%${asked.toolCallId}%`) as { n: number };
    expect(updatesBefore.n, 'no tool_call notification before the request').toBe(0);

    const waiting = items(engine, id).find((i): i is Tool => i.kind === 'tool_call' && i.toolCallId === asked.toolCallId);
    expect(waiting).toMatchObject({ title: asked.title, toolKind: 'edit', status: 'pending', locations: [{ path: path.join(world.ws, 'notes.md'), line: null }] });
    expect(waiting!.content.some((c) => c.type === 'diff' && c.newText === 'gemini notes\n')).toBe(true);

    const allow = pending.options.find((o) => o.kind === 'allow_once')!;
    engine.sessions.answerPermission(id, pending.requestId, allow.optionId);
    expect(await done, lastTurnText(engine, id, { stops: true })).toBe('end_turn');
    expect(fs.readFileSync(path.join(world.ws, 'notes.md'), 'utf8')).toBe('gemini notes\n');
    const tools = items(engine, id).filter((i): i is Tool => i.kind === 'tool_call');
    expect(tools, 'one item for the call, not a second one titled by its id').toHaveLength(1);
    expect(tools[0]).toMatchObject({ toolCallId: asked.toolCallId, title: asked.title, toolKind: 'edit', status: 'completed' });
    const permission = items(engine, id).find((i): i is Permission => i.kind === 'permission')!;
    expect(permission).toMatchObject({ toolCallId: asked.toolCallId, title: asked.title, state: 'selected' });
    expect(permission.id).toBeGreaterThan(tools[0].id);
  }, 150_000);

  it('marks the write cancelled when the answer rejects it (Gemini sends no update for a call it does not run)', async () => {
    world = await geminiWorld(replies(() => world!.ws));
    const engine = world.openTrusted();
    const { id, pending, done } = await askToWrite(engine, world.ws);
    const asked = requestedToolCall(engine, id);
    const reject = pending.options.find((o) => o.kind === 'reject_once')!;
    engine.sessions.answerPermission(id, pending.requestId, reject.optionId);
    expect(await done, lastTurnText(engine, id, { stops: true })).toBe('end_turn');
    expect(fs.existsSync(path.join(world.ws, 'notes.md'))).toBe(false);
    const updates = engine.store.db.prepare("SELECT count(*) AS n FROM session_events WHERE session_id = ? AND kind = 'update' AND data LIKE ?").get(id, `%${asked.toolCallId}%`) as { n: number };
    expect(updates.n, 'Gemini reported nothing about the rejected call').toBe(0);
    const tools = items(engine, id).filter((i): i is Tool => i.kind === 'tool_call');
    expect(tools).toEqual([expect.objectContaining({ toolCallId: asked.toolCallId, title: asked.title, toolKind: 'edit', status: 'cancelled', locations: [{ path: path.join(world.ws, 'notes.md'), line: null }] })]);
  }, 150_000);
});
