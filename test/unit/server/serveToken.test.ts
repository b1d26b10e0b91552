import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOKEN_PATTERN } from '../../../src/shared/browserAuth';
import { pinnedToken, SERVE_TOKENS_FILE } from '../../../src/main/server/serveToken';

describe('the token kept for a fixed --port', () => {
  it('is the same for the same data directory and origin, differs per origin, and --new-token replaces it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-token-'));
    const a = pinnedToken(dir, 'http://127.0.0.1:8123', false);
    expect(a).toMatch(TOKEN_PATTERN);
    expect(pinnedToken(dir, 'http://127.0.0.1:8123', false)).toBe(a);
    const b = pinnedToken(dir, 'http://127.0.0.1:8124', false);
    expect(b).not.toBe(a);
    const rotated = pinnedToken(dir, 'http://127.0.0.1:8123', true);
    expect(rotated).not.toBe(a);
    expect(pinnedToken(dir, 'http://127.0.0.1:8123', false)).toBe(rotated);
    expect(pinnedToken(dir, 'http://127.0.0.1:8124', false)).toBe(b);
    if (process.platform !== 'win32') expect(fs.statSync(path.join(dir, SERVE_TOKENS_FILE)).mode & 0o777).toBe(0o600);
  });

  it('replaces a malformed file or a token that is not one, never reusing it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-token-'));
    const file = path.join(dir, SERVE_TOKENS_FILE);
    fs.writeFileSync(file, '{ not json');
    const a = pinnedToken(dir, 'http://127.0.0.1:8123', false);
    expect(a).toMatch(TOKEN_PATTERN);
    fs.writeFileSync(file, JSON.stringify({ version: 1, tokens: { 'http://127.0.0.1:8123': 'short' } }));
    const b = pinnedToken(dir, 'http://127.0.0.1:8123', false);
    expect(b).not.toBe('short');
    expect(b).toMatch(TOKEN_PATTERN);
  });
});
