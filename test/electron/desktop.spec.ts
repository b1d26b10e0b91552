import { execFileSync } from 'node:child_process';
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
