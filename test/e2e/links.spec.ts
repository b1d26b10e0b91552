import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { AtriumPage } from './pages/AtriumPage';
import { LinksPage } from './pages/LinksPage';
import { RulesPage } from './pages/RulesPage';
import { SessionsPage } from './pages/SessionsPage';
import { TrustPage } from './pages/TrustPage';
import { desktopRecord, installDesktopBridge, pushUpdate } from './support/desktopBridge';
import { scriptedWorkspace } from './support/scriptedWorkspace';
import { startAtrium, type ServedAtrium } from './support/server';

let server: ServedAtrium | null = null;
test.afterEach(async () => {
  await server?.stop();
  server = null;
});

/** What the scripted agent answers to "show me the links": one line per kind of link. */
const LINKS_REPLY = [
  'Here are the links:',
  '',
  '- [the guide](https://docs.example.test/guide?step=2#setup)',
  '- [plain page](http://plain.example.test/page)',
  '- [local admin](http://2130706433/admin)',
  '- [v6 box](https://[::1]:8443/)',
  '- [run me](javascript:alert(document.domain))',
  '- [notes](./notes.md)',
].join('\n');

/** A data dir with one workspace and the scripted agent, whose reply to "links" is {@link LINKS_REPLY}. */
function prepare() {
  return scriptedWorkspace('atrium-e2e-links-', { capabilities: { loadSession: true }, turns: [{ match: 'links', steps: [{ text: LINKS_REPLY }, { stop: 'end_turn' }] }] });
}

/** Opens Atrium at `url`, starts a session that asks for the links, and returns the agent's message. */
async function transcriptWithLinks(page: Page, url: string) {
  const sessions = new SessionsPage(page);
  await sessions.openWorkspaceSessions(new AtriumPage(page), url);
  await sessions.startSession('Scripted agent', 'show me the links');
  const reply = sessions.items('agent_message').last();
  await expect(reply).toContainText('local admin');
  return reply;
}

test('links the agent prints open in the browser only after a confirmation that shows the full address', async ({ page, context }) => {
  const { dataDir } = prepare();
  server = await startAtrium(dataDir);
  const links = new LinksPage(page);
  const reply = await transcriptWithLinks(page, server.url);
  const appUrl = page.url();
  // browser mode has no desktop update line
  await expect(links.updateLine).toHaveCount(0);

  // an https link on a name: a plain confirmation, the whole address, Enter would open it
  const guide = links.link(reply, 'the guide');
  await links.activate(guide);
  await expect(links.dialog.getByRole('heading')).toHaveText('Open this link in your browser?');
  await expect(links.address).toHaveText('https://docs.example.test/guide?step=2#setup');
  await expect(links.dialog).toContainText('Host docs.example.test');
  await expect(links.warnings).toHaveCount(0);
  await expect(links.openButton).toBeFocused();
  const shots = process.env.ATRIUM_SHOTS_DIR;
  if (shots) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: path.join(shots, `link-dialog-https-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }
  // focus stays in the dialog; Cancel closes it, the page stays where it was, focus is back on the link
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press('Tab');
    expect(await links.dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  await links.cancel();
  await expect(guide).toBeFocused();
  expect(page.url()).toBe(appUrl);

  // from the keyboard: Enter on the link opens it, Escape cancels
  await page.keyboard.press('Enter');
  await expect(links.dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(links.dialog).toBeHidden();
  await expect(guide).toBeFocused();

  // plain http: a warning line
  await links.activate(links.link(reply, 'plain page'));
  await expect(links.address).toHaveText('http://plain.example.test/page');
  expect(await links.warningKeys()).toEqual(['insecure']);
  await expect(links.cancelButton).toBeFocused();
  await links.cancel();

  // an IP host written as a decimal number: shown as the address it is, with both warnings
  await links.activate(links.link(reply, 'local admin'));
  await expect(links.address).toHaveText('http://127.0.0.1/admin');
  await expect(links.dialog).toContainText('Written as http://2130706433/admin');
  expect(await links.warningKeys()).toEqual(['insecure', 'ip-address']);
  await expect(links.dialog.locator('[data-warning="ip-address"]')).toHaveText('The host is an IP address (127.0.0.1), not a name you can recognise.');
  if (shots) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: path.join(shots, `link-dialog-ip-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }
  await links.cancel();

  await links.activate(links.link(reply, 'v6 box'));
  await expect(links.address).toHaveText('https://[::1]:8443/');
  expect(await links.warningKeys()).toEqual(['ip-address']);
  await links.cancel();

  // javascript: is never opened, only copied; it never became an href
  const runMe = links.link(reply, 'run me');
  await expect(runMe).not.toHaveAttribute('href');
  await links.activate(runMe);
  await expect(links.dialog.getByRole('heading')).toHaveText('Atrium does not open this link');
  await expect(links.address).toHaveText('javascript:alert(document.domain)');
  expect(await links.warningKeys()).toEqual(['blocked']);
  await expect(links.openButton).toHaveCount(0);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
  await links.copyButton.click();
  await expect(links.dialog.getByRole('status')).toHaveText('Copied the link.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('javascript:alert(document.domain)');
  await links.cancel();
  await expect(runMe).toBeFocused();

  // a relative link does nothing but explain itself
  await links.activate(links.link(reply, 'notes'));
  expect(await links.warningKeys()).toEqual(['relative']);
  await expect(links.openButton).toHaveCount(0);
  await links.cancel();
  expect(page.url()).toBe(appUrl);

  // Open in browser: a new page with exactly that address; the app page did not move
  await context.route('https://docs.example.test/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Guide</title><p>guide</p>' }));
  await links.activate(guide);
  const [popup] = await Promise.all([context.waitForEvent('page'), links.openButton.click()]);
  await popup.waitForLoadState();
  expect(popup.url()).toBe('https://docs.example.test/guide?step=2#setup');
  expect(await popup.evaluate(() => window.opener)).toBeNull();
  await expect(links.dialog).toBeHidden();
  expect(page.url()).toBe(appUrl);
  await expect(reply).toContainText('Here are the links');
  await popup.close();
});

