import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { HookListing } from '../../src/shared/contract';
import { repoRoot } from '../support/corpus';
import { AtriumPage } from './pages/AtriumPage';
import { HooksPage } from './pages/HooksPage';
import { SessionsPage } from './pages/SessionsPage';
import { atriumCli, defineScriptedAgent } from './support/scriptedWorkspace';
import { startAtrium, type ServedAtrium } from './support/server';

let server: ServedAtrium | null = null;
test.afterEach(async () => {
  await server?.stop();
  server = null;
});

test.use({ viewport: { width: 1280, height: 800 } });

/** The CLI's `--json` answer, run with `home` as HOME. */
function cliJson(dataDir: string, home: string, ...args: string[]): unknown {
  return JSON.parse(atriumCli(dataDir, [...args, '--json'], { HOME: home }));
}

/** A home, a data dir and a repository whose `.claude/settings.json` has `settings`. */
function repository(settings: object) {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-e2e-layout-'));
  const home = path.join(base, 'home');
  const dataDir = path.join(base, 'data');
  const folder = path.join(base, 'repo');
  fs.mkdirSync(home);
  fs.mkdirSync(path.join(folder, '.claude'), { recursive: true });
  fs.writeFileSync(path.join(folder, '.claude/settings.json'), JSON.stringify(settings, null, 2));
  return { home, dataDir, folder };
}

const script = (version: string) => `#!/bin/sh\n${Array.from({ length: 150 }, (_, i) => `echo ${version} step ${i}`).join('\n')}\n`;
const SETTINGS = { hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'sh "$CLAUDE_PROJECT_DIR"/.claude/hooks/start.sh' }] }] } };

/** True when the whole of `locator` lies inside the window. */
async function inViewport(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const size = page.viewportSize()!;
  return box !== null && box.y >= 0 && box.x >= 0 && box.y + box.height <= size.height && box.x + box.width <= size.width;
}

