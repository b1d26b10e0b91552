import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import WebSocket from 'ws';
import { tokenProtocols } from '../../src/shared/browserAuth';
import { repoRoot } from '../support/corpus';
import { AtriumPage } from './pages/AtriumPage';
import { startAtrium, type ServedAtrium } from './support/server';
import { startSpyServer, type SpyServer } from './support/spyServer';

let server: ServedAtrium;
test.beforeAll(async () => {
  server = await startAtrium();
});
test.afterAll(async () => {
  await server.stop();
});

/** Outcome of one WebSocket handshake: 101 (and the selected subprotocol) or the refusal's status. */
function attempt(url: string, options: { protocols?: string[]; headers?: Record<string, string> } = {}): Promise<{ status: number; protocol?: string }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, options.protocols ?? [], { headers: options.headers });
    ws.on('open', () => {
      resolve({ status: 101, protocol: ws.protocol });
      ws.close();
    });
    ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0 }));
    ws.on('error', () => resolve({ status: -1 }));
  });
}

/** The workspaces in a data directory, read by the real CLI (independent of the server's auth). */
function listWorkspaces(dataDir: string): string[] {
  const out = execFileSync(process.execPath, [path.join(repoRoot, 'bin/atrium.js'), 'workspace', 'list', '--json', '--data-dir', dataDir], { cwd: repoRoot, encoding: 'utf8' });
  return (JSON.parse(out) as { workspaces: Array<{ path: string }> }).workspaces.map((w) => w.path).sort();
}

test('the API needs the token: /auth and a wrong ?token= get 401; the public page shell sets no cookie', async ({ request }) => {
  expect((await request.get(`${server.origin}/auth`)).status()).toBe(401);
  expect((await request.get(`${server.origin}/auth`, { headers: { Authorization: 'Bearer not-the-token-at-all' } })).status()).toBe(401);
  expect((await request.get(`${server.origin}/auth`, { headers: { Cookie: `atrium_token=${server.token}` } })).status()).toBe(401);
  expect((await request.get(`${server.origin}/auth`, { headers: { Authorization: `Bearer ${server.token}` } })).status()).toBe(204);
  expect((await request.get(`${server.origin}/?token=not-the-token`)).status()).toBe(401);
  const shell = await request.get(`${server.origin}/`);
  expect(shell.status()).toBe(200);
  expect(shell.headers()['set-cookie']).toBeUndefined();
  // an address of the old ?token= form: the token moves into the fragment, still no cookie
  const old = await request.get(`${server.origin}/?token=${server.token}`, { maxRedirects: 0 });
  expect(old.status()).toBe(303);
  expect(old.headers().location).toBe(`/#token=${server.token}`);
  expect(old.headers()['set-cookie']).toBeUndefined();
});

test('a request for another Host (DNS rebinding) is refused with 403, even with the token', async ({ request }) => {
  const res = await request.get(`${server.origin}/?token=${server.token}`, { headers: { Host: `evil.example:${server.port}` } });
  expect(res.status()).toBe(403);
  const origin = await request.get(`${server.origin}/?token=${server.token}`, { headers: { Origin: 'http://evil.example' } });
  expect(origin.status()).toBe(403);
  const auth = await request.get(`${server.origin}/auth`, { headers: { Authorization: `Bearer ${server.token}`, Host: `evil.example:${server.port}` } });
  expect(auth.status()).toBe(403);
});

