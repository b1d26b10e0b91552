import { describe, expect, it } from 'vitest';
import {
  HANDOVER_ALPHABET,
  HandoverRegistry,
  SurfaceRegistry,
  THIS_PROCESS,
  HANDOVER_MAX_FAILURES,
  HANDOVER_SURGE_FAILURES,
  HANDOVER_SURGE_INTERVAL_MS,
} from '../../../src/main/core/sessions/workspacePolicy/handover';
import type { PayloadOf } from '../../../src/shared/contract';
import { idleShutdown, notices, policyWorlds, promptAndWait } from '../../support/policy';
import { testDispatcher, waitFor } from '../../support/sessions';

/** Handover codes (fake clock), attached surfaces, permission routing, idle shutdown. */

const worlds = policyWorlds();

const CODE = /^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{4}$/;

describe('handover codes', () => {
  it('are 4 characters without I, O, 0, 1, expire after 120 s (121 s on a fake clock) and work once', () => {
    let now = 1_000_000;
    const reg = new HandoverRegistry({ now: () => now });
    expect(HANDOVER_ALPHABET).toHaveLength(32);
    expect(HANDOVER_ALPHABET).not.toMatch(/[IO01]/);
    for (let i = 0; i < 200; i++) expect(reg.issue(`s${i}`).code).toMatch(CODE);

    const issued = reg.issue('session-a');
    expect(issued.expiresAt).toBe(new Date(now + 120_000).toISOString());
    now += 121_000;
    expect(() => reg.redeem(issued.code, 'client-1')).toThrow(expect.objectContaining({ code: 'HANDOVER_INVALID' }));

    const fresh = reg.issue('session-a');
    now += 119_000;
    expect(reg.redeem(fresh.code.toLowerCase(), 'client-1')).toBe('session-a');
    expect(() => reg.redeem(fresh.code, 'client-1')).toThrow(expect.objectContaining({ code: 'HANDOVER_INVALID' }));
    // issuing again replaces a session's previous code
    const one = reg.issue('session-b');
    const two = reg.issue('session-b');
    // readers learn that a code is live and until when, never the code
    expect(reg.current('session-b')).toEqual({ sessionId: 'session-b', expiresAt: two.expiresAt });
    if (one.code !== two.code) expect(() => reg.redeem(one.code, 'client-9')).toThrow(expect.objectContaining({ code: 'HANDOVER_INVALID' }));
  });

  it('rate-limits failed redemptions: 5 per minute lock only that client', () => {
    let now = 5_000_000;
    const reg = new HandoverRegistry({ now: () => now });
    const good = reg.issue('s1');
    const wrong = good.code === 'AAAA' ? 'BBBB' : 'AAAA';
    for (let i = 0; i < HANDOVER_MAX_FAILURES; i++) expect(() => reg.redeem(wrong, 'guesser')).toThrow(expect.objectContaining({ code: 'HANDOVER_INVALID' }));
    // even the right code is refused now, for this client only
    expect(() => reg.redeem(good.code, 'guesser')).toThrow(expect.objectContaining({ code: 'HANDOVER_RATE_LIMITED', message: expect.stringContaining('try again in 60 s') }));
    now += 30_000;
    expect(() => reg.redeem(good.code, 'guesser')).toThrow(expect.objectContaining({ code: 'HANDOVER_RATE_LIMITED' }));
    now += 30_001;
    expect(reg.redeem(good.code, 'guesser')).toBe('s1');
    // another client is never locked by the guesser
    const mine = reg.issue('s2');
    for (let i = 0; i < HANDOVER_MAX_FAILURES + 3; i++) expect(() => reg.redeem(wrong, 'guesser')).toThrow(expect.objectContaining({ code: expect.stringMatching(/^HANDOVER_(INVALID|RATE_LIMITED)$/) }));
    expect(reg.redeem(mine.code, 'honest')).toBe('s2');
  });

  it('throttles, never locks out, once many clients failed: one check per second across clients', () => {
    let now = 9_000_000;
    const reg = new HandoverRegistry({ now: () => now });
    const good = reg.issue('s1');
    const wrong = good.code === 'AAAA' ? 'BBBB' : 'AAAA';
    // a client rotating its identity: every identity fails a few times, 30+ failures in all
    for (let i = 0; i < HANDOVER_SURGE_FAILURES; i++) expect(() => reg.redeem(wrong, `rotating-${Math.floor(i / 3)}`)).toThrow(expect.objectContaining({ code: 'HANDOVER_INVALID' }));
    // throttled now: one check per second, whoever asks; the rest are told to retry in a second
    expect(() => reg.redeem(wrong, 'rotating-new-1')).toThrow(expect.objectContaining({ code: 'HANDOVER_INVALID' }));
    let refused = 0;
    for (let i = 0; i < 20; i++) {
      try {
        reg.redeem(wrong, `rotating-new-${i + 2}`);
      } catch (e) {
        if ((e as { code?: string }).code === 'HANDOVER_RATE_LIMITED') refused++;
      }
    }
    expect(refused).toBe(20);
    // the legitimate client with the right code gets in a second later, although the guesses went on
    expect(() => reg.redeem(good.code, 'honest')).toThrow(expect.objectContaining({ code: 'HANDOVER_RATE_LIMITED', message: expect.stringContaining('try again in 1 s') }));
    now += HANDOVER_SURGE_INTERVAL_MS;
    expect(reg.redeem(good.code, 'honest')).toBe('s1');
    // after the window nothing is throttled any more
    now += 60_001;
    const next = reg.issue('s3');
    expect(() => reg.redeem(wrong, 'x')).toThrow(expect.objectContaining({ code: 'HANDOVER_INVALID' }));
    expect(reg.redeem(next.code, 'y')).toBe('s3');
  });
});

