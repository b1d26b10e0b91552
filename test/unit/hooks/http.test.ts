import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { hostAllowed, hostNeedingAllowance, isPrivateAddress, postHook } from '../../../src/main/core/hooks/http';
import { hookWorld } from './helpers';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A local server recording what it receives; `handler` answers. */
async function serve(handler: (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void): Promise<{ url: string; bodies: string[]; headers: http.IncomingHttpHeaders[] }> {
  const bodies: string[] = [];
  const headers: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      bodies.push(body);
      headers.push(req.headers);
      handler(req, body, res);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies, headers };
}

describe('http hook policy', () => {
  it('classifies loopback, private, link-local and public addresses', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.1', '192.168.1.1', '169.254.169.254', '::1', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '0.0.0.0', '100.64.0.1']) expect(isPrivateAddress(a), a).toBe(true);
    for (const a of ['8.8.8.8', '172.32.0.1', '1.1.1.1', '2606:4700::1111']) expect(isPrivateAddress(a), a).toBe(false);
    expect(hostAllowed('api.example.com', ['*.example.com'])).toBe(true);
    expect(hostAllowed('example.com', ['*.example.com'])).toBe(false);
    expect(hostAllowed('127.0.0.1', ['127.0.0.1'])).toBe(true);
  });

  it('refuses plain http, loopback and private addresses unless the host is allowed; then POSTs the input JSON', async () => {
    const srv = await serve((_req, _body, res) => res.end(JSON.stringify({ decision: 'block', reason: 'from http' })));
    const base = { body: '{"a":1}', headers: {}, allowedEnvVars: [], timeoutMs: 5000 };
    expect((await postHook({ ...base, url: `${srv.url}/hook`, allowedHosts: [] })).refused).toMatch(/must use https/);
    expect((await postHook({ ...base, url: 'https://127.0.0.1:1/hook', allowedHosts: [] })).refused).toMatch(/loopback or private/);
    expect((await postHook({ ...base, url: 'https://localhost:1/hook', allowedHosts: [] })).refused).toMatch(/loopback or private/);
    expect((await postHook({ ...base, url: 'https://10.0.0.1/hook', allowedHosts: [] })).refused).toMatch(/loopback or private/);
    expect(srv.bodies).toEqual([]);
    const ok = await postHook({ ...base, url: `${srv.url}/hook`, allowedHosts: ['127.0.0.1'] });
    expect(ok).toMatchObject({ status: 200, refused: null, error: null });
    expect(srv.bodies).toEqual(['{"a":1}']);
    expect(srv.headers[0]['content-type']).toBe('application/json');
  });

  it('follows no redirect, caps the response at 256 KiB, times out, and expands only allowed env vars in headers', async () => {
    process.env.HOOK_ALLOWED_TOKEN = 'tok-allowed';
    process.env.HOOK_OTHER_SECRET = 'tok-other';
    const srv = await serve((req, _body, res) => {
      if (req.url === '/redirect') {
        res.writeHead(302, { location: '/elsewhere' });
        res.end();
      } else if (req.url === '/big') res.end('x'.repeat(400 * 1024));
      else if (req.url === '/slow') setTimeout(() => res.end('late'), 3000);
      else res.end('ok');
    });
    const base = { body: '{}', allowedEnvVars: ['HOOK_ALLOWED_TOKEN'], timeoutMs: 5000, allowedHosts: ['127.0.0.1'] };
    expect(await postHook({ ...base, url: `${srv.url}/redirect`, headers: {} })).toMatchObject({ status: 302, error: 'redirect (302) not followed' });
    expect(srv.bodies).toHaveLength(1);
    const big = await postHook({ ...base, url: `${srv.url}/big`, headers: {} });
    expect(big).toMatchObject({ truncated: true });
    expect(big.body.length).toBe(256 * 1024);
    expect(await postHook({ ...base, url: `${srv.url}/slow`, headers: {}, timeoutMs: 200 })).toMatchObject({ timedOut: true, status: null });
    await postHook({ ...base, url: `${srv.url}/h`, headers: { Authorization: 'Bearer ${HOOK_ALLOWED_TOKEN}', 'X-Other': '$HOOK_OTHER_SECRET' } });
    const last = srv.headers[srv.headers.length - 1];
    expect(last.authorization).toBe('Bearer tok-allowed');
    expect(last['x-other']).toBe('');
  });

  it('one decision for hosts the policy refuses up front: plain http, localhost, private IP literals (v4, v6, CGNAT), unless allowed', () => {
    expect(hostNeedingAllowance('https://hooks.example.com/x')).toBeNull();
    expect(hostNeedingAllowance('http://hooks.example.com/x')).toBe('hooks.example.com');
    expect(hostNeedingAllowance('https://localhost:8443/x')).toBe('localhost');
    expect(hostNeedingAllowance('https://10.1.2.3/x')).toBe('10.1.2.3');
    expect(hostNeedingAllowance('https://100.64.0.1/x')).toBe('100.64.0.1');
    expect(hostNeedingAllowance('https://[fd00::1]/x')).toBe('fd00::1');
    expect(hostNeedingAllowance('https://10.example.com/x')).toBeNull();
    expect(hostNeedingAllowance('http://127.0.0.1:9/x', ['127.0.0.1'])).toBeNull();
    expect(hostNeedingAllowance('not a url')).toBeNull();
  });

  it('an approved http hook runs through the engine only for an allowed host; its JSON answer decides', async () => {
    const srv = await serve((_req, _body, res) => res.end(JSON.stringify({ decision: 'block', reason: 'not yet' })));
    const w = hookWorld();
    w.write({ '.claude/settings.json': { hooks: { Stop: [{ hooks: [{ type: 'http', url: `${srv.url}/stop` }] }] } } });
    const hook = (await w.list()).hooks[0];
    expect(hook.danger.map((d) => d.code)).toEqual(['http-insecure', 'network']);
    expect(hook.refusedHost).toBe('127.0.0.1');
    await w.engine.hooks.approve({ path: w.project }, [{ id: hook.id }]);
    const refused = await w.engine.hooks.run('Stop', {}, { path: w.project });
    expect(refused.results[0].message).toMatch(/refused by the http policy/);
    expect(refused.decision).toBe('none');
    expect(srv.bodies).toEqual([]);
    w.engine.hooks.allowHttpHost('127.0.0.1', true);
    expect((await w.list()).hooks[0].refusedHost).toBeNull();
    const out = await w.engine.hooks.run('Stop', { stop_hook_active: false }, { path: w.project });
    expect(out).toMatchObject({ decision: 'block', reason: 'not yet', results: [{ exitCode: 200 }] });
    expect(JSON.parse(srv.bodies[0])).toMatchObject({ hook_event_name: 'Stop', cwd: w.project, stop_hook_active: false });
  });
});
