import { lookup } from 'node:dns/promises';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { embeddedIPv4, hostNeedingAllowance, isLocalHost, isPrivateAddress, postHook } from '../../../src/main/core/hooks/http';
import { hookWorld } from './helpers';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A plain http server on 127.0.0.1 that counts every TCP connection (a TLS hello to it counts too). */
async function loopbackServer(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_q, r) => r.end('{}')) {
  const connections: Socket[] = [];
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    paths.push(req.url ?? '');
    handler(req, res);
  });
  server.on('connection', (c) => connections.push(c));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, connections, paths };
}

const base = { body: '{"a":1}', headers: {}, allowedEnvVars: [], timeoutMs: 5000, allowedHosts: [] as string[] };

describe('IPv6 literals that carry an IPv4 address are judged by the IPv4 address they reach', () => {
  it('mapped, translated, compatible, NAT64, 6to4 and Teredo forms of loopback/private addresses are private; the public ones are not', () => {
    const loopbackForms = ['::ffff:127.0.0.1', '::ffff:7f00:1', '[::ffff:7f00:1]', '::ffff:0:7f00:1', '::7f00:1', '::127.0.0.1', '64:ff9b::7f00:1', '64:ff9b::127.0.0.1', '2002:7f00:1::1', '2002:c0a8:101::', '2001:0:4136:e378:8000:63bf:80ff:fffe', '::ffff:a00:1', '64:ff9b::a9fe:a9fe', '64:ff9b:1::1', 'fec0::1', '100::1', 'fe80::1%eth0'];
    for (const a of loopbackForms) expect(isPrivateAddress(a), a).toBe(true);
    for (const a of ['::ffff:808:808', '64:ff9b::808:808', '2002:808:808::1', '2001:0:4136:e378:8000:63bf:f7f7:f7f7', '2606:4700::1111', '2001:db9::1']) expect(isPrivateAddress(a), a).toBe(false);
    expect(embeddedIPv4('::ffff:7f00:1')).toEqual(['127.0.0.1']);
    expect(embeddedIPv4('2002:c0a8:101::1')).toEqual(['192.168.1.1']);
    expect(embeddedIPv4('2001:0:4136:e378:8000:63bf:80ff:fffe')).toEqual(['65.54.227.120', '127.0.0.1']);
    expect(embeddedIPv4('::1')).toBeNull();
    expect(embeddedIPv4('2606:4700::1111')).toBeNull();
    // the WHATWG URL parser rewrites the dotted form to hex; both are refused before any request
    expect(new URL('https://[::ffff:127.0.0.1]/').hostname).toBe('[::ffff:7f00:1]');
    expect(hostNeedingAllowance('https://[::ffff:127.0.0.1]/hook')).toBe('::ffff:7f00:1');
    expect(hostNeedingAllowance('https://[64:ff9b::7f00:1]/hook')).toBe('64:ff9b::7f00:1');
    expect(hostNeedingAllowance('https://[2002:7f00:1::]/hook')).toBe('2002:7f00:1::');
    expect(hostNeedingAllowance('https://[::ffff:808:808]/hook')).toBeNull();
    expect(hostNeedingAllowance('https://[::ffff:7f00:1]/hook', ['::ffff:7f00:1'])).toBeNull();
    for (const h of ['localhost.', 'api.localhost', 'API.LOCALHOST.']) expect(isLocalHost(h), h).toBe(true);
  });

  it('postHook to [::ffff:127.0.0.1] and the other forms never opens a connection to the loopback server', async () => {
    const srv = await loopbackServer();
    for (const host of ['[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[::ffff:0:7f00:1]', '[::7f00:1]', '[64:ff9b::7f00:1]', '[2002:7f00:1::1]']) {
      const r = await postHook({ ...base, url: `https://${host}:${srv.port}/hook` });
      expect(r.refused, host).toMatch(/loopback or private address \(it reaches 127\.0\.0\.1\)/);
    }
    expect(srv.connections).toHaveLength(0);
    // allowing the exact host lets it through (the mapped address reaches the IPv4 listener)
    const allowed = await postHook({ ...base, url: `http://[::ffff:127.0.0.1]:${srv.port}/ok`, allowedHosts: ['::ffff:7f00:1'] });
    expect(allowed).toMatchObject({ status: 200, refused: null });
    expect(srv.paths).toEqual(['/ok']);
  });

  it('a DNS name is judged by what it resolves to at request time, and a *.localhost name is refused before DNS', async () => {
    const srv = await loopbackServer();
    const name = os.hostname();
    const answers = await lookup(name, { all: true }).catch(() => []);
    expect(answers.length > 0 && answers.every((a) => isPrivateAddress(a.address)), `${name} resolves to a private address on this machine`).toBe(true);
    const r = await postHook({ ...base, url: `https://${name}:${srv.port}/hook` });
    expect(r.refused).toMatch(new RegExp(`^${name} resolves to .*, a loopback or private address`));
    const dot = await postHook({ ...base, url: `https://atrium-test.localhost:${srv.port}/hook` });
    expect(dot.refused).toMatch(/atrium-test\.localhost is a loopback or private address/);
    expect(srv.connections).toHaveLength(0);
  });

  it('a redirect to a mapped loopback address is not followed', async () => {
    const srv = await loopbackServer((req, res) => {
      if (req.url === '/first') {
        res.writeHead(307, { location: `https://[::ffff:7f00:1]:${srv.port}/second` });
        res.end();
      } else res.end('{"decision":"block"}');
    });
    const r = await postHook({ ...base, url: `http://127.0.0.1:${srv.port}/first`, allowedHosts: ['127.0.0.1'] });
    expect(r).toMatchObject({ status: 307, error: 'redirect (307) not followed' });
    expect(srv.paths).toEqual(['/first']);
  });

  it('the Hooks listing and MCP url danger marks use the same judgement', async () => {
    const w = hookWorld();
    w.write({
      '.claude/settings.json': { hooks: { Stop: [{ hooks: [{ type: 'http', url: 'https://[::ffff:127.0.0.1]:8443/hook' }, { type: 'http', url: 'https://[2002:808:808::1]/hook' }] }] } },
      '.mcp.json': { mcpServers: { nat64: { type: 'http', url: 'https://[64:ff9b::a00:5]/mcp' } } },
    });
    const listing = await w.list();
    const [mapped, publicOne] = listing.hooks;
    expect(mapped.refusedHost).toBe('::ffff:7f00:1');
    expect(mapped.danger).toContainEqual({ code: 'network', message: 'posts hook input to a local or private address ([::ffff:7f00:1])' });
    expect(publicOne.refusedHost).toBeNull();
    expect(listing.mcpServers[0].danger).toContainEqual({ code: 'network', message: 'connects to a local or private address ([64:ff9b::a00:5])' });
  });
});