describe('who may attach without a code (SurfaceRegistry)', () => {
  it('the first caller, its own surface again, its other pages; not another caller, whatever surface id it names', () => {
    const reg = new SurfaceRegistry();
    const a = { connection: 'ws-a', key: 'key-a-0123456789abcdef' };
    const b = { connection: 'ws-b', key: 'key-b-0123456789abcdef' };
    expect(reg.admits('s', undefined, b)).toBe(true); // nobody shows it yet
    reg.attach('s', { surfaceId: 'tab-a', kind: 'browser', via: 'owner' }, a);
    expect(reg.admits('s', 'tab-a', a)).toBe(true);
    expect(reg.admits('s', 'tab-a2', a)).toBe(true);
    expect(reg.admits('s', 'tab-a2', { connection: 'ws-a-reconnected', key: a.key })).toBe(true);
    expect(reg.admits('s', undefined, b)).toBe(false);
    expect(reg.admits('s', 'tab-a', b)).toBe(false);
    expect(reg.admits('s', 'tab-a', { connection: 'ws-b', key: null })).toBe(false);
    expect(reg.mayDetach('s', 'tab-a', b)).toBe(false);
    expect(reg.mayDetach('s', 'tab-a', a)).toBe(true);
    // this process may do anything, and what it attaches blocks nobody
    expect(reg.admits('s', 'tab-a', THIS_PROCESS)).toBe(true);
    reg.attach('t', { surfaceId: 'cli', kind: 'cli', via: 'owner' });
    expect(reg.admits('t', undefined, b)).toBe(true);
    // another session is not affected by A's admission to this one
    expect(reg.admits('u', undefined, b)).toBe(true);
    // once A's surfaces are gone and nobody shows it, anyone may attach
    reg.detach('s', 'tab-a');
    expect(reg.admits('s', undefined, b)).toBe(true);
  });
});

