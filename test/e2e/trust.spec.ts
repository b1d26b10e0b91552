import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { AtriumPage } from './pages/AtriumPage';
import { TrustPage } from './pages/TrustPage';
import { startAtrium, type ServedAtrium } from './support/server';
import { MONOREPO } from './support/workspaces';

let server: ServedAtrium | null = null;
test.afterEach(async () => {
  await server?.stop();
  server = null;
});


/**
 * A real git repository (one commit with an AGENTS.md) in a new temp folder, and a linked worktree
 * of it at `<root>/<worktreeName>` on a new branch `branch`.
 */
function repoWithWorktree(prefix: string, worktreeName: string, branch: string): { root: string; repo: string; worktree: string } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  const repo = path.join(root, 'repo');
  const worktree = path.join(root, worktreeName);
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', '-c', 'init.defaultBranch=main', ...args], { cwd: repo, stdio: 'pipe' });
  fs.mkdirSync(repo);
  fs.writeFileSync(path.join(repo, 'AGENTS.md'), '# Rules\n\nRun the tests before you commit.\n');
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'init');
  git('worktree', 'add', '-q', '-b', branch, worktree);
  return { root, repo, worktree };
}

for (const source of MONOREPO) {
  test(`an undecided workspace (${source.name}) shows the restricted banner; the review shows a hook literally; trusting persists across restarts`, async ({ page }) => {
    test.skip(source.skipReason !== null, source.skipReason ?? '');
    const folder = source.make();
    const name = path.basename(folder);
    server = await startAtrium();
    const atrium = new AtriumPage(page);
    const trust = new TrustPage(page);
    await atrium.open(server.url);
    await atrium.addWorkspace(folder);

    await expect(trust.banner).toContainText('Restricted mode');
    await expect(trust.banner).toContainText(/\d+ instruction files?(, | and )\d+ hooks?((, | and )\d+ MCP servers?)?( and \d+ other items?)? (is|are) inactive/);
    await expect(atrium.workspaceItem(name).locator('[data-trust-state]')).toHaveAttribute('data-trust-state', 'undecided');

    await trust.openReview();
    const hooks = trust.reviewGroup('Hooks');
    await expect(hooks.getByLabel('Literal command').filter({ hasText: '.claude/hooks/pre-tool-use-bash.sh' })).toBeVisible();
    await expect(hooks.locator('.review-item.executable').first()).toBeVisible();
    // executable kinds come before instruction files
    const groups = await trust.review.locator('section.review-group').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    expect(groups.indexOf('Hooks')).toBeLessThan(groups.indexOf('Instruction files'));
    // expanding an item shows its own lines of the file (the whole file one click away)
    await hooks.locator('.review-item-head').first().click();
    await expect(hooks.locator('.file-content').first()).toContainText('"command"');
    await hooks.getByRole('button', { name: 'Show the whole file' }).first().click();
    await expect(hooks.locator('.file-content').first()).toContainText('"hooks"');

    await trust.trustThisFolder();
    await expect(trust.banner).toBeHidden();
    await expect(atrium.workspaceItem(name).locator('[data-trust-state]')).toHaveAttribute('data-trust-state', 'trusted');

    const dataDir = server.dataDir;
    await server.stop();
    server = await startAtrium(dataDir);
    await atrium.open(server.url);
    await atrium.workspaceItem(name).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
    await expect(trust.banner).toBeHidden();
    await trust.openTrustTab();
    await expect(trust.historyTable()).toContainText('trusted');
    await page.getByRole('button', { name: 'Revoke trust' }).click();
    await expect(trust.banner).toContainText('Untrusted');
  });
}

