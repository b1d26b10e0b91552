import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { AddressBar } from './pages/AddressBar';
import { AtriumPage } from './pages/AtriumPage';
import { HooksPage } from './pages/HooksPage';
import { RulesPage } from './pages/RulesPage';
import { SessionsPage } from './pages/SessionsPage';
import { atriumCli, scriptedWorkspace } from './support/scriptedWorkspace';
import { startAtrium, type ServedAtrium } from './support/server';

let server: ServedAtrium | null = null;
test.afterEach(async () => {
  await server?.stop();
  server = null;
});

test.use({ viewport: { width: 1280, height: 800 } });

/** A trusted workspace "project" with two instruction files and one hook, plus the scripted agent. */
function prepare() {
  const made = scriptedWorkspace('atrium-e2e-addr-', { turns: [{ match: 'hello', steps: [{ text: 'First answer.' }] }, { match: 'again', steps: [{ text: 'Second answer.' }] }] });
  fs.writeFileSync(path.join(made.ws, 'AGENTS.md'), '# Project rules\nUse tabs.\n');
  fs.mkdirSync(path.join(made.ws, 'sub'));
  fs.writeFileSync(path.join(made.ws, 'sub/AGENTS.md'), '# Sub rules\nUse spaces in sub.\n');
  fs.mkdirSync(path.join(made.ws, '.claude'));
  fs.writeFileSync(path.join(made.ws, '.claude/settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo address-hook' }] }] } }));
  atriumCli(made.dataDir, ['trust', 'set', made.ws, 'trusted']);
  return made;
}

test('every place has an address: workspace tab, rule file, Test a path query, hook, session item; reload returns there and Back/Forward move between them', async ({ page }) => {
  const { dataDir } = prepare();
  server = await startAtrium(dataDir);
  const atrium = new AtriumPage(page);
  const address = new AddressBar(page);
  const rules = new RulesPage(page);
  const hooks = new HooksPage(page);
  await atrium.open(server.url);
  // the token the server printed is gone from the address before anything else is written there
  expect(address.url()).not.toContain('token');

  await atrium.workspaceItem('project').click();
  await address.expectHash(/^#\/workspace\/[^/]+$/);
  const workspaceHash = await address.hash();

  // workspace tab + selected rule file
  await rules.open();
  await address.expectHash(/\/rules$/);
  await rules.file('sub/AGENTS.md').click();
  await address.expectHash(/\/rules\?file=/);
  await expect(rules.detail.getByRole('heading', { name: 'sub/AGENTS.md' })).toBeVisible();
  await address.reload();
  await expect(rules.detail.getByRole('heading', { name: 'sub/AGENTS.md' })).toBeVisible();
  expect(address.url()).not.toContain('token');

  // Test a path: the query is in the address and comes back after a reload
  await rules.testPath('sub/x.ts');
  await address.expectHash(/view=test/);
  await address.expectHash(/test=sub\/x\.ts/);
  await expect(rules.explanation).toContainText('sub/AGENTS.md');
  await address.reload();
  await expect(page.getByLabel('Test a path')).toHaveValue('sub/x.ts');
  await expect(rules.explanation).toContainText('sub/AGENTS.md');

  // Back: the empty Test a path view, then the file view with the file selected; Forward twice: the query again
  await address.back();
  await address.expectHash(/view=test$/);
  await address.back();
  await address.expectHash(/\/rules\?file=[^&]+$/);
  await expect(rules.detail.getByRole('heading', { name: 'sub/AGENTS.md' })).toBeVisible();
  await address.forward();
  await address.forward();
  await expect(page.getByLabel('Test a path')).toHaveValue('sub/x.ts');
  await expect(rules.explanation).toContainText('sub/AGENTS.md');

  // a hook's link icon gives it an address; a reload brings that hook back into view, marked
  await hooks.open();
  const card = hooks.card('echo address-hook');
  await card.getByRole('link', { name: 'Link to this hook' }).click();
  await address.expectHash(/\/hooks\?hook=/);
  await address.reload();
  await expect(hooks.card('echo address-hook')).toHaveAttribute('aria-current', 'location');
  await expect(hooks.card('echo address-hook')).toBeFocused();

  // Back through the tabs to the workspace's overview
  await address.back();
  await address.expectHash(/\/hooks$/);
  await address.back();
  await address.expectHash(/view=test/);
  for (let i = 0; i < 8 && (await address.hash()) !== workspaceHash; i++) await address.back();
  expect(await address.hash()).toBe(workspaceHash);
  await expect(page.getByRole('tab', { name: 'Overview', selected: true })).toBeVisible();
});

test('a transcript item has an address: a reload scrolls to it and marks it', async ({ page }) => {
  const { dataDir } = prepare();
  server = await startAtrium(dataDir);
  const atrium = new AtriumPage(page);
  const address = new AddressBar(page);
  const sessions = new SessionsPage(page);
  await sessions.openWorkspaceSessions(atrium, server.url);
  await sessions.startSession('Scripted agent', 'hello');
  await expect(sessions.transcript).toContainText('First answer.');
  await sessions.send('again');
  await expect(sessions.transcript).toContainText('Second answer.');

  const first = sessions.transcript.locator('.sess-item[data-kind="agent_message"]').filter({ hasText: 'First answer.' });
  const itemId = await first.getAttribute('data-item-id');
  await first.hover();
  await first.getByRole('link', { name: 'Link to this item' }).click();
  await address.expectHash(new RegExp(`^#/sessions/[^/?]+\\?item=${itemId}$`));
  await address.reload();
  const marked = sessions.transcript.locator(`.sess-item[data-item-id="${itemId}"]`);
  await expect(marked).toHaveAttribute('aria-current', 'location');
  await expect(marked).toBeInViewport();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: test.info().outputPath(`transcript-item-address-${scheme}.png`) });
  }
});

