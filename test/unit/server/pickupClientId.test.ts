import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../src/main/core/engine';
import { HANDOVER_MAX_FAILURES } from '../../../src/main/core/sessions/workspacePolicy/handover';
import { connectionParams } from '../../../src/main/server/server';
import { browserServers } from '../../support/browserServer';
import { tempDir } from '../../support/tempDir';

/** A WebSocket connection cannot choose its own rate-limit client id for `sessions.pickup`. */

const servers = browserServers();

describe('sessions.pickup over the browser server', () => {
  it('replaces the client-supplied clientId with the connection id, and only for sessions.pickup', () => {
    expect(connectionParams('sessions.pickup', { code: 'ABCD', clientId: 'chosen', kind: 'browser' }, 'ws-1')).toEqual({ code: 'ABCD', clientId: 'ws-1', kind: 'browser' });
    expect(connectionParams('sessions.pickup', { code: 'ABCD', kind: 'browser' }, 'ws-1')).toEqual({ code: 'ABCD', clientId: 'ws-1', kind: 'browser' });
    const other = { sessionId: 's', clientId: 'kept' };
    expect(connectionParams('sessions.attach', other, 'ws-1')).toBe(other);
    expect(connectionParams('sessions.pickup', null, 'ws-1')).toBeNull();
  });

  it('rate-limits failed pickups per connection even when the tab rotates its clientId', async () => {
    const { connect } = await servers.start(createEngine({ dataDir: tempDir() }));
    const guesser = await connect();
    const honest = await connect();
    for (let i = 0; i < HANDOVER_MAX_FAILURES; i++) {
      expect(await guesser.call('sessions.pickup', { code: 'ZZZZ', clientId: `rotated-${i}`, kind: 'browser' })).toMatchObject({ ok: false, error: { code: 'HANDOVER_INVALID' } });
    }
    expect(await guesser.call('sessions.pickup', { code: 'ZZZZ', clientId: 'brand-new', kind: 'browser' })).toMatchObject({ ok: false, error: { code: 'HANDOVER_RATE_LIMITED' } });
    // another connection is not limited by the guesser, even when it claims the same clientId
    expect(await honest.call('sessions.pickup', { code: 'ZZZZ', clientId: 'brand-new', kind: 'browser' })).toMatchObject({ ok: false, error: { code: 'HANDOVER_INVALID' } });
  });
});
