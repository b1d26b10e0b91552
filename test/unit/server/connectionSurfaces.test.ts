import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createDispatcher, type Dispatcher } from '../../../src/main/core/dispatcher';
import type { Engine } from '../../../src/main/core/engine';
import { ConnectionSurfaces } from '../../../src/main/server/connectionSurfaces';
import { startServer, type RunningServer } from '../../../src/main/server/server';
import { sessionEngine, waitFor } from '../../support/sessions';
import { tempDir } from '../../support/tempDir';

/** Issue 8: a browser tab whose WebSocket closes is detached from the sessions it attached over it. */

let server: RunningServer | null = null;
let engine: Engine | null = null;
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  await server?.close();
  server = null;
  await engine?.close();
  engine = null;
});

type Reply = { ok: boolean; result?: { surface: { surfaceId: string } }; error?: { code: string } };

/** A connected tab: `call` sends one request frame and resolves with its reply; `close` closes the socket as a closing tab does. */
async function connectTab(s: RunningServer) {
  const ws = new WebSocket(`ws://127.0.0.1:${s.port}/ws?token=${s.token}`, { headers: { Origin: s.origin } });
  sockets.push(ws);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let next = 1;
  const call = (method: string, params: unknown) =>
    new Promise<Reply>((resolve) => {
      const id = next++;
      const onMessage = (data: WebSocket.RawData) => {
        const frame = JSON.parse(data.toString()) as Reply & { id?: number };
        if (frame.id !== id) return;
        ws.off('message', onMessage);
        resolve(frame);
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify({ id, method, params }));
    });
  const close = () => new Promise<void>((resolve) => (ws.once('close', () => resolve()), ws.close()));
  return { call, close };
}

/** A real engine with the scripted agent, a session in a temp folder, and the browser server on it. */
async function world(): Promise<{ dispatcher: Dispatcher; sessionId: string; attached: () => Promise<string[]> }> {
  const dataDir = tempDir();
  const project = tempDir('atrium-project-');
  engine = sessionEngine(dataDir, tempDir('atrium-agent-'), {});
  const dispatcher = createDispatcher(engine, {
    'app.info': () => {
      throw new Error('unused');
    },
    'app.pickFolder': () => {
      throw new Error('unused');
    },
  });
  const renderer = path.join(dataDir, 'renderer');
  fs.mkdirSync(renderer);
  server = await startServer({ engine, dispatcher, rendererDir: renderer });
  const { session } = await dispatcher.call('sessions.new', { cwd: project, agentId: 'scripted' });
  const attached = async () => (await dispatcher.call('sessions.policy', { sessionId: session.id })).policy.surfaces.map((s) => s.surfaceId).sort();
  return { dispatcher, sessionId: session.id, attached };
}

describe('browser server: surfaces follow their WebSocket', () => {
  it('detaches the surfaces a tab attached (sessions.attach and sessions.pickup) when its socket closes, and only those', async () => {
    const { dispatcher, sessionId, attached } = await world();
    const a = await connectTab(server!);
    const b = await connectTab(server!);
    expect(await a.call('sessions.attach', { sessionId, surfaceId: 'browser-a', kind: 'browser' })).toMatchObject({ ok: true });
    expect(await b.call('sessions.attach', { sessionId, surfaceId: 'browser-b', kind: 'browser' })).toMatchObject({ ok: true });
    const { code } = await dispatcher.call('sessions.handover', { sessionId });
    const picked = await b.call('sessions.pickup', { code, clientId: 'ignored', kind: 'browser', label: 'Browser tab B' });
    expect(picked.ok).toBe(true);
    const pickupSurface = picked.result!.surface.surfaceId;
    expect(await attached()).toEqual(['browser-a', 'browser-b', pickupSurface].sort());

    await a.close();
    await waitFor(async () => !(await attached()).includes('browser-a'), 'tab A to be detached');
    expect(await attached()).toEqual(['browser-b', pickupSurface].sort());

    await b.close();
    await waitFor(async () => (await attached()).length === 0, 'tab B and its pickup to be detached');
  });

  it('keeps a surface another open connection attached again (a tab that reconnected before the old socket closed)', async () => {
    const { sessionId, attached } = await world();
    const before = await connectTab(server!);
    const after = await connectTab(server!);
    await before.call('sessions.attach', { sessionId, surfaceId: 'browser-same', kind: 'browser' });
    await after.call('sessions.attach', { sessionId, surfaceId: 'browser-same', kind: 'browser' });
    await before.close();
    // give the server its close event, then check the surface is still attached
    const probe = await connectTab(server!);
    await probe.call('sessions.policy', { sessionId });
    expect(await attached()).toEqual(['browser-same']);
    await after.close();
    await waitFor(async () => (await attached()).length === 0, 'the surface to be detached with its last connection');
  });

  it('forgets a surface the tab detached itself, and ignores failed attaches', async () => {
    const detached: string[] = [];
    const tracker = new ConnectionSurfaces(async (sessionId, surfaceId) => detached.push(`${sessionId}/${surfaceId}`));
    tracker.observe('c1', 'sessions.attach', { sessionId: 's1', surfaceId: 'x', kind: 'browser' }, { ok: true, result: { surface: { surfaceId: 'x' }, surfaces: [] } });
    tracker.observe('c1', 'sessions.attach', { sessionId: 's1', surfaceId: 'y', kind: 'browser' }, { ok: true, result: { surface: { surfaceId: 'y' }, surfaces: [] } });
    tracker.observe('c1', 'sessions.attach', { sessionId: 'gone', surfaceId: 'z', kind: 'browser' }, { ok: false, error: { code: 'SESSION_NOT_FOUND', message: 'no' } });
    tracker.observe('c1', 'sessions.detach', { sessionId: 's1', surfaceId: 'y' }, { ok: true, result: { surfaces: [] } });
    tracker.observe('c1', 'sessions.list', {}, { ok: true, result: { sessions: [] } });
    expect(tracker.held('c1')).toEqual([{ sessionId: 's1', surfaceId: 'x' }]);
    await tracker.release('c1');
    expect(detached).toEqual(['s1/x']);
    expect(tracker.held('c1')).toEqual([]);
    await tracker.release('c1');
    expect(detached).toEqual(['s1/x']);
  });
});
