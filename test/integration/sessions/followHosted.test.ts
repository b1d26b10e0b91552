import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { RemoteAtrium } from '../../../src/main/cli/remote';
import { DATABASE_FILE } from '../../../src/main/core/store/database';
import type { Session, TranscriptItem } from '../../../src/shared/contract';
import { spawnCli, startServe, stopSpawned, type Background } from '../../support/cli';
import { sessionEngine, waitFor, type Scenario } from '../../support/sessions';
import { tempDir } from '../../support/tempDir';

/**
 * A terminal (`atrium session new … --prompt`) hosts a session while `atrium serve` shows it: serve's
 * clients follow the stream from the database (pushed `sessionEvent`s with the growing text), the
 * session reads as hosted elsewhere (the terminal's pid) until the terminal ends, then the final
 * state and text are pushed.
 */

const clients: RemoteAtrium[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await stopSpawned();
});

/** `atrium serve` on `dataDir` (random port), once its server.json is written; a client connected to it. */
async function serveWithClient(dataDir: string, env: NodeJS.ProcessEnv = process.env): Promise<{ serve: Background; client: RemoteAtrium; origin: string }> {
  const { serve, info } = await startServe(dataDir, env);
  const client = await RemoteAtrium.connect(info.origin, info.token);
  clients.push(client);
  return { serve, client, origin: info.origin };
}

/** A workspace, a data dir with the scripted agent defined as `scripted` (by a short-lived engine, closed before the test's processes start). */
async function scriptedWorld(scenario: Scenario) {
  const base = tempDir('atrium-hosts-');
  const ws = path.join(base, 'ws');
  fs.mkdirSync(ws);
  const dataDir = path.join(base, 'data');
  const setup = sessionEngine(dataDir, base, scenario);
  await setup.close();
  return { base, ws, dataDir };
}

const TICKS = 300;
const expectedTicks = Array.from({ length: TICKS }, (_, i) => `tick${i} `).join('');

/** The agent message text as stored (chunk rows applied), read-only. */
function storedText(dataDir: string, sessionId: string): string {
  const db = new Database(path.join(dataDir, DATABASE_FILE), { readonly: true, fileMustExist: true });
  try {
    const items = (db.prepare('SELECT item, data FROM session_items WHERE session_id = ? ORDER BY item').all(sessionId) as Array<{ item: number; data: string }>).map((r) => JSON.parse(r.data) as TranscriptItem);
    const chunks = db.prepare('SELECT item, text FROM session_item_chunks WHERE session_id = ? ORDER BY item, seq').all(sessionId) as Array<{ item: number; text: string }>;
    return items
      .filter((i) => i.kind === 'agent_message')
      .map((i) => (i.kind === 'agent_message' ? i.text + chunks.filter((c) => c.item === i.id).map((c) => c.text).join('') : ''))
      .join('');
  } finally {
    db.close();
  }
}

describe('atrium serve follows a session a terminal hosts', () => {
  it('pushes the growing text while the terminal streams, names the terminal as host, and the final state after it ends', async () => {
    const { ws, dataDir } = await scriptedWorld({ turns: [{ match: '^a long job', steps: [{ streamUntilCancelled: { intervalMs: 25, text: 'tick', maxChunks: TICKS } }] }] });
    const host = spawnCli(['session', 'new', ws, '--agent', 'scripted', '--prompt', 'a long job', '--data-dir', dataDir, '--json']);
    const first = await waitFor(() => host.lines().find((l) => typeof l.sessionId === 'string' && JSON.stringify(l).includes('tick3 ')), `the terminal's session to stream (${host.stderr()})`, 60_000);
    const sessionId = first.sessionId as string;

    const { serve, client } = await serveWithClient(dataDir);
    const texts: string[] = [];
    const headers: Session[] = [];
    client.subscribe((event, payload) => {
      if (event === 'sessionEvent') {
        const p = payload as { sessionId: string; items: TranscriptItem[] };
        if (p.sessionId !== sessionId) return;
        for (const i of p.items) if (i.kind === 'agent_message') texts.push(i.text);
      } else if (event === 'sessionUpdated') {
        const p = payload as { session: Session };
        if (p.session.id === sessionId) headers.push(p.session);
      }
    });
    // what a browser tab does when it opens the session
    const shown = await client.call('sessions.show', { sessionId });
    expect(shown.session.hostedElsewhere).toMatchObject({ kind: 'cli', pid: host.child.pid, origin: null });
    expect(shown.session.hostedElsewhere?.description).toContain(`a terminal (an atrium session command, pid ${host.child.pid})`);
    const listed = await client.call('sessions.list', {});
    expect(listed.sessions.find((s) => s.id === sessionId)?.hostedElsewhere?.pid).toBe(host.child.pid);
    const page = await client.call('sessions.transcript', { sessionId, limit: 50 });
    const opened = page.items.filter((i) => i.kind === 'agent_message').map((i) => (i.kind === 'agent_message' ? i.text : '')).join('');

    // pushed while the terminal streams: the same message, longer each time
    await waitFor(() => new Set(texts).size >= 2 && host.child.exitCode === null, `serve to push the growing text (${serve.stderr()})`, 60_000);
    const distinct = [...new Set(texts)];
    expect(distinct[0].length).toBeGreaterThanOrEqual(opened.length);
    for (let i = 1; i < distinct.length; i++) expect(distinct[i].startsWith(distinct[i - 1])).toBe(true);
    expect(headers.some((h) => h.hostedElsewhere?.pid === host.child.pid)).toBe(true);

    const { status } = await host.exited;
    expect(status, host.stderr()).toBe(0);
    // the end is pushed too: the whole text, and a header that names no host
    await waitFor(() => texts.at(-1) === expectedTicks && headers.some((h) => h.hostedElsewhere === null && h.state === 'idle'), `serve to push the final state (${serve.stderr()})`, 30_000);
    expect(storedText(dataDir, sessionId)).toBe(expectedTicks);
    const after = await client.call('sessions.show', { sessionId });
    expect(after.session.hostedElsewhere).toBeNull();
    expect(after.session.state).toBe('idle');
    expect(serve.stderr()).not.toMatch(/constraint|SQLITE|uncaught/i);
  }, 180_000);
});
