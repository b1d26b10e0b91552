import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { AtriumPage } from './pages/AtriumPage';
import { SessionsPage } from './pages/SessionsPage';
import { TrustPage } from './pages/TrustPage';
import { TrustedFoldersPage } from './pages/TrustedFoldersPage';
import { atriumCli, scriptedWorkspace } from './support/scriptedWorkspace';
import { expectNoSeriousA11yViolations } from './support/axe';
import { startAtrium, type ServedAtrium } from './support/server';

let server: ServedAtrium | null = null;
const roots: string[] = [];
test.afterEach(async () => {
  await server?.stop();
  server = null;
  for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
});

const ASK = {
  turns: [
    {
      match: 'edit',
      steps: [
        { toolCall: { id: 'w1', title: 'Edit notes.md', kind: 'edit', status: 'pending', locations: [{ path: '{{cwd}}/notes.md' }] } },
        {
          permission: {
            toolCallId: 'w1',
            title: 'Edit notes.md',
            kind: 'edit',
            options: [
              { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
              { optionId: 'always', name: 'Always allow edits', kind: 'allow_always' },
              { optionId: 'no', name: 'Reject', kind: 'reject_once' },
            ],
          },
        },
        { text: 'Edited.' },
      ],
    },
  ],
};

test('Trusted folders lists every decision with what it covers (a parent covers its listed workspaces and any folder below), revokes after naming what changes, and keeps the history', async ({ page }) => {
  const { base, dataDir } = scriptedWorkspace('atrium-e2e-trusted-', ASK);
  roots.push(base);
  const sibling = path.join(base, 'sibling');
  const solo = path.join(base, 'elsewhere', 'solo');
  fs.mkdirSync(sibling);
  fs.mkdirSync(solo, { recursive: true });
  atriumCli(dataDir, ['workspace', 'add', sibling, '--name', 'sibling']);
  atriumCli(dataDir, ['workspace', 'add', solo, '--name', 'solo']);
  atriumCli(dataDir, ['trust', 'set', path.join(base, 'elsewhere'), 'untrusted']);
  server = await startAtrium(dataDir);
  const atrium = new AtriumPage(page);
  const trust = new TrustPage(page);
  const folders = new TrustedFoldersPage(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await atrium.open(server.url);

  // trust the parent of "project" through the review (its confirmation is the separate step)
  await atrium.workspaceItem('project').click();
  // an empty folder shows no restricted banner (trusting it activates nothing): review from the Trust tab
  await trust.openTrustTab();
  await page.getByRole('button', { name: 'Review what this folder carries…' }).click();
  await expect(trust.review).toBeVisible();
  const confirm = await trust.trustParent();
  await confirm.getByRole('button', { name: /and everything below$/ }).click();

  await folders.open();
  await expect(page).toHaveURL(/#\/trust$/);
  const parentRow = folders.decision(fs.realpathSync(base));
  await expect(parentRow).toContainText('trusted');
  await expect(parentRow.getByRole('button', { name: 'project' })).toBeVisible();
  await expect(parentRow.getByRole('button', { name: 'sibling' })).toBeVisible();
  await expect(parentRow).toContainText('and any folder below');
  await expect(parentRow).toContainText('not solo (a deeper decision)');
  const untrustedRow = folders.decision(fs.realpathSync(path.join(base, 'elsewhere')));
  await expect(untrustedRow).toContainText('untrusted');
  await expect(untrustedRow.getByRole('button', { name: 'solo' })).toBeVisible();
  await expect(folders.history).toContainText('no decision → trusted');
  const shots = test.info().outputPath('shots');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: path.join(shots, `trusted-folders-${scheme}.png`) });
    await expectNoSeriousA11yViolations(page, `Trusted folders (${scheme})`);
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // a covered workspace is a link to its Trust tab, which links back to the page
  await parentRow.getByRole('button', { name: 'sibling' }).click();
  await expect(atrium.heading()).toHaveText('sibling');
  await expect(trust.trustPanel()).toBeVisible();
  await trust.trustPanel().getByRole('button', { name: /^All trusted folders/ }).click();
  await expect(folders.heading).toBeVisible();

  // revoke: the confirmation names the workspaces that change; afterwards they are restricted again
  await parentRow.getByRole('button', { name: /^Revoke the decision for/ }).click();
  const dialog = page.getByRole('alertdialog', { name: /^Revoke trust in / });
  await expect(dialog.getByRole('list', { name: 'Workspaces this changes' })).toContainText('project');
  await expect(dialog.getByRole('list', { name: 'Workspaces this changes' })).toContainText('sibling');
  await expect(dialog.getByRole('list', { name: 'Workspaces this changes' })).not.toContainText('solo');
  await dialog.getByRole('button', { name: 'Revoke trust' }).click();
  await expect(parentRow).toHaveCount(0);
  await expect(folders.history).toContainText('trusted → no decision');
  await expect(atrium.workspaceItem('project').locator('[data-trust-state]')).toHaveAttribute('data-trust-state', 'undecided');
  await expect(page.getByTestId('undecided-workspaces')).toContainText('project');

  // the address survives a reload
  await page.reload();
  await expect(folders.heading).toBeVisible();
  await expect(folders.decisions).toBeVisible();
});

/** A served Atrium whose scripted session was answered "Always allow edits"; the session id and the Trusted folders page. */
async function sessionGrantedAlwaysAllow(page: Page, prefix: string): Promise<{ id: string; folders: TrustedFoldersPage; dataDir: string }> {
  const { base, dataDir } = scriptedWorkspace(prefix, ASK);
  roots.push(base);
  server = await startAtrium(dataDir);
  const atrium = new AtriumPage(page);
  const sessions = new SessionsPage(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await sessions.openWorkspaceSessions(atrium, server.url);
  await sessions.startSession('Scripted agent', 'edit the notes');
  const id = await sessions.sessionId();
  await sessions.permissionCard('Edit notes.md').getByRole('button', { name: /Always allow edits/ }).click();
  await expect(sessions.transcript).toContainText('Edited.');
  return { id, folders: new TrustedFoldersPage(page), dataDir };
}

test('Permissions granted lists each "Always allow" an agent was given with its session, says plainly that ACP cannot withdraw one, and closes the session holding it', async ({ page }) => {
  const { id, folders } = await sessionGrantedAlwaysAllow(page, 'atrium-e2e-grants-');

  await folders.open();
  await folders.section('Permissions granted');
  await expect(page).toHaveURL(/#\/trust\/permissions$/);
  await expect(page.getByTestId('grants-explained')).toContainText('ACP has no request to withdraw it');
  const row = folders.grantRows(id);
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Always allow edits');
  await expect(row).toContainText('Edit notes.md');
  await expect(row).toContainText('notes.md');
  await expect(row).toContainText('Held by the running agent');
  await expect(row).toContainText('answered by you');
  const shots = test.info().outputPath('shots');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: path.join(shots, `permissions-granted-${scheme}.png`) });
    await expectNoSeriousA11yViolations(page, `Trusted folders (${scheme})`);
  }
  await page.emulateMedia({ colorScheme: 'light' });

  await row.getByRole('button', { name: 'Close session…' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Close the session to drop its grants?' });
  await expect(dialog).toContainText('1 “Always allow” answer');
  await dialog.getByRole('button', { name: 'Close session' }).click();
  await expect(row).toContainText('Ended with its session', { timeout: 30_000 });

  // the session link opens it
  await row.locator('td').nth(2).getByRole('button').click();
  await expect(page).toHaveURL(new RegExp(`#/sessions/${id}$`));
});

test('Permissions granted: when the agent process of the session has stopped, the grant is not shown as held and no Close is offered', async ({ page }) => {
  const { id, folders, dataDir } = await sessionGrantedAlwaysAllow(page, 'atrium-e2e-grants-stopped-');

  // the agent process dies (as after a crash): the session stays, no process holds the grant
  const db = new Database(path.join(dataDir, 'atrium.db'), { readonly: true });
  const row0 = db.prepare("SELECT data FROM session_events WHERE session_id = ? AND kind = 'agent_started' ORDER BY seq DESC LIMIT 1").get(id) as { data: string };
  db.close();
  process.kill((JSON.parse(row0.data) as { pid: number }).pid, 'SIGKILL');

  await folders.open();
  await folders.section('Permissions granted');
  const row = folders.grantRows(id);
  await expect(row).toContainText('Not held by any running agent now', { timeout: 30_000 });
  await expect(row).toContainText('answered by you');
  await expect(row).not.toContainText('Held by the running agent');
  await expect(row.getByRole('button', { name: 'Close session…' })).toHaveCount(0);
  const shots = test.info().outputPath('shots');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: path.join(shots, `permissions-granted-stopped-${scheme}.png`) });
  }
});