test('in the desktop window a confirmed link goes to the main process, and a downloaded update offers Restart', async ({ page, context }) => {
  const { dataDir } = prepare();
  server = await startAtrium(dataDir);
  await installDesktopBridge(page, server.token, { state: 'idle' });
  const links = new LinksPage(page);
  const reply = await transcriptWithLinks(page, server.origin);
  const appUrl = page.url();

  // nothing while idle; a quiet line while downloading; "Update ready — Restart" once downloaded
  await expect(links.updateLine).toHaveCount(0);
  await pushUpdate(page, { state: 'downloading', version: '9.9.9', percent: 40 });
  await expect(links.updateLine).toHaveText(/Downloading Atrium 9\.9\.9… 40%/);
  await pushUpdate(page, { state: 'ready', version: '9.9.9' });
  await expect(links.updateLine).toContainText('Update ready — Atrium 9.9.9');
  const restart = links.updateLine.getByRole('button', { name: 'Restart' });
  const shots = process.env.ATRIUM_SHOTS_DIR;
  if (shots) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.getByRole('navigation', { name: 'Workspaces' }).screenshot({ path: path.join(shots, `update-ready-${scheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }
  await restart.focus();
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await desktopRecord(page)).installs).toBe(1);

  // an error stays one quiet line until asked
  await pushUpdate(page, { state: 'error', message: 'net::ERR_NAME_NOT_RESOLVED' });
  await expect(links.updateLine).toHaveText('Update failed');
  await links.updateLine.getByRole('button', { name: 'Update failed' }).click();
  await expect(links.updateLine).toContainText('net::ERR_NAME_NOT_RESOLVED');
  await expect(links.updateLine).toContainText('Atrium tries again in a few hours');

  // Open in browser asks the main process (which opens the system browser); no page opens here
  let pages = 0;
  context.on('page', () => pages++);
  await links.activate(links.link(reply, 'the guide'));
  await links.openButton.click();
  await expect(links.dialog).toBeHidden();
  expect((await desktopRecord(page)).opened).toEqual(['https://docs.example.test/guide?step=2#setup']);
  expect(pages).toBe(0);
  expect(page.url()).toBe(appUrl);
});

test('links in a rule file\'s Rendered view go through the same confirmation', async ({ page }) => {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'atrium-e2e-rule-links-'));
  writeFileSync(path.join(folder, 'AGENTS.md'), '# Rules\n\nRead [the style guide](https://style.example.test/guide) first.\nNever open [this](file:///etc/passwd).\n\n![badge](https://tracker.example.test/pixel.png)\n');
  server = await startAtrium();
  const atrium = new AtriumPage(page);
  const rules = new RulesPage(page);
  const links = new LinksPage(page);
  await atrium.open(server.url);
  await atrium.addWorkspace(folder);
  const trust = new TrustPage(page);
  await trust.openReview();
  await trust.trustThisFolder();
  await rules.open();
  await rules.file('AGENTS.md').click();
  const rendered = rules.detail.locator('.markdown');
  await expect(rendered).toContainText('Read the style guide first.');
  // the image is not fetched
  await expect(rendered).toContainText('[image: badge]');
  await expect(rendered.locator('img')).toHaveCount(0);
  const appUrl = page.url();

  await links.activate(links.link(rendered, 'the style guide'));
  await expect(links.address).toHaveText('https://style.example.test/guide');
  await links.cancel();
  await links.activate(links.link(rendered, 'this'));
  await expect(links.address).toHaveText('file:///etc/passwd');
  expect(await links.warningKeys()).toEqual(['blocked']);
  await expect(links.openButton).toHaveCount(0);
  await links.cancel();
  expect(page.url()).toBe(appUrl);
});
