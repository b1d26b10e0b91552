import { expect, test } from '@playwright/test';
import { AtriumPage } from './pages/AtriumPage';
import { startAtrium, type ServedAtrium } from './support/server';
import { runCli } from '../support/cli';

let server: ServedAtrium | null = null;
test.afterEach(async () => {
  await server?.stop();
  server = null;
});

test('the Sessions view changes the idle-shutdown setting, and the engine keeps it', async ({ page }) => {
  server = await startAtrium();
  const atrium = new AtriumPage(page);
  await atrium.open(server.url);
  await page.getByRole('navigation', { name: 'Workspaces' }).getByRole('button', { name: /^Sessions/ }).click();
  const setting = page.getByLabel('Stop idle agents');
  await expect(setting).toHaveValue('10');
  await setting.selectOption({ label: 'after 30 min' });
  await expect(page.getByText('Idle agents stop after 30 min')).toBeVisible();
  await page.reload();
  await page.getByRole('navigation', { name: 'Workspaces' }).getByRole('button', { name: /^Sessions/ }).click();
  await expect(page.getByLabel('Stop idle agents')).toHaveValue('30');
  // the same setting as the CLI's (another process on the same data directory)
  expect(runCli(['session', 'settings', '--json', '--data-dir', server.dataDir]).json).toEqual({ idleMinutes: 30 });
});
