import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from '@playwright/test';
import { repoRoot } from '../support/corpus';
import { AtriumPage } from './pages/AtriumPage';
import { SessionsPage } from './pages/SessionsPage';
import { startAtrium, type ServedAtrium } from './support/server';

// Findings of the second new-user trial (/tmp/newuser2): titles, worktree option, prompt line
// breaks, keyboard focus in the sidebar and the session list, one-line dialog buttons.

let server: ServedAtrium | null = null;
test.afterEach(async () => {
  await server?.stop();
  server = null;
});

const cli = (dataDir: string, ...args: string[]) => execFileSync(process.execPath, [path.join(repoRoot, 'bin/atrium.js'), ...args], { cwd: repoRoot, env: { ...process.env, ATRIUM_DATA_DIR: dataDir }, encoding: 'utf8' });
const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-C', cwd, '-c', 'user.email=e2e@atrium', '-c', 'user.name=e2e', ...args]);

/** A data dir with the workspace "kitchen-sink" (a git repo, committed when `commit`) and the scripted agent. */
function prepare(commit: boolean) {
  const base = mkdtempSync(path.join(os.tmpdir(), 'atrium-e2e-trial-'));
  const dataDir = path.join(base, 'data');
  const ws = path.join(base, 'kitchen-sink');
  mkdirSync(ws);
  git(ws, 'init', '-q');
  if (commit) git(ws, 'commit', '-q', '--allow-empty', '-m', 'init');
  cli(dataDir, 'workspace', 'add', ws, '--data-dir', dataDir);
  const loader = pathToFileURL(path.join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;
  const agent = path.join(repoRoot, 'test/fixtures/agents/scripted-agent.ts');
  const scenario = path.join(repoRoot, 'test/fixtures/agents/scenarios/ui-tour.json');
  cli(dataDir, 'agents', 'define', 'scripted', process.execPath, '--name', 'Scripted agent', '--data-dir', dataDir, '--', '--import', loader, agent, '--scenario', scenario, '--state', path.join(base, 'agent-state.json'));
  return { dataDir, ws };
}

test('a worktree session is titled after the workspace, clearing a title returns to it; prompts keep their line breaks; Start session stays on one line', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  const { dataDir } = prepare(true);
  server = await startAtrium(dataDir);
  const atrium = new AtriumPage(page);
  const sessions = new SessionsPage(page);
  await atrium.open(server.url);
  await atrium.workspaceItem('kitchen-sink').click();
  await sessions.openTab();
  await sessions.panel.getByRole('button', { name: /Start a session|New session/ }).click();
  await sessions.dialog.getByRole('radio', { name: /Scripted agent/ }).check();
  const start = sessions.dialog.getByRole('button', { name: /Start session/ });
  const box = (await start.boundingBox())!;
  const lineHeight = await start.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight) || parseFloat(getComputedStyle(el).fontSize) * 1.4);
  expect(box.height).toBeLessThan(lineHeight * 2);
  await sessions.dialog.getByLabel('Run in a new git worktree').check();
  await start.click();
  await expect(sessions.state()).toHaveText('idle');
  const heading = sessions.view.locator('#session-title');
  await expect(heading).toHaveText('Session in kitchen-sink');

  await sessions.button('Rename the session').click();
  await sessions.view.getByLabel('Session title').fill('Mine');
  await sessions.view.getByLabel('Session title').press('Enter');
  await expect(heading).toHaveText('Mine');
  await sessions.button('Rename the session').click();
  await sessions.view.getByLabel('Session title').fill('');
  await sessions.view.getByLabel('Session title').press('Enter');
  await expect(heading).toHaveText('Session in kitchen-sink');

  await sessions.input.fill('first line\nsecond line\n\nafter a blank line');
  await sessions.input.press('Enter');
  const text = sessions.items('user_message').last().locator('.sess-user-text');
  await expect(text).toBeVisible();
  expect(await text.evaluate((el) => (el as HTMLElement).innerText)).toBe('first line\nsecond line\n\nafter a blank line');

  await sessions.sidebarEntry.click();
  await expect(page.getByRole('list', { name: 'All sessions' }).locator('.sess-row-title')).toHaveText(['Session in kitchen-sink']);
});

test('the worktree option is disabled up front, with the reason, in a repository without a commit', async ({ page }) => {
  const { dataDir, ws } = prepare(false);
  server = await startAtrium(dataDir);
  const atrium = new AtriumPage(page);
  const sessions = new SessionsPage(page);
  await atrium.open(server.url);
  await atrium.workspaceItem('kitchen-sink').click();
  await sessions.openTab();
  await sessions.panel.getByRole('button', { name: /Start a session|New session/ }).click();
  const option = sessions.dialog.getByLabel('Run in a new git worktree');
  await expect(option).toBeDisabled();
  await expect(option).not.toBeChecked();
  await expect(sessions.dialog.getByRole('note', { name: 'Why no worktree' })).toContainText(`${ws} has no commit yet`);
  await expect(sessions.dialog.getByRole('note', { name: 'Why no worktree' })).toContainText('Commit something first');
});

test('keyboard: focusing a sidebar workspace does not leave the Sessions view; Enter and arrows do; the session list is one Tab stop', async ({ page }) => {
  const { dataDir } = prepare(true);
  const other = path.join(path.dirname(dataDir), 'second');
  mkdirSync(other);
  cli(dataDir, 'workspace', 'add', other, '--data-dir', dataDir);
  server = await startAtrium(dataDir);
  const atrium = new AtriumPage(page);
  const sessions = new SessionsPage(page);
  await atrium.open(server.url);
  await atrium.workspaceItem('kitchen-sink').click();
  await sessions.openTab();
  await sessions.startSession('Scripted agent');
  await expect(sessions.state()).toHaveText('idle');
  await atrium.workspaceItem('kitchen-sink').click();
  await sessions.openTab();
  await sessions.startSession('Scripted agent');
  await expect(sessions.state()).toHaveText('idle');

  await sessions.sidebarEntry.click();
  const sessionsHeading = page.getByRole('heading', { name: 'Sessions', level: 1 });
  await expect(sessionsHeading).toBeVisible();
  await sessions.sidebarEntry.focus();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('navigation', { name: 'Workspaces' }).getByRole('button', { name: 'Trusted folders' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(atrium.workspaceItem('kitchen-sink')).toBeFocused();
  await expect(sessionsHeading).toBeVisible();

  // Tab order: sidebar → header toolbar → the list's filter box → the list (one stop) → past it
  const rows = page.getByRole('list', { name: 'All sessions' }).locator('.sess-row');
  await expect(rows).toHaveCount(2);
  const newSession = page.getByRole('button', { name: 'New session' });
  for (let i = 0; i < 20 && !(await newSession.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(newSession).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('searchbox', { name: 'Filter sessions' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(rows.first()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(rows.nth(1)).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(rows.first()).not.toBeFocused();
  await expect(rows.nth(1)).not.toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(rows.nth(1)).toBeFocused();
  await expect(sessionsHeading).toBeVisible();

  // Enter opens the focused workspace; the arrows open the next one
  await atrium.workspaceItem('kitchen-sink').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'kitchen-sink', level: 1 })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await expect(atrium.workspaceItem('second')).toBeFocused();
  await expect(page.getByRole('heading', { name: 'second', level: 1 })).toBeVisible();
});
