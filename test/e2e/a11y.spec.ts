import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { repoRoot } from '../support/corpus';
import { layKitchenSink } from '../support/fixtureTree';
import { AtriumPage } from './pages/AtriumPage';
import { ExtensionsPage } from './pages/ExtensionsPage';
import { HooksPage } from './pages/HooksPage';
import { RulesPage } from './pages/RulesPage';
import { SessionsPage } from './pages/SessionsPage';
import { TrustPage } from './pages/TrustPage';
import { expectNoSeriousA11yViolations } from './support/axe';
import { atriumCli, defineScriptedAgent } from './support/scriptedWorkspace';
import { startAtrium, type ServedAtrium } from './support/server';

let server: ServedAtrium | null = null;
test.afterEach(async () => {
  await server?.stop();
  server = null;
});

/** A data dir with the kitchen-sink fixture as workspace "project" (every format: rules, hooks, MCP, skills, plugins) and the scripted agent. */
function prepare(): string {
  const base = mkdtempSync(path.join(os.tmpdir(), 'atrium-e2e-a11y-'));
  const dataDir = path.join(base, 'data');
  const ws = layKitchenSink(base);
  atriumCli(dataDir, ['workspace', 'add', ws, '--name', 'project']);
  defineScriptedAgent(dataDir, base, path.join(repoRoot, 'test/fixtures/agents/scenarios/ui-tour.json'));
  return dataDir;
}

for (const scheme of ['light', 'dark'] as const) {
  test(`axe-core finds no critical or serious violation on any screen (${scheme}), and focus returns to the control that opened a dialog`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: scheme });
    server = await startAtrium(prepare());
    const atrium = new AtriumPage(page);
    const trust = new TrustPage(page);
    const rules = new RulesPage(page);
    const hooks = new HooksPage(page);
    const extensions = new ExtensionsPage(page);
    const sessions = new SessionsPage(page);
    const check = async (screen: string) => {
      await page.screenshot({ path: test.info().outputPath(`${screen.replace(/\W+/g, '-')}-${scheme}.png`) });
      await expectNoSeriousA11yViolations(page, `${screen} (${scheme})`);
    };

    await atrium.open(server.url);
    await expect(atrium.heading()).toHaveText('Select a workspace');
    await check('welcome');

    const addButton = atrium.sidebar.getByRole('button', { name: 'Add workspace' });
    await addButton.click();
    await expect(atrium.addDialog()).toBeVisible();
    await check('add workspace dialog');
    await page.keyboard.press('Escape');
    await expect(atrium.addDialog()).toBeHidden();
    await expect(addButton).toBeFocused();

    await atrium.workspaceItem('project').click();
    await expect(atrium.heading()).toHaveText('project');
    await check('workspace overview');
    await trust.openTrustTab();
    await expect(trust.trustPanel()).toBeVisible();
    await check('trust tab (restricted)');
    await rules.open();
    await expect(rules.file('AGENTS.md')).toContainText('restricted');
    await check('rules tab (restricted)');

    const reviewButton = trust.banner.getByRole('button', { name: 'Review…' });
    await trust.openReview();
    await check('trust review dialog');
    await page.keyboard.press('Escape');
    await expect(trust.review).toBeHidden();
    await expect(reviewButton).toBeFocused();
    await trust.openReview();
    await trust.trustThisFolder();

    await rules.open();
    await expect(rules.file('AGENTS.md')).toContainText('active');
    await rules.file('.claude/rules/hidden.md').click();
    await expect(rules.detail).toContainText('hidden-characters');
    await check('rules tab');
    await rules.view('Test a path').click();
    await rules.testPath('services/api/x.ts');
    await expect(rules.explanation).toContainText('At session start');
    await check('rules test a path');
    await rules.view('Lint').click();
    await check('rules lint');

    await hooks.open();
    const curl = hooks.card('install.example.invalid/setup.sh');
    await expect(curl).toBeVisible();
    await check('hooks tab');
    const approve = hooks.approveButton(curl);
    await approve.click();
    await expect(hooks.confirmDialog()).toBeVisible();
    await check('approve dialog');
    await page.keyboard.press('Escape');
    await expect(hooks.confirmDialog()).toBeHidden();
    await expect(approve).toBeFocused();

    await extensions.open();
    await extensions.expand((await page.locator('li.ext-row').first().getAttribute('data-ext-id'))!);
    await check('extensions tab');

    await sessions.openTab();
    await check('sessions tab');
    const newSession = sessions.panel.getByRole('button', { name: /Start a session|New session/ });
    await newSession.click();
    await expect(sessions.dialog).toBeVisible();
    await check('new session dialog');
    await page.keyboard.press('Escape');
    await expect(sessions.dialog).toBeHidden();
    await expect(newSession).toBeFocused();

    await sessions.startSession('Scripted agent', 'please write the notes');
    await expect(sessions.permissionCard('Write notes.md')).toBeVisible();
    await expect(sessions.items('plan').first()).toBeVisible();
    await check('session view with a permission request');
    await sessions.sidebarEntry.click();
    await expect(page.getByRole('heading', { level: 1, name: /Sessions/ })).toBeVisible();
    await check('sessions list');
  });
}

