import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';
import { repoRoot } from '../support/corpus';

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
