import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { _electron as electron, expect, test } from '@playwright/test';
import { repoRoot } from '../support/corpus';
import { AtriumPage } from '../e2e/pages/AtriumPage';
import { LinksPage } from '../e2e/pages/LinksPage';
import { SessionsPage } from '../e2e/pages/SessionsPage';

// Runs only where an Electron binary exists (scripts/test-electron.mjs passes its path).
test('the desktop app opens, lists a workspace added through the contract, and keeps the renderer sandboxed', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-electron-'));
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-electron-ws-'));
  const app = await electron.launch({
    executablePath: process.env.ATRIUM_ELECTRON_BIN,
    args: [repoRoot, `--data-dir=${dataDir}`, '--no-sandbox'],
    env: { ...process.env, ATRIUM_DATA_DIR: dataDir },
  });
  try {
    const page = await app.firstWindow();
    await expect(page.getByRole('heading', { name: 'Add your first workspace' })).toBeVisible();
    expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
    const result = await page.evaluate((dir) => (window as unknown as { atrium: { invoke(m: string, p: unknown): Promise<unknown> } }).atrium.invoke('workspaces.add', { path: dir }), folder);
    expect(result).toMatchObject({ ok: true });
    await expect(page.getByRole('navigation', { name: 'Workspaces' }).getByRole('option')).toHaveCount(1);
  } finally {
    await app.close();
  }
});

/**
 * Starts the built app on a fresh data directory. The tests run one at a time (workers: 1), each
 * closing its app, so the single-instance lock (Electron's userData folder) is free at each start.
 */
async function launchApp(extraArgs: string[] = []) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-electron-'));
  const args = [repoRoot, `--data-dir=${dataDir}`, '--no-sandbox'];
  const app = await electron.launch({ executablePath: process.env.ATRIUM_ELECTRON_BIN, args: [...args, ...extraArgs], env: { ...process.env, ATRIUM_DATA_DIR: dataDir } });
  const page = await app.firstWindow();
  await page.waitForLoadState('domcontentloaded');
  return { app, page, args, dataDir };
}

test('the window is loaded from app://atrium, not file://', async () => {
  const { app, page } = await launchApp();
  try {
    expect(page.url()).toMatch(/^app:\/\/atrium\/index\.html/);
    expect(await page.evaluate(() => location.origin)).toBe('app://atrium');
    expect(await page.evaluate(() => window.isSecureContext)).toBe(true);
  } finally {
    await app.close();
  }
});

test('the app:// responses carry the CSP: inline scripts and eval are blocked', async () => {
  const { app, page } = await launchApp();
  try {
    const csp = await page.evaluate(async () => (await fetch('app://atrium/index.html')).headers.get('content-security-policy'));
    expect(csp).toContain("script-src 'self'");
    const outcome = await page.evaluate(async () => {
      const violations: string[] = [];
      document.addEventListener('securitypolicyviolation', (e) => violations.push(e.violatedDirective));
      const script = document.createElement('script');
      script.textContent = 'window.__inlineRan = true';
      document.head.append(script);
      let evalRan = false;
      try {
        evalRan = (0, eval)('true') as boolean;
      } catch {
        evalRan = false;
      }
      await new Promise((r) => setTimeout(r, 100));
      return { inlineRan: (window as unknown as { __inlineRan?: boolean }).__inlineRan === true, evalRan, violations };
    });
    expect(outcome.inlineRan).toBe(false);
    expect(outcome.evalRan).toBe(false);
    expect(outcome.violations.some((d) => d.startsWith('script-src'))).toBe(true);
    // a file outside the built renderer is not served
    expect(await page.evaluate(async () => (await fetch('app://atrium/%2e%2e/main/index.js')).status)).toBe(404);
  } finally {
    await app.close();
  }
});

test('web permission requests are denied', async () => {
  const { app, page } = await launchApp();
  try {
    expect(await page.evaluate(() => Notification.requestPermission())).toBe('denied');
    expect(await page.evaluate(async () => (await navigator.permissions.query({ name: 'geolocation' })).state)).toBe('denied');
    const media = await page.evaluate(() => navigator.mediaDevices.getUserMedia({ audio: true }).then(() => 'granted', (e: Error) => e.name));
    expect(media).not.toBe('granted');
  } finally {
    await app.close();
  }
});