describe('surfaces, pickup and permission routing (engine)', () => {
  it('a code redeemed through the contract attaches a surface; permission requests go to the prompting surface, else an attached one', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const world = worlds.create({ turns: [{ match: 'ask', steps: [{ permission: { title: 'Write notes', kind: 'edit' } }] }] });
    const engine = world.open({ handover: { now: () => now } });
    const dispatcher = testDispatcher(engine);
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    const owner = await dispatcher.call('sessions.attach', { sessionId: s.id, surfaceId: 'app-window', kind: 'app' });
    expect(owner.surfaces.map((x) => x.surfaceId)).toEqual(['app-window']);

    const code = await dispatcher.call('sessions.handover', { sessionId: s.id });
    expect(code.code).toMatch(CODE);
    // the policy view says a code is live, not which
    expect((await dispatcher.call('sessions.policy', { sessionId: s.id })).policy.handover).toEqual({ sessionId: s.id, expiresAt: code.expiresAt });
    expect(JSON.stringify((await dispatcher.call('sessions.policy', { sessionId: s.id })).policy)).not.toContain(`"${code.code}"`);
    const picked = await dispatcher.call('sessions.pickup', { code: code.code, clientId: 'browser-2', kind: 'browser', label: 'Laptop tab' });
    expect(picked.session.id).toBe(s.id);
    expect(picked.surface).toMatchObject({ kind: 'browser', via: 'pickup', label: 'Laptop tab' });
    await expect(dispatcher.call('sessions.pickup', { code: code.code, clientId: 'browser-2', kind: 'browser' })).rejects.toMatchObject({ code: 'HANDOVER_INVALID' });
    const expired = await dispatcher.call('sessions.handover', { sessionId: s.id });
    now += 121_000;
    await expect(dispatcher.call('sessions.pickup', { code: expired.code, clientId: 'cli-3', kind: 'cli' })).rejects.toMatchObject({ code: 'HANDOVER_INVALID' });
    expect((await dispatcher.call('sessions.policy', { sessionId: s.id })).policy.surfaces.map((x) => x.via)).toEqual(['owner', 'pickup']);

    const asked: Array<PayloadOf<'permissionRequested'>> = [];
    engine.bus.subscribe((event, payload) => {
      if (event === 'permissionRequested') asked.push(payload as PayloadOf<'permissionRequested'>);
    });
    // the picked-up tab sends the prompt: the request goes to it
    const first = engine.sessions.prompt(s.id, 'ask please', picked.surface.surfaceId);
    await waitFor(() => asked.length === 1, 'the first permission request');
    expect(asked[0].surfaceId).toBe(picked.surface.surfaceId);
    engine.sessions.answerPermission(s.id, asked[0].permission.requestId, 'allow');
    expect(await engine.sessions.waitForTurn(s.id, first.promptId)).toBe('end_turn');
    // that tab is gone: the request goes to the surface still attached
    await dispatcher.call('sessions.detach', { sessionId: s.id, surfaceId: picked.surface.surfaceId });
    const second = engine.sessions.prompt(s.id, 'ask again', picked.surface.surfaceId);
    await waitFor(() => asked.length === 2, 'the second permission request');
    expect(asked[1].surfaceId).toBe('app-window');
    engine.sessions.answerPermission(s.id, asked[1].permission.requestId, 'reject');
    expect(await engine.sessions.waitForTurn(s.id, second.promptId)).toBe('end_turn');
  }, 60_000);
});

describe('idle shutdown', () => {
  it('stops an idle agent (10 min by default, a setting), records it, and resumes transparently with the outcome recorded', async () => {
    const world = worlds.create({ capabilities: { resume: true } }, { 'AGENTS.md': 'Root rule: always be kind.\n' });
    const settingsEngine = world.open({ sessions: { idleMs: undefined } });
    expect(settingsEngine.policy.idleMinutes()).toBe(10);
    expect(settingsEngine.sessions.idleMs()).toBe(600_000);
    settingsEngine.policy.setIdleMinutes(3);
    expect(settingsEngine.sessions.idleMs()).toBe(180_000);
    await world.closeAll();

    const engine = world.openTrusted({ sessions: { idleMs: 300 } });
    const s = engine.sessions.create({ cwd: world.ws, agentId: 'scripted' });
    expect(await promptAndWait(engine, s.id, 'hello')).toBe('end_turn');
    await idleShutdown(engine, s.id);
    expect(engine.sessions.show(s.id).state).toBe('idle');
    expect(await promptAndWait(engine, s.id, 'wake up')).toBe('end_turn');
    const after = engine.sessions.show(s.id);
    expect(after.resume?.outcome).toBe('resumed');
    expect(notices(engine, s.id, 'resume').at(-1)?.outcome).toBe('resumed');
    // the snapshot survives the restart of the agent: static rules were sent once
    expect(notices(engine, s.id, 'rules_loaded')).toHaveLength(1);
  }, 60_000);
});