test('the address of a transcript item older than the loaded page pages it in and scrolls to it', async ({ page }) => {
  const reads = Array.from({ length: 170 }, (_, i) => ({ toolCall: { id: `r${i}`, title: `Read file ${i}`, kind: 'read', status: 'completed' } }));
  const made = scriptedWorkspace('atrium-e2e-addr-long-', { turns: [{ match: 'long', steps: [...reads, { text: 'Read them all.' }] }] });
  server = await startAtrium(made.dataDir);
  const atrium = new AtriumPage(page);
  const address = new AddressBar(page);
  const sessions = new SessionsPage(page);
  await sessions.openWorkspaceSessions(atrium, server.url);
  await sessions.startSession('Scripted agent', 'long');
  await expect(sessions.transcript).toContainText('Read them all.', { timeout: 60_000 });
  const sessionId = await sessions.sessionId();
  // the prompt is the oldest item: scroll up until it is paged in, note its id
  const prompt = sessions.transcript.locator('.sess-item[data-kind="user_message"]').filter({ hasText: 'long' });
  await expect(async () => {
    await sessions.transcript.evaluate((el) => (el.scrollTop = 0));
    await expect(prompt).toBeAttached({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  const itemId = await prompt.getAttribute('data-item-id');

  // a fresh load of that item's address starts from the newest page, pages back to the prompt and marks it
  await page.goto(`${server.origin}/#/sessions/${encodeURIComponent(sessionId)}?item=${itemId}`);
  await address.reload(); // a hash-only goto is a same-document navigation: load the page afresh
  const marked = sessions.transcript.locator(`.sess-item[data-item-id="${itemId}"]`);
  await expect(marked).toHaveAttribute('aria-current', 'location', { timeout: 30_000 });
  await expect(marked).toBeInViewport();
  expect(await address.hash()).toBe(`#/sessions/${sessionId}?item=${itemId}`);
});
