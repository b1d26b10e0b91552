import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { AtriumPage } from './pages/AtriumPage';
import { startAtrium, type ServedAtrium } from './support/server';

let server: ServedAtrium | null = null;
test.afterEach(async () => {
  await server?.stop();
  server = null;
});

test.use({ viewport: { width: 1280, height: 800 } });

test('Add workspace in a browser: ~ is the home folder, folders complete as you type, recent folders are one click away', async ({ page }) => {
  const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-e2e-home-')));
  for (const d of ['src/proj', 'src/proto', 'src/web', 'src/.cache']) fs.mkdirSync(path.join(home, d), { recursive: true });
  server = await startAtrium(undefined, { HOME: home });
  const atrium = new AtriumPage(page);
  await atrium.open(server.url);

  await page.keyboard.press('Control+o');
  const dialog = atrium.addDialog();
  const field = dialog.getByLabel('Folder path');
  await field.fill('~/src/pr');
  await expect.poll(() => atrium.folderCompletions(), { timeout: 10_000 }).toEqual(['~/src/proj/', '~/src/proto/']);
  await field.fill('~/src/');
  await expect.poll(() => atrium.folderCompletions(), { timeout: 10_000 }).toEqual(['~/src/proj/', '~/src/proto/', '~/src/web/']);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: test.info().outputPath(`add-workspace-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // ~/src/proj is a folder in the home folder, not "a relative path"
  await field.fill('~/src/proj');
  await dialog.getByRole('button', { name: 'Add workspace' }).click();
  await expect(dialog).toBeHidden();
  await expect(atrium.workspaceItem('proj')).toBeVisible();
  await expect(page.getByTestId('workspace-path')).toHaveText(path.join(home, 'src/proj'));

  // the next time, the folder the last workspace lives in is offered
  await page.keyboard.press('Control+o');
  await atrium.recentFolder('~/src/').click();
  await expect(field).toHaveValue('~/src/');
  await expect.poll(() => atrium.folderCompletions(), { timeout: 10_000 }).toContain('~/src/web/');
  await field.fill('~/src/web');
  await dialog.getByRole('button', { name: 'Add workspace' }).click();
  await expect(atrium.workspaceItem('web')).toBeVisible();

  // a path that really is relative still says so
  await page.keyboard.press('Control+o');
  await field.fill('src/proj');
  await dialog.getByRole('button', { name: 'Add workspace' }).click();
  await expect(dialog.getByRole('alert')).toContainText('relative path');
});
