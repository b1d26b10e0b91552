import { expect, test } from '@playwright/test';
import { AtriumPage } from './pages/AtriumPage';
import { ConnectionPage } from './pages/ConnectionPage';
import { atriumCli } from './support/scriptedWorkspace';
import { startAtrium, type ServedAtrium } from './support/server';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

test.use({ viewport: { width: 1280, height: 800 } });

/** A free port and a data directory (a first server picks the port and stops). */
async function fixedPort(): Promise<{ port: number; dataDir: string }> {
  const probe = await startAtrium();
  await probe.stop();
  return { port: probe.port, dataDir: probe.dataDir };
}

test('restarting serve on the same --port and data directory: the open tab disables its actions while down and reconnects by itself', async ({ page }) => {
  const { port, dataDir } = await fixedPort();
  let served: ServedAtrium | null = await startAtrium(dataDir, {}, port);
  try {
    const atrium = new AtriumPage(page);
    const connection = new ConnectionPage(page);
    await atrium.open(served.url);
    await expect(page.getByRole('heading', { name: 'Add your first workspace' })).toBeVisible();
    const token = served.token;
    await served.stop();
    served = null;

    await expect(connection.lost).toContainText('Lost the connection to Atrium', { timeout: 20_000 });
    await expect(connection.lost).toContainText('with the same --port and --data-dir this tab reconnects by itself');
    await expect(connection.addWorkspace).toBeDisabled();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: test.info().outputPath(`disconnected-${scheme}.png`) });
    }
    // a workspace added meanwhile shows up once the tab is back
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-e2e-back-'));
    atriumCli(dataDir, ['workspace', 'add', folder, '--name', 'added-while-down']);

    served = await startAtrium(dataDir, {}, port);
    expect(served.token).toBe(token);
    await expect(connection.lost).toBeHidden({ timeout: 20_000 });
    await expect(connection.addWorkspace).toBeEnabled();
    await expect(atrium.workspaceItem('added-while-down')).toBeVisible();
  } finally {
    await served?.stop();
  }
});

test('restarted with a new token: the tab says what to do and reconnects when the new address is opened in another tab; an old token in an address gets a styled page', async ({ page, context }) => {
  const { port, dataDir } = await fixedPort();
  let served: ServedAtrium | null = await startAtrium(dataDir, {}, port);
  let second: ServedAtrium | null = null;
  try {
    const atrium = new AtriumPage(page);
    const connection = new ConnectionPage(page);
    await atrium.open(served.url);
    await expect(page.getByRole('heading', { name: 'Add your first workspace' })).toBeVisible();
    const oldToken = served.token;
    await served.stop();
    served = null;
    second = await startAtrium(dataDir, {}, port, ['--new-token']);
    expect(second.token).not.toBe(oldToken);

    await expect(connection.refused).toContainText('Atrium restarted with a new token', { timeout: 30_000 });
    await expect(connection.refused).toContainText('this tab reconnects by itself as soon as you do');
    await expect(connection.addWorkspace).toBeDisabled();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: test.info().outputPath(`new-token-${scheme}.png`) });
    }

    // the user opens the address the new server printed, in another tab: this one comes back too
    const other = await context.newPage();
    await new AtriumPage(other).open(second.url);
    await expect(other.getByRole('heading', { name: 'Add your first workspace' })).toBeVisible();
    await expect(connection.refused).toBeHidden({ timeout: 20_000 });
    await expect(connection.addWorkspace).toBeEnabled();

    // an address with the old token (the query form) answers a styled page that says what to do, not bare text
    const response = await other.goto(`${second.origin}/?token=${oldToken}`);
    expect(response?.status()).toBe(401);
    await expect(other.getByRole('heading', { name: 'This Atrium address has an old token' })).toBeVisible();
    await expect(other.getByRole('main')).toContainText('atrium serve --port 8123');
    for (const scheme of ['light', 'dark'] as const) {
      await other.emulateMedia({ colorScheme: scheme });
      await other.screenshot({ path: test.info().outputPath(`unauthorized-page-${scheme}.png`) });
    }
  } finally {
    await served?.stop();
    await second?.stop();
  }
});
