import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { AtriumPage } from './pages/AtriumPage';
import { startAtrium, type ServedAtrium } from './support/server';
import { MONOREPO, SMALL_REPO } from './support/workspaces';

let server: ServedAtrium | null = null;
test.afterEach(async () => {
  await server?.stop();
  server = null;
});

for (const source of MONOREPO) {
  test(`a new user adds a workspace (${source.name}), sees it listed, and it survives a server restart`, async ({ page }) => {
    test.skip(source.skipReason !== null, source.skipReason ?? '');
    const folder = source.make();
    const name = path.basename(folder);
    server = await startAtrium();
    const atrium = new AtriumPage(page);
    await atrium.open(server.url);

    await expect(page.getByRole('heading', { name: 'Add your first workspace' })).toBeVisible();
    await atrium.addWorkspace(folder);
    await expect(atrium.workspaceItem(name)).toBeVisible();
    await expect(atrium.heading()).toHaveText(name);
    await expect(page.getByTestId('workspace-path')).toHaveText(fs.realpathSync(folder));
    await expect(page.getByTestId('workspace-git')).toHaveText('Git repository');

    const dataDir = server.dataDir;
    await server.stop();
    server = await startAtrium(dataDir);
    await atrium.open(server.url);
    await expect(atrium.workspaceItems).toHaveCount(1);
    await expect(atrium.workspaceItem(name)).toBeVisible();
  });
}

for (const source of SMALL_REPO) {
  test(`the add dialog shows the engine’s validation messages and adds a folder only once (${source.name})`, async ({ page }) => {
    test.skip(source.skipReason !== null, source.skipReason ?? '');
    const folder = source.make();
    server = await startAtrium();
    const atrium = new AtriumPage(page);
    await atrium.open(server.url);

    await atrium.addWorkspace('relative/path');
    await expect(atrium.addDialog().getByRole('alert')).toContainText('relative path');
    await atrium.addDialog().getByLabel('Folder path').fill(path.join(folder, 'AGENTS.md'));
    await atrium.addDialog().getByRole('button', { name: 'Add workspace' }).click();
    await expect(atrium.addDialog().getByRole('alert')).toContainText('is a file, not a folder');
    await atrium.addDialog().getByLabel('Folder path').fill(path.join(folder, 'nope'));
    await atrium.addDialog().getByRole('button', { name: 'Add workspace' }).click();
    await expect(atrium.addDialog().getByRole('alert')).toContainText('does not exist');
    await page.keyboard.press('Escape');

    await atrium.addWorkspace(`${folder}/`);
    await expect(atrium.workspaceItems).toHaveCount(1);
    await atrium.addWorkspace(folder);
    await expect(page.getByText('already in your list')).toBeVisible();
    await expect(atrium.workspaceItems).toHaveCount(1);
  });
}

test('rename and remove from the UI; another tab sees the change live; a vanished folder is listed as missing', async ({ page, context }) => {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-e2e-'));
  const keep = path.join(parent, 'keep');
  const gone = path.join(parent, 'gone');
  fs.mkdirSync(keep);
  fs.mkdirSync(gone);
  server = await startAtrium();
  const atrium = new AtriumPage(page);
  await atrium.open(server.url);
  await atrium.addWorkspace(keep);
  await atrium.addWorkspace(gone);
  await expect(atrium.workspaceItems).toHaveCount(2);

  const other = new AtriumPage(await context.newPage());
  await other.open(server.url);
  await expect(other.workspaceItems).toHaveCount(2);

  await atrium.workspaceItem('keep').click();
  await atrium.renameSelected('Kept project');
  await expect(atrium.workspaceItem('Kept project')).toBeVisible();
  await expect(other.workspaceItem('Kept project')).toBeVisible();

  fs.rmSync(gone, { recursive: true });
  await page.reload();
  await expect(atrium.workspaceItem('gone')).toContainText('missing');
  await atrium.workspaceItem('gone').click();
  await expect(atrium.missingBanner()).toContainText('The folder is missing');
  await atrium.removeSelected();
  await expect(atrium.workspaceItems).toHaveCount(1);
  await expect(other.workspaceItems).toHaveCount(1);
  expect(fs.existsSync(keep)).toBe(true);
});

test('keyboard: Ctrl+O opens the add dialog, arrows move through the list, F2 renames', async ({ page }) => {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-e2e-'));
  for (const n of ['alpha', 'beta']) fs.mkdirSync(path.join(parent, n));
  server = await startAtrium();
  const atrium = new AtriumPage(page);
  await atrium.open(server.url);
  for (const n of ['alpha', 'beta']) {
    await page.keyboard.press('Control+o');
    await atrium.addDialog().getByLabel('Folder path').fill(path.join(parent, n));
    await page.keyboard.press('Enter');
    await expect(atrium.workspaceItem(n)).toBeVisible();
  }
  await atrium.workspaceItem('alpha').focus();
  await page.keyboard.press('ArrowDown');
  await expect(atrium.heading()).toHaveText('beta');
  await page.keyboard.press('F2');
  // the current name is selected: typing replaces it
  await expect(page.getByLabel('Display name')).toBeFocused();
  await page.keyboard.type('Beta renamed');
  await page.keyboard.press('Enter');
  await expect(atrium.workspaceItem('Beta renamed')).toBeVisible();

  // Back and Forward move between workspaces inside Atrium
  await atrium.workspaceItem('alpha').click();
  await expect(atrium.heading()).toHaveText('alpha');
  await page.goBack();
  await expect(atrium.heading()).toHaveText('Beta renamed');
  await page.goForward();
  await expect(atrium.heading()).toHaveText('alpha');
});
