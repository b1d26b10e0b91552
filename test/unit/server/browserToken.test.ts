import { describe, expect, it } from 'vitest';
import { BrowserToken, TOKEN_STORAGE_KEY, type TokenCheck } from '../../../src/renderer/src/api/browserToken';

/** The browser tab's token keeping: fragment → this origin's storage, checked with the server first. */

const VALID = 'valid-token-valid-token-0123456789';

function world(stored: string | null, verdicts: Record<string, TokenCheck> = { [VALID]: 'valid' }) {
  const items = new Map<string, string>(stored === null ? [] : [[TOKEN_STORAGE_KEY, stored]]);
  const storage = { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v), removeItem: (k: string) => void items.delete(k) };
  const asked: string[] = [];
  const token = new BrowserToken(storage, async (t) => (asked.push(t), verdicts[t] ?? 'invalid'));
  const replaced: string[] = [];
  const hist = { replaceState: (_d: unknown, _t: string, url?: string | URL | null) => void replaced.push(String(url)) };
  return { token, items, asked, replaced, hist };
}

describe('BrowserToken', () => {
  it('takes #token= out of the address, stores it once the server accepts it, and serves reloads from storage', async () => {
    const w = world(null);
    expect(w.token.takeFromAddress({ hash: `#token=${VALID}`, pathname: '/', search: '' }, w.hist)).toBe(true);
    expect(w.replaced).toEqual(['/']);
    expect(await w.token.resolve()).toBe(VALID);
    expect(w.items.get(TOKEN_STORAGE_KEY)).toBe(VALID);
    // a reload: nothing in the address, the stored token is used
    const reload = new BrowserToken({ getItem: (k) => w.items.get(k) ?? null, setItem: () => {}, removeItem: () => {} }, async () => 'valid');
    expect(reload.takeFromAddress({ hash: '#/sessions/x', pathname: '/', search: '' }, w.hist)).toBe(false);
    expect(await reload.resolve()).toBe(VALID);
  });

  it('keeps a valid stored token when the address brings a made-up one, and forgets a stored token the server refuses', async () => {
    const w = world(VALID);
    w.token.takeFromAddress({ hash: '#token=made-up-token-000000000', pathname: '/', search: '' }, w.hist);
    expect(await w.token.resolve()).toBe(VALID);
    expect(w.asked).toEqual(['made-up-token-000000000', VALID]);
    expect(w.items.get(TOKEN_STORAGE_KEY)).toBe(VALID);

    const stale = world('stale-token-stale-token-000');
    expect(await stale.token.resolve()).toBeNull();
    expect(stale.items.has(TOKEN_STORAGE_KEY)).toBe(false);
    expect(await world(null).token.resolve()).toBeNull();
  });

  it('keeps the stored token when the server cannot be reached, and ignores malformed values', async () => {
    const w = world(VALID, { [VALID]: 'unreachable' });
    expect(await w.token.resolve()).toBe('unreachable');
    expect(w.items.get(TOKEN_STORAGE_KEY)).toBe(VALID);
    const junk = world('has spaces, not a token');
    expect(junk.token.read()).toBeNull();
    expect(await junk.token.resolve()).toBeNull();
    expect(junk.asked).toEqual([]);
  });
});