test('a <webview> gets no guest page', async () => {
  const { app, page } = await launchApp();
  try {
    const before = await app.evaluate(({ webContents }) => webContents.getAllWebContents().length);
    await page.evaluate(() => {
      const view = document.createElement('webview');
      view.setAttribute('src', 'app://atrium/index.html');
      document.body.append(view);
    });
    await page.waitForTimeout(500);
    expect(await app.evaluate(({ webContents }) => webContents.getAllWebContents().length)).toBe(before);
  } finally {
    await app.close();
  }
});

test('atrium:// links route into the app: on the first launch, and from a second launch that then quits', async () => {
  const { app, page, args } = await launchApp(['atrium://sessions']);
  try {
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/sessions');
    await page.evaluate(() => (location.hash = '#/'));
    // a second launch loses the single-instance lock, hands over its link and exits
    const second = spawnSync(process.env.ATRIUM_ELECTRON_BIN!, [...args, 'atrium://sessions'], { timeout: 30_000, env: process.env });
    expect(second.status).toBe(0);
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/sessions');
    // a malformed link changes nothing
    spawnSync(process.env.ATRIUM_ELECTRON_BIN!, [...args, 'atrium://workspace/..%2f..'], { timeout: 30_000, env: process.env });
    expect(await page.evaluate(() => location.origin)).toBe('app://atrium');
    expect(await page.evaluate(() => location.hash)).toBe('#/sessions');
  } finally {
    await app.close();
  }
});

test('a link the agent prints opens in the system browser only after the confirmation, and never in the window', async () => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-electron-links-'));
  const dataDir = path.join(base, 'data');
  const ws = path.join(base, 'project');
  fs.mkdirSync(ws);
  // the workspace and the scripted agent, defined with the CLI a user runs (plain Node, same data dir)
  const cli = (...args: string[]) => execFileSync(process.execPath, [path.join(repoRoot, 'bin/atrium.js'), ...args, '--data-dir', dataDir], { cwd: repoRoot, encoding: 'utf8' });
  cli('workspace', 'add', ws, '--name', 'project');
  const scenario = path.join(base, 'links.json');
  const reply = 'See [the guide](https://docs.example.test/guide) or [local admin](http://2130706433/admin).';
  fs.writeFileSync(scenario, JSON.stringify({ turns: [{ match: 'links', steps: [{ text: reply }, { stop: 'end_turn' }] }] }));
  const loader = pathToFileURL(path.join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;
  const agent = path.join(repoRoot, 'test/fixtures/agents/scripted-agent.ts');
  execFileSync(process.execPath, [path.join(repoRoot, 'bin/atrium.js'), 'agents', 'define', 'scripted', process.execPath, '--name', 'Scripted agent', '--data-dir', dataDir, '--', '--import', loader, agent, '--scenario', scenario], { cwd: repoRoot });

  const app = await electron.launch({
    executablePath: process.env.ATRIUM_ELECTRON_BIN,
    args: [repoRoot, `--data-dir=${dataDir}`, '--no-sandbox'],
    env: { ...process.env, ATRIUM_DATA_DIR: dataDir },
  });
  try {
    // the system browser is the main process's shell.openExternal: record instead of launching one
    await app.evaluate(({ shell }) => {
      const opened: string[] = [];
      (globalThis as { __opened?: string[] }).__opened = opened;
      shell.openExternal = async (url: string) => {
        opened.push(url);
      };
    });
    const page = await app.firstWindow();
    const sessions = new SessionsPage(page);
    const links = new LinksPage(page);
    await new AtriumPage(page).workspaceItem('project').click();
    await sessions.openTab();
    await sessions.startSession('Scripted agent', 'show me the links');
    const message = sessions.items('agent_message').last();
    await expect(message).toContainText('local admin');
    const appUrl = page.url();

    await links.activate(links.link(message, 'local admin'));
    await expect(links.address).toHaveText('http://127.0.0.1/admin');
    expect(await links.warningKeys()).toEqual(['insecure', 'ip-address']);
    await links.cancel();

    await links.activate(links.link(message, 'the guide'));
    await expect(links.address).toHaveText('https://docs.example.test/guide');
    await links.openButton.click();
    await expect(links.dialog).toBeHidden();
    await expect.poll(() => app.evaluate(() => (globalThis as { __opened?: string[] }).__opened)).toEqual(['https://docs.example.test/guide']);
    expect(page.url()).toBe(appUrl);
    expect(app.windows()).toHaveLength(1);
  } finally {
    await app.close();
  }
});
