import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { materialize } from '../support/corpus';
import { AtriumPage } from './pages/AtriumPage';
import { RulesPage } from './pages/RulesPage';
import { TrustPage } from './pages/TrustPage';
import { startAtrium, type ServedAtrium } from './support/server';

let server: ServedAtrium | null = null;
test.afterEach(async () => {
  await server?.stop();
  server = null;
});

test('Rules tab: restricted names only, then after trust the catalog, Test a path with reasons, agent view, and a live edit', async ({ page }) => {
  const folder = materialize('platformplatform__PlatformPlatform');
  server = await startAtrium();
  const atrium = new AtriumPage(page);
  const rules = new RulesPage(page);
  await atrium.open(server.url);
  await atrium.addWorkspace(folder);
  await rules.open();

  // Restricted mode: listed by name only, nothing loads.
  await expect(page.getByRole('note')).toContainText('Restricted mode: project rule files are listed by name only');
  await expect(rules.file('AGENTS.md')).toContainText('restricted');

  await page.getByRole('button', { name: 'Review and trust…' }).click();
  await new TrustPage(page).trustThisFolder();
  await expect(rules.file('AGENTS.md')).toContainText('active');
  await expect(rules.file('.claude/rules/backend/api-endpoints.md')).toContainText('**/Endpoints/*.cs');

  // Detail pane: patterns with match counts and the digest.
  await rules.file('.claude/rules/backend/api-endpoints.md').click();
  await expect(rules.detail).toContainText(/matches \d+ files? here/);
  await expect(rules.detail).toContainText(/[0-9a-f]{64}/);

  // Test a path: static rules at start, then the contextual rule and the pattern that matched.
  await rules.testPath('application/account/Api/Endpoints/BillingEndpoints.cs');
  await expect(rules.explanation.locator('[data-reason="scope-contains-start"]').first()).toBeVisible();
  const contextual = rules.explanation.locator('[data-reason="pattern-match"]');
  await expect(contextual.filter({ hasText: '.claude/rules/backend/api-endpoints.md' })).toContainText('**/Endpoints/*.cs');

  // Agent view: what Codex would load.
  await page.getByLabel('Agent view').selectOption({ label: 'Codex' });
  await expect(page.getByRole('region', { name: 'Agent view' })).toContainText('AGENTS.md');

  // A rule edited on disk shows up without a reload.
  fs.writeFileSync(path.join(folder, 'GEMINI.md'), '# Gemini rules\nUse tabs.\n');
  await rules.view('Files').click();
  await expect(rules.file('GEMINI.md')).toContainText('active', { timeout: 20_000 });
});