test('with a long hook diff on screen the app shell never scrolls: header, tabs and sidebar stay in the window', async ({ page }) => {
  const { home, dataDir, folder } = repository(SETTINGS);
  fs.mkdirSync(path.join(folder, '.claude/hooks'));
  fs.writeFileSync(path.join(folder, '.claude/hooks/start.sh'), script('one'));
  cliJson(dataDir, home, 'trust', 'set', folder, 'trusted');
  const listed = cliJson(dataDir, home, 'hooks', 'list', folder) as HookListing;
  cliJson(dataDir, home, 'hooks', 'approve', folder, listed.hooks[0].id);
  // every line changes: the diff has 300 lines, each with its screen-reader "added:"/"removed:" label
  fs.writeFileSync(path.join(folder, '.claude/hooks/start.sh'), script('two'));
  server = await startAtrium(dataDir, { HOME: home });
  const atrium = new AtriumPage(page);
  const hooks = new HooksPage(page);
  await atrium.open(server.url);
  await atrium.addWorkspace(folder);
  await hooks.open();
  const card = hooks.card('start.sh');
  await expect(hooks.state(card)).toHaveAttribute('data-hook-state', 'modified');
  const diff = hooks.diff(card);
  await expect(diff.locator('.diff-add')).toHaveCount(150);

  const shellFits = () => page.evaluate(() => document.scrollingElement!.scrollHeight <= window.innerHeight && document.scrollingElement!.scrollTop === 0);
  expect(await shellFits()).toBe(true);
  const header = atrium.heading();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: test.info().outputPath(`hook-diff-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // End in the page, then scrolling inside the diff: the shell stays put
  // (End on the tab list would move to the last tab: press it with nothing focused, as on the page)
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('End');
  await diff.locator('.diff-line').last().scrollIntoViewIfNeeded();
  await diff.hover();
  await page.mouse.wheel(0, 4000);
  await page.evaluate(() => window.scrollTo(0, 10_000));
  expect(await shellFits()).toBe(true);
  expect(await inViewport(page, header)).toBe(true);
  expect(await inViewport(page, hooks.tab)).toBe(true);
  expect(await inViewport(page, atrium.sidebar.getByRole('button', { name: 'Add workspace' }))).toBe(true);
  expect(await inViewport(page, atrium.workspaceItem('repo'))).toBe(true);
  await page.screenshot({ path: test.info().outputPath('hook-diff-scrolled-light.png') });
});

test('toasts sit over the sidebar, cover no action (Revoke right after Approve works) and use the theme colours in dark mode', async ({ page }) => {
  const { home, dataDir, folder } = repository({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'echo hello' }] }] } });
  cliJson(dataDir, home, 'trust', 'set', folder, 'trusted');
  server = await startAtrium(dataDir, { HOME: home });
  const atrium = new AtriumPage(page);
  const hooks = new HooksPage(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await atrium.open(server.url);
  await atrium.addWorkspace(folder);
  await hooks.open();
  const card = hooks.card('echo hello');
  await expect(hooks.state(card)).toHaveAttribute('data-hook-state', 'unapproved');
  await hooks.approve(card);
  await expect(hooks.state(card)).toHaveAttribute('data-hook-state', 'approved');
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: /Approved/ });
  await expect(toast).toBeVisible();

  // the toast is the theme's raised surface, not sonner's black (or white)
  const colours = await page.evaluate(() => {
    const probe = document.createElement('div');
    probe.style.background = 'var(--bg-raised)';
    probe.style.color = 'var(--text)';
    document.body.append(probe);
    const want = { bg: getComputedStyle(probe).backgroundColor, text: getComputedStyle(probe).color };
    probe.remove();
    const el = document.querySelector('[data-sonner-toast]')!;
    return { want, bg: getComputedStyle(el).backgroundColor, text: getComputedStyle(el).color };
  });
  expect(colours.want.bg).toBe('rgb(38, 40, 44)');
  expect(colours.bg).toBe(colours.want.bg);
  expect(colours.text).toBe(colours.want.text);
  await page.screenshot({ path: test.info().outputPath('toast-dark.png') });

  // it lies over the sidebar, above its footer: nothing of the main pane is under it
  const box = (await toast.boundingBox())!;
  const sidebar = (await atrium.sidebar.boundingBox())!;
  const footer = (await page.getByRole('button', { name: /Import trust decisions/ }).boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(sidebar.x + sidebar.width);
  expect(box.y + box.height).toBeLessThanOrEqual(footer.y);

  // Revoke is clickable at once, while the toast shows
  const revoke = card.getByRole('button', { name: 'Revoke', exact: true });
  const hit = await revoke.evaluate((b) => {
    const r = b.getBoundingClientRect();
    const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return at !== null && b.contains(at);
  });
  expect(hit).toBe(true);
  await revoke.click({ timeout: 2000 });
  await expect(hooks.state(card)).toHaveAttribute('data-hook-state', 'unapproved');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('[data-sonner-toast]').first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('toast-light.png') });
});

test('the New session dialog fits a 1280x800 window: every field can be reached in its scrolling body, Start session is always in view', async ({ page }) => {
  const { home, dataDir, folder } = repository({});
  atriumCli(dataDir, ['workspace', 'add', folder, '--name', 'project'], { HOME: home });
  defineScriptedAgent(dataDir, path.dirname(dataDir), path.join(repoRoot, 'test/fixtures/agents/scenarios/ui-tour.json'), { HOME: home });
  server = await startAtrium(dataDir, { HOME: home });
  const atrium = new AtriumPage(page);
  const sessions = new SessionsPage(page);
  await sessions.openWorkspaceSessions(atrium, server.url);
  await sessions.panel.getByRole('button', { name: /Start a session|New session/ }).click();
  const dialog = sessions.dialog;
  await expect(dialog).toBeVisible();
  await dialog.getByRole('radio', { name: /Scripted agent/ }).check();
  const start = dialog.getByRole('button', { name: /Start session/ });

  // the dialog is inside the window, Start session too, and the page itself does not scroll
  const inWindow = async () => {
    expect(await inViewport(page, dialog)).toBe(true);
    expect(await inViewport(page, start)).toBe(true);
    expect(await page.evaluate(() => document.scrollingElement!.scrollTop)).toBe(0);
  };
  await inWindow();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: test.info().outputPath(`new-session-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // the body fits, or says that more is below (overlay scrollbars show nothing until you scroll)
  const body = dialog.locator('.sess-new-body');
  const more = dialog.getByRole('button', { name: /More below/ });
  const overflows = () => body.evaluate((el) => el.scrollTop + el.clientHeight < el.scrollHeight - 2);
  if (await overflows()) await expect(more).toBeVisible();
  else await expect(more).toBeHidden();

  // every field can be reached by scrolling the body with the wheel (a user's way, not a programmatic scroll),
  // and then lies inside the dialog, in the window, with nothing over it
  const fields = [dialog.getByLabel('Workspace'), dialog.getByRole('radio', { name: /Scripted agent/ }), dialog.getByRole('button', { name: /Define an agent command/ }), dialog.getByLabel('Mode', { exact: true }), dialog.getByLabel('Title', { exact: true }), dialog.getByLabel('First prompt')];
  const bodyBox = (await body.boundingBox())!;
  for (const field of fields) {
    await page.mouse.move(bodyBox.x + bodyBox.width / 2, bodyBox.y + 20);
    await page.mouse.wheel(0, -5000);
    for (let i = 0; i < 20; i++) {
      const f = (await field.boundingBox())!;
      if (f.y >= bodyBox.y && f.y + f.height <= bodyBox.y + bodyBox.height) break;
      await page.mouse.wheel(0, 120);
      await page.waitForTimeout(50);
    }
    const f = (await field.boundingBox())!;
    expect(f.y).toBeGreaterThanOrEqual(bodyBox.y);
    expect(f.y + f.height).toBeLessThanOrEqual(bodyBox.y + bodyBox.height);
    expect(await inViewport(page, field)).toBe(true);
    expect(
      await field.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const at = document.elementFromPoint(r.x + Math.min(r.width / 2, 20), r.y + r.height / 2);
        return at !== null && (el.contains(at) || el.closest('label')?.contains(at) === true);
      }),
    ).toBe(true);
    await inWindow();
  }
  // at the bottom nothing more is below
  await expect(more).toBeHidden();
  await dialog.getByLabel('First prompt').fill('hello');
  await page.screenshot({ path: test.info().outputPath('new-session-scrolled-light.png') });
  await start.click();
  await expect(dialog).toBeHidden();
  await expect(sessions.transcript).toContainText('echo: hello');
});