test('a real linked worktree says it shares trust with its repository everywhere trust is shown; a forged link says nothing and stays restricted', async ({ page }) => {
  const { root, repo, worktree } = repoWithWorktree('atrium-e2e-wt-', 'repo-feature', 'feature');
  const forged = path.join(root, 'forged');
  // the forged link: a `.git` file naming an admin dir the folder wrote itself
  fs.mkdirSync(path.join(forged, '.fakeadmin'), { recursive: true });
  fs.writeFileSync(path.join(forged, 'AGENTS.md'), '# Rules\n');
  fs.writeFileSync(path.join(forged, '.git'), 'gitdir: .fakeadmin\n');
  fs.writeFileSync(path.join(forged, '.fakeadmin', 'commondir'), `${path.join(repo, '.git')}\n`);
  fs.writeFileSync(path.join(forged, '.fakeadmin', 'gitdir'), `${path.join(forged, '.git')}\n`);

  try {
    server = await startAtrium();
    const atrium = new AtriumPage(page);
    const trust = new TrustPage(page);
    await atrium.open(server.url);
    const shares = `shares trust with ${repo} (a worktree of it)`;

    await atrium.addWorkspace(worktree);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('repo-feature');
    await expect(trust.headerSharesTrust).toHaveText(shares);
    const sharedDecision = `This folder is a worktree of ${repo}; the trust decision belongs to that main checkout and is shared by all its worktrees.`;
    await expect(trust.sharedDecisionIn(trust.banner)).toHaveText(sharedDecision);
    await expect(atrium.workspaceItem('repo-feature')).toHaveAttribute('title', `repo-feature\n${worktree}\n${shares}`);
    await expect(atrium.workspaceItem('repo-feature').locator('[data-trust-state]')).toHaveAttribute('title', new RegExp(`This folder ${shares.replace(/[.()]/g, '\\$&')}`));
    await trust.openReview();
    await expect(trust.sharedDecisionIn(trust.review)).toHaveText(sharedDecision);
    await expect(trust.review).toContainText(`Trusting ${repo} lets agents`);
    await trust.trustThisFolder(`Trust ${repo} and its worktrees`);
    await expect(trust.banner).toBeHidden();
    await trust.openTrustTab();
    const trustPanel = page.getByRole('tabpanel', { name: 'Trust' });
    await expect(trust.sharedDecisionIn(trustPanel)).toHaveText(sharedDecision);
    await expect(trustPanel).toContainText(repo);

    // the repository itself is trusted by that one decision, and shows no worktree note
    await atrium.addWorkspace(repo);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('repo');
    await expect(atrium.workspaceItem('^repo(?!-)').locator('[data-trust-state]')).toHaveAttribute('data-trust-state', 'trusted');
    await expect(trust.headerSharesTrust).toHaveCount(0);

    // the forged link borrows nothing: restricted, no note, its own trust root
    await atrium.addWorkspace(forged);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('forged');
    await expect(trust.banner).toContainText('Restricted mode');
    await expect(atrium.workspaceItem('forged').locator('[data-trust-state]')).toHaveAttribute('data-trust-state', 'undecided');
    await expect(atrium.workspaceItem('forged')).toHaveAttribute('title', `forged\n${forged}`);
    await expect(page.getByTestId('shares-trust')).toHaveCount(0);
    await expect(page.getByTestId('shared-decision')).toHaveCount(0);
    await expect(page.getByTestId('workspace-trust-root')).toHaveText(forged);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('a worktree\'s Trust tab says the decision is the main checkout\'s, names what each button changes, and asks before changing it', async ({ page }) => {
  const { root, repo, worktree } = repoWithWorktree('atrium-e2e-wtshared-', 'repo-wt', 'wt1');
  try {
    server = await startAtrium();
    const atrium = new AtriumPage(page);
    const trust = new TrustPage(page);
    await atrium.open(server.url);
    await atrium.addWorkspace(repo);
    await trust.openReview();
    await trust.trustThisFolder();
    await atrium.addWorkspace(worktree);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('repo-wt');
    await trust.openTrustTab();
    const panel = trust.trustPanel();
    await expect(panel).toContainText(`${repo} (the main checkout: its decision is shared by all its worktrees)`);
    await expect(panel).not.toContainText('(this folder)');
    await expect(trust.sharedDecisionIn(panel)).toHaveText(`This folder is a worktree of ${repo}; the trust decision belongs to that main checkout and is shared by all its worktrees.`);
    await expect(panel.getByRole('button', { name: "Clear this folder's decision" })).toHaveCount(0);
    const clear = panel.getByRole('button', { name: `Clear the decision of ${repo} (shared with its worktrees)` });
    await expect(panel.getByRole('button', { name: `Mark ${repo} and its worktrees untrusted` })).toBeVisible();

    // clearing asks first, naming the main checkout and the worktrees it affects; Cancel changes nothing
    await clear.click();
    const dialog = trust.sharedChangeDialog();
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('heading')).toHaveText(`Clear the decision of ${repo} and its worktrees?`);
    await expect(dialog).toContainText(`the decision belongs to the main checkout ${repo} and is shared by every worktree of it`);
    const affected = dialog.getByRole('list', { name: 'Folders this changes' });
    await expect(affected.getByRole('listitem')).toHaveText([`${repo} (main checkout)`, `${worktree} (worktree, this folder)`, 'and any other worktree git lists for it']);
    await page.screenshot({ path: '/tmp/fixwt-dialog-light.png' });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: '/tmp/fixwt-dialog-dark.png' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await page.screenshot({ path: '/tmp/fixwt-tab-dark.png' });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.screenshot({ path: '/tmp/fixwt-tab-light.png' });
    await expect(atrium.workspaceItem('^repo(?!-)').locator('[data-trust-state]')).toHaveAttribute('data-trust-state', 'trusted');

    // confirming clears the main checkout's decision: the repository and the worktree are restricted
    await clear.click();
    await dialog.getByRole('button', { name: 'Clear the shared decision' }).click();
    await expect(dialog).toBeHidden();
    await expect(atrium.workspaceItem('repo-wt').locator('[data-trust-state]')).toHaveAttribute('data-trust-state', 'undecided');
    await expect(atrium.workspaceItem('^repo(?!-)').locator('[data-trust-state]')).toHaveAttribute('data-trust-state', 'undecided');

    // trusting from the worktree names the repository and asks too
    await panel.getByRole('button', { name: `Trust ${repo} and its worktrees` }).click();
    await expect(dialog.getByRole('heading')).toHaveText(`Trust ${repo} and its worktrees?`);
    await dialog.getByRole('button', { name: 'Trust them' }).click();
    await expect(atrium.workspaceItem('^repo(?!-)').locator('[data-trust-state]')).toHaveAttribute('data-trust-state', 'trusted');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('the review never puts an env or header value in the page: expanding an MCP server shows its file with the values masked', async ({ page }) => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-e2e-secret-')));
  const folder = path.join(root, 'leaky');
  fs.mkdirSync(folder);
  const secret = 'sk-live-abcdef1234567890';
  const plain = 'eu-west-plain-region';
  const header = 'hdr-value-not-secret-looking';
  fs.writeFileSync(
    path.join(folder, '.mcp.json'),
    JSON.stringify({ mcpServers: { billing: { command: 'node', args: ['server.js'], env: { API_TOKEN: secret, REGION: plain } }, remote: { type: 'http', url: 'https://mcp.example.com/api', headers: { 'X-Team': header } } } }, null, 2),
  );
  fs.writeFileSync(path.join(folder, 'server.js'), 'console.log("hi")\n');
  try {
    server = await startAtrium();
    const atrium = new AtriumPage(page);
    const trust = new TrustPage(page);
    await atrium.open(server.url);
    await atrium.addWorkspace(folder);
    await trust.openReview();
    const servers = trust.reviewGroup('MCP servers');
    // each server shows its own lines, then the whole file: masked either way
    for (const [name, own, other] of [
      ['billing', '"API_TOKEN": "••••••"', '"X-Team": "••••••"'],
      ['remote', '"X-Team": "••••••"', '"API_TOKEN": "••••••"'],
    ]) {
      const item = servers.locator('.review-item').filter({ has: page.locator('.review-item-name').getByText(name, { exact: true }) });
      await item.locator('.review-item-head').click();
      await expect(item.locator('.file-content')).toContainText(own);
      await item.getByRole('button', { name: 'Show the whole file' }).click();
      await expect(item.locator('.file-content')).toContainText(other);
    }
    const html = await page.content();
    for (const value of [secret, plain, header]) expect(html).not.toContain(value);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
