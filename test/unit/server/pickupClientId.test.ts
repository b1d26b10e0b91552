import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createDispatcher } from '../../../src/main/core/dispatcher';
import { createEngine, type Engine } from '../../../src/main/core/engine';
import { HANDOVER_MAX_FAILURES } from '../../../src/main/core/sessions/workspacePolicy/handover';
import { connectionParams, startServer, type RunningServer } from '../../../src/main/server/server';
import { tempDir } from '../../support/tempDir';

/** Issue 8: a WebSocket connection cannot choose its own rate-limit client id for `sessions.pickup`. */

let server: RunningServer | null = null;
let engine: Engine | null = null;
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  await server?.close();
  server = null;
  engine?.close();
  engine = null;
});

/** A connected tab: `call` sends one request frame and resolves with the reply. */
async function connectTab(s: RunningServer) {
  const ws = new WebSocket(`ws://127.0.0.1:${s.port}/ws?token=${s.token}`, { headers: { Origin: s.origin } });
  sockets.push(ws);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let next = 1;
  const call = (method: string, params: unknown) =>
    new Promise<{ ok: boolean; error?: { code: string } }>((resolve) => {
      const id = next++;
      const onMessage = (data: WebSocket.RawData) => {
        const frame = JSON.parse(data.toString()) as { id?: number; ok: boolean; error?: { code: string } };
        if (frame.id !== id) return;
        ws.off('message', onMessage);
        resolve(frame);
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify({ id, method, params }));
    });
  return { call };
}

describe('sessions.pickup over the browser server', () => {
  it('replaces the client-supplied clientId with the connection id, and only for sessions.pickup', () => {
    expect(connectionParams('sessions.pickup', { code: 'ABCD', clientId: 'chosen', kind: 'browser' }, 'ws-1')).toEqual({ code: 'ABCD', clientId: 'ws-1', kind: 'browser' });
    expect(connectionParams('sessions.pickup', { code: 'ABCD', kind: 'browser' }, 'ws-1')).toEqual({ code: 'ABCD', clientId: 'ws-1', kind: 'browser' });
    const other = { sessionId: 's', clientId: 'kept' };
    expect(connectionParams('sessions.attach', other, 'ws-1')).toBe(other);
    expect(connectionParams('sessions.pickup', null, 'ws-1')).toBeNull();
  });

  it('rate-limits failed pickups per connection even when the tab rotates its clientId', async () => {
    const dataDir = tempDir();
    engine = createEngine({ dataDir });
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
    const guesser = await connectTab(server);
    const honest = await connectTab(server);
    for (let i = 0; i < HANDOVER_MAX_FAILURES; i++) {
      expect(await guesser.call('sessions.pickup', { code: 'ZZZZ', clientId: `rotated-${i}`, kind: 'browser' })).toMatchObject({ ok: false, error: { code: 'HANDOVER_INVALID' } });
    }
    expect(await guesser.call('sessions.pickup', { code: 'ZZZZ', clientId: 'brand-new', kind: 'browser' })).toMatchObject({ ok: false, error: { code: 'HANDOVER_RATE_LIMITED' } });
    // another connection is not limited by the guesser, even when it claims the same clientId
    expect(await honest.call('sessions.pickup', { code: 'ZZZZ', clientId: 'brand-new', kind: 'browser' })).toMatchObject({ ok: false, error: { code: 'HANDOVER_INVALID' } });
  });
});
