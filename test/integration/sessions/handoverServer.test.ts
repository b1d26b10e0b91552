import { describe, expect, it } from 'vitest';
import type { AttachedSurface, HandoverCode, SessionPolicy } from '../../../src/shared/contract';
import { HANDOVER_MAX_FAILURES } from '../../../src/main/core/sessions/workspacePolicy/handover';
import { browserServers, type Reply, type Tab } from '../../support/browserServer';
import { policyWorlds } from '../../support/policy';
import { waitFor } from '../../support/sessions';

/**
 * Handover codes through the real browser server with several WebSocket clients: the code reaches
 * only the connection that asked for it, another connection cannot attach, issue or detach
 * without one, and one client's wrong guesses do not lock out the others.
 */

const worlds = policyWorlds();
const servers = browserServers();

const wrongCode = (good: string) => (good === 'ZZZZ' ? 'YYYY' : 'ZZZZ');
const codeOf = (r: Reply) => r.error?.code;

async function setUp() {
  const world = worlds.create({ turns: [] });
  const engine = world.open();
  const session = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });
  const served = await servers.start(engine);
  return { engine, session, served };
}

describe('handover codes over the browser server (two WebSocket clients)', () => {
  it('only the issuing connection sees the code; another one can neither read it, mint its own, attach, take over nor detach the surface without one', async () => {
    const { session, served } = await setUp();
    const a = await served.connect();
    const b = await served.connect();

    // A opens the session first: nobody else shows it, so no code is needed
    const attachedA = await a.call<{ surface: AttachedSurface }>('sessions.attach', { sessionId: session.id, surfaceId: 'browser-a', kind: 'browser', label: 'Tab A' });
    expect(attachedA.ok, JSON.stringify(attachedA.error)).toBe(true);
    const issued = await a.call<HandoverCode>('sessions.handover', { sessionId: session.id });
    expect(issued.ok).toBe(true);
    const code = issued.result!.code;

    // B may see that a code is live and until when, never the code, in any read it can make
    const policyB = await b.call<{ policy: SessionPolicy }>('sessions.policy', { sessionId: session.id });
    expect(policyB.result?.policy.handover).toEqual({ sessionId: session.id, expiresAt: issued.result!.expiresAt });
    for (const [method, params] of [
      ['sessions.policy', { sessionId: session.id }],
      ['sessions.show', { sessionId: session.id }],
      ['sessions.list', {}],
      ['sessions.transcript', { sessionId: session.id }],
    ] as const) {
      const reply = await b.call(method, params);
      expect(reply.ok, method).toBe(true);
      expect(JSON.stringify(reply.result), method).not.toContain(`"${code}"`);
    }
    // B cannot mint a code of its own for a session A shows, attach, pose as A's surface or detach it
    expect(codeOf(await b.call('sessions.handover', { sessionId: session.id }))).toBe('HANDOVER_REQUIRED');
    const refused = await b.call('sessions.attach', { sessionId: session.id, kind: 'browser', label: 'Tab B' });
    expect(codeOf(refused)).toBe('HANDOVER_REQUIRED');
    expect(refused.error?.message).toContain('Tab A');
    expect(codeOf(await b.call('sessions.attach', { sessionId: session.id, surfaceId: 'browser-a', kind: 'browser' }))).toBe('HANDOVER_REQUIRED');
    expect(codeOf(await b.call('sessions.detach', { sessionId: session.id, surfaceId: 'browser-a' }))).toBe('HANDOVER_REQUIRED');
    // A attaching its own surface again (a remount of the view) keeps working, and so does a second surface of A's
    expect((await a.call('sessions.attach', { sessionId: session.id, surfaceId: 'browser-a', kind: 'browser' })).ok).toBe(true);
    expect((await a.call('sessions.attach', { sessionId: session.id, surfaceId: 'browser-a2', kind: 'browser' })).ok).toBe(true);
    expect((await a.call('sessions.detach', { sessionId: session.id, surfaceId: 'browser-a2' })).ok).toBe(true);
    // A's page reconnects (new connection, same secret page key): its surface is still its own; B
    // presenting a key of its own gets nothing
    const keyA = 'tab-a-secret-key-0123456789';
    expect((await a.call('sessions.attach', { sessionId: session.id, surfaceId: 'browser-a', kind: 'browser', surfaceKey: keyA })).ok).toBe(true);
    const a2 = await served.connect();
    expect((await a2.call('sessions.attach', { sessionId: session.id, surfaceId: 'browser-a', kind: 'browser', surfaceKey: keyA })).ok).toBe(true);
    expect(codeOf(await b.call('sessions.attach', { sessionId: session.id, surfaceId: 'browser-a', kind: 'browser', surfaceKey: 'tab-b-guessed-key-012345' }))).toBe('HANDOVER_REQUIRED');
    await a2.close();
    // the code was not spent by any of that: B attaches with it
    const withCode = await b.call<{ surface: AttachedSurface; surfaces: AttachedSurface[] }>('sessions.attach', { sessionId: session.id, kind: 'browser', label: 'Tab B', code: code.toLowerCase() });
    expect(withCode.ok, JSON.stringify(withCode.error)).toBe(true);
    expect(withCode.result?.surface).toMatchObject({ via: 'pickup', label: 'Tab B' });
    expect(withCode.result?.surfaces.map((s) => s.label)).toEqual(['Tab A', 'Tab B']);
    expect((await b.call<{ policy: SessionPolicy }>('sessions.policy', { sessionId: session.id })).result?.policy.handover).toBeNull();
    // B now shows the session too: it may issue the next code itself
    expect((await b.call('sessions.handover', { sessionId: session.id })).ok).toBe(true);

    // once every connection that showed it is gone, the session is free again
    await a.close();
    await b.close();
    await waitFor(async () => (await served.dispatcher.call('sessions.policy', { sessionId: session.id })).policy.surfaces.length === 0, 'the closed tabs to be detached');
    const c = await served.connect();
    expect((await c.call('sessions.attach', { sessionId: session.id, kind: 'browser' })).ok).toBe(true);
  }, 60_000);

  it('a reloaded tab (new connection, new surface id, same tab key) attaches again while another tab shows the session; a stranger does not', async () => {
    const { session, served } = await setUp();
    const keyA = 'tab-a-session-storage-key-0123';
    const a = await served.connect();
    expect((await a.call('sessions.attach', { sessionId: session.id, surfaceId: 'browser-a-1', kind: 'browser', surfaceKey: keyA })).ok).toBe(true);
    const { code } = (await a.call<HandoverCode>('sessions.handover', { sessionId: session.id, surfaceKey: keyA })).result!;
    const b = await served.connect();
    expect((await b.call('sessions.pickup', { code, clientId: 'b', kind: 'browser', surfaceKey: 'tab-b-session-storage-key-01' })).ok).toBe(true);
    // A reloads: its old socket closes (its surface is detached), the new page has a new surface id
    await a.close();
    await waitFor(async () => (await served.dispatcher.call('sessions.policy', { sessionId: session.id })).policy.surfaces.length === 1, 'the old page to be detached');
    const reloaded = await served.connect();
    expect((await reloaded.call('sessions.attach', { sessionId: session.id, surfaceId: 'browser-a-2', kind: 'browser', surfaceKey: keyA })).ok).toBe(true);
    const stranger = await served.connect();
    expect(codeOf(await stranger.call('sessions.attach', { sessionId: session.id, surfaceId: 'browser-c', kind: 'browser', surfaceKey: 'tab-c-session-storage-key-01' }))).toBe('HANDOVER_REQUIRED');
  }, 60_000);

  it('a code for another session is refused by sessions.attach and is used up', async () => {
    const { engine, session, served } = await setUp();
    const other = engine.sessions.create({ cwd: engine.sessions.show(session.id).cwd, agentId: 'scripted' });
    const a = await served.connect();
    const b = await served.connect();
    expect((await a.call('sessions.attach', { sessionId: session.id, kind: 'browser' })).ok).toBe(true);
    const codeForOther = (await a.call<HandoverCode>('sessions.handover', { sessionId: other.id })).result!.code;
    const wrongSession = await b.call('sessions.attach', { sessionId: session.id, kind: 'browser', code: codeForOther });
    expect(codeOf(wrongSession)).toBe('HANDOVER_INVALID');
    expect(wrongSession.error?.message).toContain('another session');
    expect(codeOf(await b.call('sessions.pickup', { code: codeForOther, clientId: 'b', kind: 'browser' }))).toBe('HANDOVER_INVALID');
  }, 60_000);

  it("30+ wrong guesses from one client, rotating its clientId and its connections, do not stop another client from redeeming its own code; the guesser stays limited", async () => {
    const { session, served } = await setUp();
    const a = await served.connect();
    expect((await a.call('sessions.attach', { sessionId: session.id, surfaceId: 'browser-a', kind: 'browser' })).ok).toBe(true);
    const code = (await a.call<HandoverCode>('sessions.handover', { sessionId: session.id })).result!.code;
    const wrong = wrongCode(code);

    // B rotates its self-declared clientId on one connection: after 5 failures that connection is locked
    const b = await served.connect();
    const outcomes: Array<string | undefined> = [];
    for (let i = 0; i < 35; i++) outcomes.push(codeOf(await b.call('sessions.pickup', { code: wrong, clientId: `rotated-${i}`, kind: 'browser' })));
    expect(outcomes.slice(0, HANDOVER_MAX_FAILURES)).toEqual(Array(HANDOVER_MAX_FAILURES).fill('HANDOVER_INVALID'));
    expect(new Set(outcomes.slice(HANDOVER_MAX_FAILURES))).toEqual(new Set(['HANDOVER_RATE_LIMITED']));
    // ... even for the right code (it cannot redeem what it might have guessed)
    expect(codeOf(await b.call('sessions.pickup', { code, clientId: 'fresh', kind: 'browser' }))).toBe('HANDOVER_RATE_LIMITED');
    expect(codeOf(await b.call('sessions.attach', { sessionId: session.id, kind: 'browser', code }))).toBe('HANDOVER_RATE_LIMITED');

    // B rotates connections too: 30+ failures in all switch the throttle on
    const extra: Tab[] = [];
    for (let i = 0; i < 6; i++) {
      const tab = await served.connect();
      extra.push(tab);
      for (let j = 0; j < HANDOVER_MAX_FAILURES; j++) expect(codeOf(await tab.call('sessions.pickup', { code: wrong, clientId: 'b', kind: 'browser' }))).toMatch(/^HANDOVER_(INVALID|RATE_LIMITED)$/);
    }
    // a burst of guesses from fresh connections: most are not even checked
    const burst = await Promise.all(Array.from({ length: 10 }, async () => (await served.connect()).call('sessions.pickup', { code: wrong, clientId: 'b', kind: 'browser' })));
    expect(burst.filter((r) => codeOf(r) === 'HANDOVER_RATE_LIMITED').length).toBeGreaterThanOrEqual(5);
    expect(burst.every((r) => !r.ok)).toBe(true);

    // A's terminal (a new connection) redeems A's code: at worst it is asked to retry a second later
    const terminal = await served.connect();
    let picked: Reply<{ session: { id: string }; surface: AttachedSurface }> | null = null;
    await waitFor(async () => {
      const reply = await terminal.call<{ session: { id: string }; surface: AttachedSurface }>('sessions.pickup', { code, clientId: 'terminal', kind: 'cli' });
      if (reply.ok) picked = reply;
      else expect(codeOf(reply)).toBe('HANDOVER_RATE_LIMITED');
      return reply.ok;
    }, 'the terminal to redeem its code');
    expect(picked!.result?.session.id).toBe(session.id);
    expect(picked!.result?.surface).toMatchObject({ kind: 'cli', via: 'pickup' });
    // the locked guesser is still locked
    expect(codeOf(await b.call('sessions.pickup', { code: wrong, clientId: 'again', kind: 'browser' }))).toBe('HANDOVER_RATE_LIMITED');
  }, 60_000);
});
