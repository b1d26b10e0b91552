import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator } from '@playwright/test';
import { layKitchenSink } from '../support/fixtureTree';
import { AtriumPage } from './pages/AtriumPage';
import { ExtensionsPage } from './pages/ExtensionsPage';
import { HooksPage } from './pages/HooksPage';
import { RulesPage } from './pages/RulesPage';
import { TrustPage } from './pages/TrustPage';
import { startAtrium, type ServedAtrium } from './support/server';

let server: ServedAtrium | null = null;
test.afterEach(async () => {
  await server?.stop();
  server = null;
});

const SCHEMES = ['light', 'dark'] as const;

/** Opens Atrium on a fresh kitchen-sink workspace (every format), trusted through the review as a user would. */
async function trustedKitchenSink(page: import('@playwright/test').Page, scheme: (typeof SCHEMES)[number], extra: (dir: string) => void = () => undefined) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: scheme });
  const folder = layKitchenSink(fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-e2e-lists-')));
  extra(folder);
  server = await startAtrium();
  const atrium = new AtriumPage(page);
  await atrium.open(server.url);
  await atrium.addWorkspace(folder);
  const trust = new TrustPage(page);
  await trust.openReview();
  await trust.trustThisFolder();
  return { atrium, folder };
}

/** WCAG contrast ratio of an element's text colour on its background colour (both opaque `rgb()` values). */
function contrastOf(el: Locator): Promise<number> {
  return el.evaluate((node) => {
    const style = getComputedStyle(node);
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    const lum = (c: number[]) => {
      const [r, g, b] = c.map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const [a, b] = [lum(rgb(style.color)), lum(rgb(style.backgroundColor))];
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  });
}

for (const scheme of SCHEMES) {
  test(`Rules tab (${scheme}): the filter box narrows the list with a count and keyboard access; a file over the size limit says so; invisible characters are shown; counts are labelled`, async ({ page }) => {
    await trustedKitchenSink(page, scheme, (dir) => {
      // a bidi override spelled as a character reference (decoded only by Markdown) and a literal right-to-left mark
      fs.writeFileSync(path.join(dir, '.claude/rules/entity.md'), 'Be kind.&#x202E; evil text\n\nA mark: x\u200Fy\n');
    });
    const rules = new RulesPage(page);
    await rules.open();
    await expect(rules.file('AGENTS.md')).toContainText('active');
    const total = (await rules.listedPaths()).length;
    await expect(rules.filterCount()).toHaveText(`${total} files`);
    await expect(rules.view('Files')).toHaveText(`Files (${total})`);

    // `/` focuses the box from the list; typing narrows it, the count says how many of how many
    await rules.file('AGENTS.md').focus();
    await page.keyboard.press('/');
    await expect(rules.filter()).toBeFocused();
    await page.keyboard.type('.github');
    await expect.poll(async () => (await rules.listedPaths()).every((p) => p.startsWith('.github/'))).toBe(true);
    const shown = await rules.listedPaths();
    expect(shown.length).toBeGreaterThan(0);
    for (const p of shown) expect(p).toContain('.github');
    await expect(rules.filterCount()).toHaveText(`${shown.length} of ${total} files`);
    // several words all have to match, in any field (path, format, condition…)
    await rules.filter().fill('claude-rules never');
    await expect.poll(() => rules.listedPaths()).toEqual(['.claude/rules/never.md']);
    await rules.filter().fill('no-such-rule-anywhere');
    await expect(rules.filterCount()).toHaveText(`0 of ${total} files`);
    await expect(page.getByText('No rule file matches “no-such-rule-anywhere”')).toBeVisible();
    // Esc clears; Ctrl+F focuses it again
    await page.keyboard.press('Escape');
    await expect(rules.filter()).toHaveValue('');
    await expect.poll(async () => (await rules.listedPaths()).length).toBe(total);
    await rules.file('AGENTS.md').click();
    await page.keyboard.press('Control+f');
    await expect(rules.filter()).toBeFocused();
    await page.keyboard.press('Escape');

    // a file over the 1 MiB limit in a trusted folder: the list and the detail say why it was not read
    await expect(rules.file('.claude/rules/huge.md')).toContainText('not read (over the size limit)');
    await rules.file('.claude/rules/huge.md').click();
    await expect(rules.notReadReason()).toContainText(/Not read: the file is .* above the 1\.0 MiB limit/);
    await expect(rules.detail).not.toContainText('restricted');

    // invisible characters: shown as ⟨U+XXXX⟩ in the rendered view, never applied
    await rules.file('.claude/rules/entity.md').click();
    const rendered = rules.detail.locator('.markdown');
    await expect(rendered).toContainText('Be kind.⟨U+202E⟩ evil text');
    await expect(rendered).toContainText('x⟨U+200F⟩y');
    const text = await rendered.innerText();
    expect(text).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200E\u200F]/);
    // the size line says which bytes it counts; format and priority explain themselves
    await expect(rules.detail.locator('header')).toContainText('on disk');
    await expect(rules.detail.locator('abbr', { hasText: 'priority' })).toHaveAttribute('title', /orders files of the same scope folder/);
    await expect(rules.detail.locator('abbr', { hasText: 'claude-rules' })).toHaveAttribute('title', /Claude Code rules/);
    await page.screenshot({ path: test.info().outputPath(`rules-filter-${scheme}.png`) });

    // Lint: the label's number is the problems heading's number; notes are counted apart
    await rules.view('Lint').click();
    const label = await rules.view('Lint').innerText();
    const problems = Number(/\((\d+)\)/.exec(label)?.[1] ?? '0');
    await expect(rules.lintHeadings().first()).toHaveText(new RegExp(`^${problems} problems? `));
    await expect(page.getByRole('list', { name: 'Lint findings' }).getByRole('listitem')).toHaveCount(problems);
    const notes = page.getByRole('list', { name: 'Lint notes' }).getByRole('listitem');
    if ((await notes.count()) > 0) await expect(rules.lintHeadings().nth(1)).toHaveText(new RegExp(`^${await notes.count()} notes? `));
    await page.screenshot({ path: test.info().outputPath(`rules-lint-${scheme}.png`) });

    // Test a path: the provenance hash explains itself, bytes say they are what is sent
    await rules.testPath('services/api/x.ts');
    await expect(rules.explanation.getByTestId('provenance')).toHaveAttribute('title', /Provenance hash/);
    await expect(rules.explanation.locator('[data-reason]').first()).toContainText(' sent');
  });

  test(`Hooks and Extensions tabs (${scheme}): filter boxes with counts, / and Ctrl+F, Esc; approve-all takes only what is shown; scope badges are not warning-yellow`, async ({ page }) => {
    await trustedKitchenSink(page, scheme);
    const hooks = new HooksPage(page);
    await hooks.open();
    const curl = hooks.card('install.example.invalid/setup.sh');
    await expect(curl).toBeVisible();
    const totalCards = await hooks.cards().count();
    await page.keyboard.press('Control+f');
    await expect(hooks.filter()).toBeFocused();
    await page.keyboard.type('install.example');
    await expect(hooks.cards()).toHaveCount(1);
    await expect(hooks.mcpCards()).toHaveCount(0);
    await expect(curl).toBeVisible();
    await expect(hooks.filterCount()).toHaveText(/^1 of \d+ hooks and servers$/);
    // "Approve all shown…" offers exactly what the filter shows
    await hooks.approveAllButton().click();
    await expect(hooks.approveAllDialog()).toBeVisible();
    await expect(hooks.approveAllTitle()).toContainText('1 shown item');
    await page.keyboard.press('Escape');
    await expect(hooks.approveAllDialog()).toBeHidden();
    // MCP servers are found by name and by "MCP server"
    await hooks.filter().fill('MCP server');
    await expect(hooks.cards()).toHaveCount(0);
    await expect(hooks.mcpCard('local')).toBeVisible();
    await hooks.filter().fill('docs.example.invalid');
    await expect(hooks.mcpCards()).toHaveCount(1);
    await hooks.filter().press('Escape');
    await expect(hooks.filter()).toHaveValue('');
    await expect(hooks.cards()).toHaveCount(totalCards);
    await page.screenshot({ path: test.info().outputPath(`hooks-filter-${scheme}.png`) });

    const extensions = new ExtensionsPage(page);
    await extensions.open();
    await page.locator('.ext-nav-link').first().focus();
    await page.keyboard.press('/');
    await expect(extensions.filter()).toBeFocused();
    await page.keyboard.type('release');
    await expect(extensions.section('Skills')).toContainText(/Skills 1 of \d+/);
    await expect(extensions.row('release-notes')).toBeVisible();
    await expect(extensions.section('Commands')).toContainText('None of the');
    await expect(extensions.filterCount()).toHaveText(/^1 of \d+ extensions$/);
    await page.keyboard.press('Escape');
    await expect(extensions.filter()).toHaveValue('');
    await expect(extensions.row('review')).toBeVisible();

    // a "project" scope badge is informational: not the warning palette, and readable
    const badge = extensions.sourceBadge('release-notes');
    await expect(badge).toHaveText('project');
    const warnBg = await page.evaluate(() => {
      const probe = document.createElement('span');
      probe.className = 'badge badge-warn';
      document.body.append(probe);
      const bg = getComputedStyle(probe).backgroundColor;
      probe.remove();
      return bg;
    });
    expect(await badge.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe(warnBg);
    expect(await contrastOf(badge)).toBeGreaterThanOrEqual(4.5);
    await page.screenshot({ path: test.info().outputPath(`extensions-filter-${scheme}.png`) });
  });
}

