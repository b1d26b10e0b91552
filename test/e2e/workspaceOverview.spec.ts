import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { AtriumPage } from './pages/AtriumPage';
import { HooksPage } from './pages/HooksPage';
import { OverviewPage } from './pages/OverviewPage';
import { TrustPage } from './pages/TrustPage';
import { expectNoSeriousA11yViolations } from './support/axe';
import { startAtrium, type ServedAtrium } from './support/server';

let server: ServedAtrium | null = null;
const roots: string[] = [];
test.afterEach(async () => {
  await server?.stop();
  server = null;
  for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
});

function tempRoot(prefix: string): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  roots.push(root);
  return root;
}

/** A repository with two hooks (one running a script), an MCP server and an AGENTS.md. */
function layRepo(dir: string): void {
  const files: Record<string, string> = {
    '.claude/settings.json': JSON.stringify(
      {
        hooks: {
          PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'bash .claude/hooks/guard.sh' }] }],
          Stop: [{ hooks: [{ type: 'command', command: 'echo stopped' }] }],
        },
      },
      null,
      2,
    ),
    '.claude/hooks/guard.sh': '#!/bin/sh\necho guard\n',
    '.mcp.json': JSON.stringify({ mcpServers: { docs: { command: 'node', args: ['tools/docs.js'] } } }, null, 2),
    'tools/docs.js': 'console.log(1)\n',
    'AGENTS.md': '# Rules\n\nRun the tests before you commit.\n',
  };
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
}

test('the Overview says what needs you with links; after trusting, the next step is "hooks need approval → Hooks"; a changed approved hook shows up', async ({ page }) => {
  const dir = path.join(tempRoot('atrium-e2e-overview-'), 'shop');
  layRepo(dir);
  server = await startAtrium(undefined, { HOME: tempRoot('atrium-e2e-home-') });
  const atrium = new AtriumPage(page);
  const trust = new TrustPage(page);
  const hooks = new HooksPage(page);
  const overview = new OverviewPage(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await atrium.open(server.url);
  await atrium.addWorkspace(dir);
  await overview.open();

  // restricted: the first row says so and opens the review
  const restricted = overview.row('Restricted mode');
  await expect(restricted).toContainText(/\d+ items this folder carries are inactive, 3 of which run code/);
  await expect(overview.row('need approval')).toHaveText(/2 hooks and 1 MCP server need approval before they run/);
  await expect(overview.counts()).toContainText('2 hooks, 1 MCP server');
  await expect(overview.counts()).toContainText('0 sessions');
  const shots = test.info().outputPath('shots');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: path.join(shots, `overview-restricted-${scheme}.png`) });
    await expectNoSeriousA11yViolations(page, `Overview (${scheme})`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await overview.follow(restricted);
  await expect(trust.review).toBeVisible();

  // trusting: the toast names the next step and links to the Hooks tab
  await trust.trustThisFolder();
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Trusted' });
  await expect(toast).toContainText('2 hooks and 1 MCP server need approval before they run.');
  await toast.getByRole('button', { name: 'Hooks →' }).click();
  await expect(hooks.panel).toBeVisible();

  // back on the Overview: the restricted row is gone, the approvals row is the next step
  await overview.open();
  await expect(overview.row('Restricted mode')).toHaveCount(0);
  const approvals = overview.row('need approval');
  await expect(approvals).toHaveText(/2 hooks and 1 MCP server need approval before they run/);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: path.join(shots, `overview-after-trust-${scheme}.png`) });
    await expectNoSeriousA11yViolations(page, `Overview (${scheme})`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await overview.follow(approvals);
  await expect(hooks.panel).toBeVisible();
  await hooks.approveAllButton().click();
  await hooks.approveAllConfirm().click();
  await expect(hooks.approveAllDialog()).toBeHidden();

  await overview.open();
  await expect(overview.clear()).toContainText('Nothing needs you here');
  await expect(overview.needsYou).toHaveCount(0);

  // an approved script changes on disk: the Overview says it stopped running and links to Hooks
  fs.appendFileSync(path.join(dir, '.claude/hooks/guard.sh'), 'echo changed\n');
  const changed = overview.row('changed on disk');
  await expect(changed).toHaveText(/1 approved item changed on disk and stopped running until you approve it again/, { timeout: 45_000 });
  await overview.follow(changed);
  await expect(hooks.panel).toBeVisible();
  await expect(hooks.state(hooks.card('bash .claude/hooks/guard.sh'))).toHaveAttribute('data-hook-state', 'modified');
});