test('the first load takes the token out of the address into this origin’s storage, sets no cookie, and sends a strict CSP', async ({ page, context }) => {
  const response = await page.goto(server.url);
  expect(response?.status()).toBe(200);
  await expect(page.getByText('Atrium', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Add your first workspace' })).toBeVisible();
  expect(page.url()).toBe(`${server.origin}/`);
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("frame-src 'none'");
  expect(response?.headers()['cross-origin-opener-policy']).toBe('same-origin');
  expect(await context.cookies()).toEqual([]);
  expect(await page.evaluate(() => localStorage.getItem('atrium.token'))).toBe(server.token);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Add your first workspace' })).toBeVisible();
});

test('the app loads without a failed request or a console error (its icon included)', async ({ page }) => {
  const failures: string[] = [];
  page.on('response', (r) => r.status() >= 400 && failures.push(`${r.status()} ${r.url()}`));
  page.on('console', (m) => m.type() === 'error' && failures.push(m.text()));
  await page.goto(server.url);
  await expect(page.getByText('Atrium', { exact: true })).toBeVisible();
  const icon = await page.evaluate(() => (document.querySelector('link[rel="icon"]') as HTMLLinkElement | null)?.href ?? null);
  expect(icon).toMatch(/\/favicon\.svg$/);
  expect((await page.request.get(icon!)).headers()['content-type']).toBe('image/svg+xml');
  await page.waitForLoadState('networkidle');
  expect(failures).toEqual([]);
});

test('the WebSocket takes the token only as its subprotocol (or Bearer), never a cookie or the query, and refuses a foreign Origin', async () => {
  const wsUrl = `${server.origin.replace('http', 'ws')}/ws`;
  expect(await attempt(wsUrl)).toEqual({ status: 401 });
  expect(await attempt(wsUrl, { protocols: tokenProtocols('not-the-token-at-all') })).toEqual({ status: 401 });
  expect(await attempt(wsUrl, { headers: { Cookie: `atrium_token=${server.token}` } })).toEqual({ status: 401 });
  expect(await attempt(`${wsUrl}?token=${server.token}`)).toEqual({ status: 401 });
  expect(await attempt(wsUrl, { protocols: tokenProtocols(server.token), headers: { Origin: 'http://evil.example' } })).toEqual({ status: 403 });
  expect(await attempt(wsUrl, { protocols: tokenProtocols(server.token), headers: { Origin: 'http://127.0.0.1:1' } })).toEqual({ status: 403 });
  // the server selects atrium.v1: the token is never echoed back
  expect(await attempt(wsUrl, { protocols: tokenProtocols(server.token), headers: { Origin: server.origin } })).toEqual({ status: 101, protocol: 'atrium.v1' });
  expect(await attempt(wsUrl, { headers: { Authorization: `Bearer ${server.token}` } })).toEqual({ status: 101, protocol: '' });
});

test.describe('another web server on this machine', () => {
  let spy: SpyServer | null = null;
  test.afterEach(async () => {
    await spy?.close();
    spy = null;
  });

  test('receives no token and no Atrium cookie, and neither its pages nor the server itself can drive the API; reload and a second tab still work', async ({ page, context }) => {
    const own = await startAtrium();
    try {
      const base = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-e2e-spy-'));
      const mine = path.join(base, 'mine');
      const planted = path.join(base, 'planted');
      fs.mkdirSync(mine);
      fs.mkdirSync(planted);
      const atrium = new AtriumPage(page);
      await atrium.open(own.url);
      await atrium.addWorkspace(mine);
      await expect(atrium.workspaceItem('mine')).toBeVisible();
      const before = listWorkspaces(own.dataDir);
      expect(before).toEqual([fs.realpathSync(mine)]);

      // the other server's page tries the API from its own origin: fetch with credentials, and the WebSocket
      const script = `
        (async () => {
          const out = {};
          try { const r = await fetch(${JSON.stringify(`${own.origin}/auth`)}, { credentials: 'include' }); out.auth = r.status; } catch { out.auth = 'blocked'; }
          out.ws = await new Promise((resolve) => {
            const ws = new WebSocket(${JSON.stringify(`${own.origin.replace('http', 'ws')}/ws`)});
            ws.onopen = () => {
              ws.send(JSON.stringify({ id: 1, method: 'workspaces.add', params: { path: ${JSON.stringify(planted)} } }));
              ws.onmessage = (m) => resolve('answered: ' + m.data);
            };
            ws.onclose = (e) => resolve('closed ' + e.code);
          });
          await fetch('/report', { method: 'POST', body: JSON.stringify(out) });
        })();`;
      spy = await startSpyServer(`<!doctype html><title>dev server</title><p>a dev server</p><script>${script}</script>`);
      const visitor = await context.newPage();
      for (const host of ['127.0.0.1', 'localhost']) {
        await visitor.goto(`http://${host}:${spy.port}/`);
        await expect.poll(() => spy!.reports.length, { message: `the page on ${host} to report` }).toBeGreaterThanOrEqual(host === '127.0.0.1' ? 1 : 2);
      }
      await visitor.close();
      expect(spy.reports).toEqual([
        { auth: 'blocked', ws: 'closed 1006' },
        { auth: 'blocked', ws: 'closed 1006' },
      ]);

      // nothing the browser sent it carries the token or an Atrium cookie
      expect(spy.requests.length).toBeGreaterThanOrEqual(4);
      for (const r of spy.requests) {
        const sent = JSON.stringify(r);
        expect(sent).not.toContain(own.token);
        expect(sent).not.toContain('atrium_token');
        expect(r.headers.cookie).toBeUndefined();
      }

      // the server itself replays whatever it received, with Atrium's own Origin: still refused
      const captured = Object.fromEntries(
        spy.requests.flatMap((r) => Object.entries(r.headers)).filter(([k]) => ['cookie', 'authorization'].includes(k)) as Array<[string, string]>,
      );
      const replay = await attempt(`${own.origin.replace('http', 'ws')}/ws`, { headers: { ...captured, Origin: own.origin } });
      expect(replay).toEqual({ status: 401 });
      expect(listWorkspaces(own.dataDir)).toEqual(before);

      // Atrium's own tab: a reload and a second tab (opened without the address) still work
      await page.reload();
      await expect(atrium.workspaceItem('mine')).toBeVisible();
      const second = new AtriumPage(await context.newPage());
      await second.open(`${own.origin}/`);
      await expect(second.workspaceItem('mine')).toBeVisible();
      await second.addWorkspace(planted);
      await expect(atrium.workspaceItem('planted')).toBeVisible();
      expect(listWorkspaces(own.dataDir)).toEqual([fs.realpathSync(mine), fs.realpathSync(planted)].sort());
    } finally {
      await own.stop();
    }
  });
});

test('a tab without a token says what to open; the printed address pasted into it connects', async ({ browser }) => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${server.origin}/`);
    await expect(page.getByRole('alert')).toContainText('This tab has no valid token for this Atrium server');
    // a page elsewhere that opens Atrium with a made-up token gets the same answer
    await page.goto(`${server.origin}/#token=made-up-token-0000000000`);
    await expect(page.getByRole('alert')).toContainText('no valid token');
    await page.goto(server.url);
    await expect(page.getByRole('heading', { name: 'Add your first workspace' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
    expect(page.url()).toBe(`${server.origin}/`);
    // once stored, a made-up token in the address does not log the tab out
    await page.goto(`${server.origin}/#token=made-up-token-0000000000`);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Add your first workspace' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('atrium.token'))).toBe(server.token);
  } finally {
    await context.close();
  }
});

