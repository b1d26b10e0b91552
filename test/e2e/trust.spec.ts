import { expect, test } from '@playwright/test';
import { materialize } from '../support/corpus';
import { AtriumPage } from './pages/AtriumPage';
import { TrustPage } from './pages/TrustPage';
import { startAtrium, type ServedAtrium } from './support/server';

let server: ServedAtrium | null = null;
test.afterEach(async () => {
  await server?.stop();
  server = null;
});

test('an undecided corpus workspace shows the restricted banner; the review shows a hook literally; trusting persists across restarts', async ({ page }) => {
  const folder = materialize('platformplatform__PlatformPlatform');
  server = await startAtrium();
  const atrium = new AtriumPage(page);
  const trust = new TrustPage(page);
  await atrium.open(server.url);
  await atrium.addWorkspace(folder);

  await expect(trust.banner).toContainText('Restricted mode');
  await expect(trust.banner).toContainText(/\d+ instruction files?, \d+ hooks?, \d+ MCP servers? are inactive/);
  await expect(atrium.workspaceItem('platformplatform__PlatformPlatform').locator('[data-trust-state]')).toHaveAttribute('data-trust-state', 'undecided');

  await trust.openReview();
  const hooks = trust.reviewGroup('Hooks');
  await expect(hooks.getByLabel('Literal command').filter({ hasText: '.claude/hooks/pre-tool-use-bash.sh' })).toBeVisible();
  await expect(hooks.locator('.review-item.executable').first()).toBeVisible();
  // executable kinds come before instruction files
  const groups = await trust.review.locator('section.review-group').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
  expect(groups.indexOf('Hooks')).toBeLessThan(groups.indexOf('Instruction files'));
  // expanding an item shows the file's content
  await hooks.locator('.review-item-head').first().click();
  await expect(hooks.locator('.file-content').first()).toContainText('"hooks"');

  await trust.trustThisFolder();
  await expect(trust.banner).toBeHidden();
  await expect(atrium.workspaceItem('platformplatform__PlatformPlatform').locator('[data-trust-state]')).toHaveAttribute('data-trust-state', 'trusted');

  const dataDir = server.dataDir;
  await server.stop();
  server = await startAtrium(dataDir);
  await atrium.open(server.url);
  await atrium.workspaceItem('platformplatform__PlatformPlatform').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('platformplatform__PlatformPlatform');
  await expect(trust.banner).toBeHidden();
  await trust.openTrustTab();
  await expect(trust.historyTable()).toContainText('trusted');
  await page.getByRole('button', { name: 'Revoke trust' }).click();
  await expect(trust.banner).toContainText('Untrusted');
});
