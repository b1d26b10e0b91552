import { expect, test } from '@playwright/test';
import WebSocket from 'ws';
import { startAtrium, type ServedAtrium } from './support/server';

let server: ServedAtrium;
test.beforeAll(async () => {
  server = await startAtrium();
});
test.afterAll(async () => {
  await server.stop();
});

test('a request without the token is refused with 401', async ({ request }) => {
  const res = await request.get(`${server.origin}/`);
  expect(res.status()).toBe(401);
  const wrong = await request.get(`${server.origin}/?token=not-the-token`);
  expect(wrong.status()).toBe(401);
});

test('a request for another Host (DNS rebinding) is refused with 403, even with the token', async ({ request }) => {
  const res = await request.get(`${server.origin}/?token=${server.token}`, { headers: { Host: `evil.example:${server.port}` } });
  expect(res.status()).toBe(403);
  const origin = await request.get(`${server.origin}/?token=${server.token}`, { headers: { Origin: 'http://evil.example' } });
  expect(origin.status()).toBe(403);
});

test('the first load moves the token into an HttpOnly SameSite=Strict cookie and sends a strict CSP', async ({ page, context }) => {
  const response = await page.goto(server.url);
  expect(response?.status()).toBe(200);
  expect(new URL(page.url()).searchParams.has('token')).toBe(false);
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  const cookies = await context.cookies();
  const cookie = cookies.find((c) => c.name === 'atrium_token');
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe('Strict');
  await page.reload();
  await expect(page.getByText('Atrium', { exact: true })).toBeVisible();
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

test('the WebSocket refuses a missing token and a foreign Origin', async () => {
  const attempt = (url: string, headers: Record<string, string> = {}) =>
    new Promise<number>((resolve) => {
      const ws = new WebSocket(url, { headers });
      ws.on('open', () => (ws.close(), resolve(101)));
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('error', () => resolve(-1));
    });
  const wsUrl = server.origin.replace('http', 'ws') + '/ws';
  expect(await attempt(wsUrl)).toBe(401);
  expect(await attempt(`${wsUrl}?token=${server.token}`, { Origin: 'http://evil.example' })).toBe(403);
  expect(await attempt(`${wsUrl}?token=${server.token}`, { Origin: server.origin })).toBe(101);
});
