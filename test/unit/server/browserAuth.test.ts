import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createEngine, type Engine } from '../../../src/main/core/engine';
import { checkTokens, contentSecurityPolicy, tokensEqual } from '../../../src/main/server/security';
import { startServer, type RunningServer } from '../../../src/main/server/server';
import { tokenFromFragment, tokenFromProtocols, tokenProtocols } from '../../../src/shared/browserAuth';
import { testDispatcher } from '../../support/sessions';
import { tempDir } from '../../support/tempDir';

/**
 * Browser mode's token scheme: the token reaches the server only where a client puts it on purpose
 * (WebSocket subprotocol, Bearer header, the old `?token=` once), never as a cookie; every response
 * is free of Set-Cookie; the 401/403 matrix holds for HTTP and the WebSocket.
 */

let engine: Engine | null = null;
let server: RunningServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  await engine?.close();
  engine = null;
});

async function serve(): Promise<RunningServer> {
  engine = createEngine({ dataDir: tempDir() });
  const renderer = tempDir('atrium-renderer-');
  fs.writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><title>Atrium</title>');
  server = await startServer({ engine, dispatcher: testDispatcher(engine), rendererDir: renderer });
  return server;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
}

/** One raw HTTP request (Host and every other header exactly as given). */
function get(s: RunningServer, target: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: s.port, path: target, method, headers: { Host: `127.0.0.1:${s.port}`, ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** One WebSocket handshake: 101 with the selected subprotocol, or the refusal's status. */
function upgrade(s: RunningServer, target: string, protocols: string[] = [], headers: Record<string, string> = {}): Promise<{ status: number; protocol?: string }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${s.port}${target}`, protocols, { headers });
    ws.on('open', () => {
      resolve({ status: 101, protocol: ws.protocol });
      ws.close();
    });
    ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0 }));
    ws.on('error', () => resolve({ status: -1 }));
  });
}

describe('browser server: the 401/403 matrix without cookies', () => {
  it('HTTP: 403 for a foreign Host or Origin (another site, another loopback port, localhost), 401 for a missing or wrong token on /auth and a wrong ?token=, never a Set-Cookie', async () => {
    const s = await serve();
    const T = s.token;
    const seen: Answer[] = [];
    const expectStatus = async (status: number, target: string, headers: Record<string, string> = {}, method = 'GET') => {
      const answer = await get(s, target, headers, method);
      seen.push(answer);
      expect(answer.status, `${method} ${target} ${JSON.stringify(headers)}`).toBe(status);
      return answer;
    };

    // foreign Host / Origin: 403 before anything else, with or without the token
    for (const host of [`evil.example:${s.port}`, `localhost:${s.port}`, `127.0.0.1:${s.port + 1}`]) {
      await expectStatus(403, '/', { Host: host });
      await expectStatus(403, `/?token=${T}`, { Host: host });
      await expectStatus(403, '/auth', { Host: host, Authorization: `Bearer ${T}` });
    }
    for (const origin of ['http://evil.example', `http://127.0.0.1:${s.port + 1}`, `http://localhost:${s.port}`, 'null']) {
      await expectStatus(403, '/auth', { Origin: origin, Authorization: `Bearer ${T}` });
      await expectStatus(403, `/?token=${T}`, { Origin: origin });
    }

    // the token check
    const missing = await expectStatus(401, '/auth');
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="atrium"');
    await expectStatus(401, '/auth', { Authorization: 'Bearer wrong-token-wrong-token' });
    await expectStatus(401, '/auth', { Cookie: `atrium_token=${T}` });
    await expectStatus(401, `/auth?token=${T}`);
    await expectStatus(204, '/auth', { Authorization: `Bearer ${T}` });
    await expectStatus(204, '/auth', { Authorization: `Bearer ${T}`, Origin: s.origin });
    await expectStatus(401, '/?token=wrong-token-wrong-token');
    await expectStatus(401, '/', { Authorization: 'Bearer wrong-token-wrong-token' });
    await expectStatus(401, '/?token=');
    const moved = await expectStatus(303, `/?token=${T}&x=1`);
    expect(moved.headers.location).toBe(`/?x=1#token=${T}`);

    // the page shell is the public build: served without the token, with the strict headers
    const shell = await expectStatus(200, '/');
    expect(shell.headers['content-security-policy']).toContain("script-src 'self'");
    // the desktop app's app:// scheme sends the same policy, without the WebSocket
    expect(shell.headers['content-security-policy']).toBe(contentSecurityPolicy([s.origin.replace(/^http/, 'ws')]));
    expect(shell.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(shell.headers['cross-origin-resource-policy']).toBe('same-origin');
    await expectStatus(405, '/', {}, 'POST');

    // no response of any kind sets a cookie: there is no cookie scheme left, for 127.0.0.1 or any host
    expect(seen.length).toBeGreaterThan(20);
    for (const answer of seen) expect(answer.headers['set-cookie']).toBeUndefined();
  });

  it('WebSocket: 404 off /ws, 403 for a foreign Host or Origin, 401 unless the token comes as the subprotocol or Bearer (a cookie or the query never counts), atrium.v1 selected', async () => {
    const s = await serve();
    const T = s.token;
    expect(await upgrade(s, '/other', tokenProtocols(T))).toEqual({ status: 404 });
    expect(await upgrade(s, '/ws', tokenProtocols(T), { Origin: 'http://evil.example' })).toEqual({ status: 403 });
    expect(await upgrade(s, '/ws', tokenProtocols(T), { Origin: `http://127.0.0.1:${s.port + 1}` })).toEqual({ status: 403 });
    expect(await upgrade(s, '/ws', tokenProtocols(T), { Origin: `http://localhost:${s.port}` })).toEqual({ status: 403 });
    expect(await upgrade(s, '/ws', tokenProtocols(T), { Host: `evil.example:${s.port}` })).toEqual({ status: 403 });
    expect(await upgrade(s, '/ws')).toEqual({ status: 401 });
    expect(await upgrade(s, '/ws', tokenProtocols('wrong-token-wrong-token'), { Origin: s.origin })).toEqual({ status: 401 });
    expect(await upgrade(s, '/ws', ['atrium.v1'], { Origin: s.origin, Cookie: `atrium_token=${T}` })).toEqual({ status: 401 });
    expect(await upgrade(s, `/ws?token=${T}`, ['atrium.v1'], { Origin: s.origin })).toEqual({ status: 401 });
    expect(await upgrade(s, '/ws', [], { Authorization: 'Bearer wrong-token-wrong-token' })).toEqual({ status: 401 });
    // the token protocol alone: the server would have no protocol to select without echoing the token
    expect(await upgrade(s, '/ws', [`atrium.token.${T}`], { Origin: s.origin })).toEqual({ status: 400 });
    expect(await upgrade(s, '/ws', tokenProtocols(T), { Origin: s.origin })).toEqual({ status: 101, protocol: 'atrium.v1' });
    expect(await upgrade(s, '/ws', [...tokenProtocols(T)].reverse(), { Origin: s.origin })).toEqual({ status: 101, protocol: 'atrium.v1' });
    expect(await upgrade(s, '/ws', [], { Authorization: `Bearer ${T}` })).toEqual({ status: 101, protocol: '' });
  });

  it('prints the address with the token in the fragment, and refuses a token that cannot travel as a subprotocol', async () => {
    const s = await serve();
    expect(s.url).toBe(`${s.origin}/#token=${s.token}`);
    expect(new URL(s.url).search).toBe('');
    expect(tokenFromFragment(new URL(s.url).hash)).toBe(s.token);
    const other = createEngine({ dataDir: tempDir() });
    try {
      await expect(startServer({ engine: other, dispatcher: testDispatcher(other), rendererDir: tempDir(), token: 'has spaces, commas' })).rejects.toThrow('base64url');
    } finally {
      await other.close();
    }
  });
});

describe('token helpers', () => {
  it('compares in constant time whatever the lengths, and reads tokens only from the places meant for them', () => {
    expect(tokensEqual('abc', 'abc')).toBe(true);
    expect(tokensEqual('abd', 'abc')).toBe(false);
    expect(tokensEqual('abcd', 'abc')).toBe(false);
    expect(tokensEqual('', 'abc')).toBe(false);
    expect(tokensEqual(null, 'abc')).toBe(false);
    expect(checkTokens([], 'abc')).toBe('missing');
    expect(checkTokens(['x', 'abc'], 'abc')).toBe('ok');
    expect(checkTokens(['x'], 'abc')).toBe('wrong');
    expect(tokenFromProtocols('atrium.v1, atrium.token.AbC-_9')).toBe('AbC-_9');
    expect(tokenFromProtocols('atrium.v1')).toBeNull();
    expect(tokenFromProtocols(undefined)).toBeNull();
    expect(tokenFromFragment('#token=AbC')).toBe('AbC');
    expect(tokenFromFragment('#/sessions/x')).toBeNull();
    expect(tokenFromFragment('#token=')).toBeNull();
    expect(tokenFromFragment('#token=%E0%A4%A')).toBeNull();
  });
});
