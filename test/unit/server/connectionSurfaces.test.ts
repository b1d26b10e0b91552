import { describe, expect, it } from 'vitest';
import { ConnectionSurfaces } from '../../../src/main/server/connectionSurfaces';
import { browserServers } from '../../support/browserServer';
import { sessionEngine, waitFor } from '../../support/sessions';
import { tempDir } from '../../support/tempDir';

/** A browser tab whose WebSocket closes is detached from the sessions it attached over it. */

const servers = browserServers();

/** A real engine with the scripted agent, a session in a temp folder, and the browser server on it. */
async function world() {
  const running = await servers.start(sessionEngine(tempDir(), tempDir('atrium-agent-'), {}));
  const { dispatcher } = running;
  const { session } = await dispatcher.call('sessions.new', { cwd: tempDir('atrium-project-'), agentId: 'scripted' });
  const attached = async () => (await dispatcher.call('sessions.policy', { sessionId: session.id })).policy.surfaces.map((s) => s.surfaceId).sort();
  return { ...running, sessionId: session.id, attached };
}

describe('browser server: surfaces follow their WebSocket', () => {
  it('detaches the surfaces a tab attached (sessions.attach and sessions.pickup) when its socket closes, and only those', async () => {
    const { dispatcher, sessionId, attached, connect } = await world();
    const a = await connect();
    const b = await connect();
    expect(await a.call('sessions.attach', { sessionId, surfaceId: 'browser-a', kind: 'browser' })).toMatchObject({ ok: true });
    // a second tab attaches to a session the first shows with a handover code only
    const first = await dispatcher.call('sessions.handover', { sessionId });
    expect(await b.call('sessions.attach', { sessionId, surfaceId: 'browser-b', kind: 'browser', code: first.code })).toMatchObject({ ok: true });
    const { code } = await dispatcher.call('sessions.handover', { sessionId });
    const picked = await b.call<{ surface: { surfaceId: string } }>('sessions.pickup', { code, clientId: 'ignored', kind: 'browser', label: 'Browser tab B' });
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
    const { sessionId, attached, connect } = await world();
    const before = await connect();
    const after = await connect();
    // the same page (its secret surface key) on its new connection; the surface id alone would not do
    const surfaceKey = 'page-secret-0123456789abcdef';
    expect(await before.call('sessions.attach', { sessionId, surfaceId: 'browser-same', kind: 'browser', surfaceKey })).toMatchObject({ ok: true });
    expect(await after.call('sessions.attach', { sessionId, surfaceId: 'browser-same', kind: 'browser', surfaceKey })).toMatchObject({ ok: true });
    await before.close();
    // give the server its close event, then check the surface is still attached
    const probe = await connect();
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