test('A workspace folder renamed while Atrium is open shows as missing at once, and Locate… points the workspace at its new place (dark: the primary button reads at 4.5:1)', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'dark' });
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-e2e-locate-'));
  const folder = path.join(base, 'project');
  fs.mkdirSync(folder);
  fs.writeFileSync(path.join(folder, 'AGENTS.md'), 'Use tabs.\n');
  server = await startAtrium();
  const atrium = new AtriumPage(page);
  await atrium.open(server.url);
  await atrium.addWorkspace(folder);
  await expect(atrium.heading()).toHaveText('project');
  await expect(atrium.missingBanner()).toHaveCount(0);

  // a long display name is cut in the sidebar, but its tooltip carries it in full, with the folder
  const longName = 'A workspace with a rather long display name that the sidebar cuts';
  await atrium.renameSelected(longName);
  const item = atrium.workspaceItem('A workspace with');
  await expect(item).toHaveAttribute('title', `${longName}\n${fs.realpathSync(folder)}`);
  expect(await item.locator('.workspace-name').evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);

  // renamed on disk while the page is open: noticed without a reload
  const moved = path.join(base, 'project-renamed');
  fs.renameSync(folder, moved);
  await expect(atrium.missingBanner()).toContainText('The folder is missing', { timeout: 20_000 });
  await expect(item.getByTestId('workspace-missing')).toBeVisible();
  await expect(item).toHaveAttribute('title', /folder missing/);
  const locate = atrium.missingBanner().getByRole('button', { name: 'Locate…' });
  const primary = atrium.main.locator('.workspace-header').getByRole('button', { name: 'Locate…' });
  expect(await contrastOf(primary)).toBeGreaterThanOrEqual(4.5);
  await page.screenshot({ path: test.info().outputPath('missing-dark.png') });

  // a wrong path is refused at the field; the right one re-points the workspace, keeping its name
  await locate.click();
  const dialog = page.getByRole('dialog', { name: /^Locate / });
  await dialog.getByLabel('New folder path').fill(path.join(base, 'nowhere'));
  await dialog.getByRole('button', { name: 'Use this folder' }).click();
  await expect(dialog.getByRole('alert')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(locate).toBeFocused();
  await atrium.locateSelected(moved);
  await expect(atrium.missingBanner()).toHaveCount(0);
  await expect(atrium.heading()).toHaveText(longName);
  await expect(page.getByTestId('workspace-path')).toHaveText(fs.realpathSync(moved));
  await expect(item.getByTestId('workspace-missing')).toHaveCount(0);

  // and back: moving it again is noticed again
  fs.renameSync(moved, folder);
  await expect(atrium.missingBanner()).toBeVisible({ timeout: 20_000 });
});
