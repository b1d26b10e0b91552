import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from '@playwright/test';
import { repoRoot } from '../support/corpus';
import { AtriumPage } from './pages/AtriumPage';
import { SessionsPage } from './pages/SessionsPage';
import { startAtrium, type ServedAtrium } from './support/server';

let server: ServedAtrium | null = null;
test.afterEach(async () => {
  await server?.stop();
  server = null;
});

const cli = (dataDir: string, ...args: string[]) => execFileSync(process.execPath, [path.join(repoRoot, 'bin/atrium.js'), ...args], { cwd: repoRoot, env: { ...process.env, ATRIUM_DATA_DIR: dataDir }, encoding: 'utf8' });

/** A data dir with one workspace (with an AGENTS.md rule) and the scripted fixture agent. */
function prepare() {
  const base = mkdtempSync(path.join(os.tmpdir(), 'atrium-e2e-handover-'));
  const dataDir = path.join(base, 'data');
  const ws = path.join(base, 'project');
  mkdirSync(ws);
  writeFileSync(path.join(ws, 'AGENTS.md'), '# Project rules\n\nAlways be kind.\n');
  cli(dataDir, 'workspace', 'add', ws, '--name', 'project', '--data-dir', dataDir);
  cli(dataDir, 'trust', 'set', ws, 'trusted', '--data-dir', dataDir);
  const loader = pathToFileURL(path.join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;
  const agent = path.join(repoRoot, 'test/fixtures/agents/scripted-agent.ts');
  const scenario = path.join(repoRoot, 'test/fixtures/agents/scenarios/ui-tour.json');
  cli(dataDir, 'agents', 'define', 'scripted', process.execPath, '--name', 'Scripted agent', '--data-dir', dataDir, '--', '--import', loader, agent, '--scenario', scenario, '--state', path.join(base, 'agent-state.json'));
  return { dataDir, ws };
}

test('hand a session over to a second browser context with a code; both see the same transcript and output', async ({ page, browser }) => {
  const { dataDir } = prepare();
  server = await startAtrium(dataDir);
  const atrium = new AtriumPage(page);
  const sessions = new SessionsPage(page);
  await sessions.openWorkspaceSessions(atrium, server.url);
  await sessions.startSession('Scripted agent', 'hello from the first tab');
  const id = await sessions.sessionId();
  // the first prompt carries the static rules (AGENTS.md), which the echo agent repeats
  await expect(sessions.items('agent_message').last()).toContainText('Always be kind.');
  await expect(sessions.items('agent_message').last()).toContainText('hello from the first tab');
  await expect(sessions.state()).toHaveText('idle');

  // the Workspace panel lists the snapshot's rule and this tab as attached
  await sessions.button(/^Workspace$/).click();
  await expect(sessions.policyPanel()).toContainText('AGENTS.md');
  await expect(sessions.policyPanel().getByRole('region', { name: 'Attached surfaces' })).toContainText('browser');

  const code = await sessions.handOver();
  await expect(sessions.handoverBox()).toContainText(`atrium session pickup ${code}`);
  await expect(sessions.handoverBox().getByLabel('Seconds left')).toHaveText(/^\d+ s$/);

  // a second browser context: it needs the server token first, then redeems the code
  const second = await browser.newContext();
  try {
    const page2 = await second.newPage();
    const atrium2 = new AtriumPage(page2);
    const sessions2 = new SessionsPage(page2);
    await atrium2.open(server.url);
    await sessions2.pickUp(code);
    await expect(sessions2.view).toHaveAttribute('data-session-id', id);
    await expect(sessions2.items('agent_message').first()).toContainText('hello from the first tab');
    await expect(sessions2.transcript).toContainText('Static rules sent with the first prompt');

    // the code is used: the first tab's box goes away, and the pickup shows as attached
    await expect(sessions.handoverBox()).toBeHidden();
    await expect(sessions.policyPanel().getByRole('region', { name: 'Attached surfaces' })).toContainText('picked up');

    // a prompt from the second context: the output reaches both
    await sessions2.send('hello from the second tab');
    await expect(sessions2.transcript).toContainText('echo: hello from the second tab');
    await expect(sessions.transcript).toContainText('echo: hello from the second tab');
    await expect(sessions.state()).toHaveText('idle');
    await expect(sessions2.state()).toHaveText('idle');
  } finally {
    await second.close();
  }
});

test('a permission request goes to the surface that sent the prompt; a closed tab is detached', async ({ page, browser }) => {
  const { dataDir } = prepare();
  server = await startAtrium(dataDir);
  const atrium = new AtriumPage(page);
  const sessions = new SessionsPage(page);
  await sessions.openWorkspaceSessions(atrium, server.url);
  await sessions.startSession('Scripted agent', 'hello');
  await expect(sessions.state()).toHaveText('idle');
  const code = await sessions.handOver();

  const second = await browser.newContext();
  let secondOpen = true;
  try {
    const page2 = await second.newPage();
    const sessions2 = new SessionsPage(page2);
    await new AtriumPage(page2).open(server.url);
    await sessions2.pickUp(code);
    await sessions2.button(/^Workspace$/).click();
    await expect(sessions2.attachedSurfaces()).toHaveCount(2);
    const labelB = await sessions2.ownSurfaceLabel();
    expect(labelB).toMatch(/^Browser tab [0-9A-F]{4}$/);
    await sessions.button(/^Workspace$/).click();
    const labelA = await sessions.ownSurfaceLabel();
    expect(labelA).not.toBe(labelB);
    // each tab names itself in its header and its window title
    await expect(sessions.ownSurfaceHeader()).toHaveText(labelA);
    await expect(sessions2.ownSurfaceHeader()).toHaveText(labelB);
    await expect(page).toHaveTitle(new RegExp(`· ${labelA} — Atrium$`));
    await expect(page2).toHaveTitle(new RegExp(`· ${labelB} — Atrium$`));

    // B sends the prompt: only B gets the answer buttons, A a one-line notice naming B
    await sessions2.send('ask before deleting');
    const cardB = sessions2.permissionCard('Delete build/');
    await expect(cardB.getByRole('button', { name: /Allow/ })).toBeVisible();
    const noticeA = sessions.permissionElsewhere('Delete build/');
    await expect(noticeA).toContainText(`Waiting for an answer on ${labelB}`);
    await expect(sessions.permissionCard('Delete build/')).toHaveCount(0);
    await expect(sessions.view.getByRole('button', { name: /Allow/ })).toHaveCount(0);
    // Alt+1 on A does not answer a request addressed to B
    await sessions.input.focus();
    await page.keyboard.press('Alt+1');
    await expect(cardB).toBeVisible();

    // answering in B resolves it in both
    await cardB.getByRole('button', { name: /Allow/ }).click();
    await expect(cardB).toBeHidden();
    await expect(noticeA).toBeHidden();
    await expect(sessions2.transcript).toContainText('permission: allow');
    await expect(sessions.transcript).toContainText('permission: allow');

    // A may take over a request addressed to B, explicitly
    await sessions2.send('ask again');
    await expect(sessions2.permissionCard('Delete build/')).toBeVisible();
    await sessions.permissionElsewhere('Delete build/').getByRole('button', { name: 'Answer here instead' }).click();
    // the buttons move: B, asked before, now shows the notice naming A instead of its own buttons
    await expect(sessions.permissionCard('Delete build/').getByRole('button', { name: /Reject/ })).toBeVisible();
    await expect(sessions2.permissionCard('Delete build/')).toHaveCount(0);
    await expect(sessions2.permissionElsewhere('Delete build/')).toContainText(`Waiting for an answer on ${labelA}`);
    await expect(sessions2.view.getByRole('button', { name: /Allow/ })).toHaveCount(0);
    await sessions.permissionCard('Delete build/').getByRole('button', { name: /Reject/ }).click();
    await expect(sessions2.permissionElsewhere('Delete build/')).toBeHidden();
    await expect(sessions2.transcript).toContainText('permission: reject');

    // closing A's browser context detaches A: B's list drops it
    await expect(sessions2.attachedSurfaces()).toHaveCount(2);
    await page.context().close();
    await expect(sessions2.attachedSurfaces()).toHaveCount(1);
    await expect(sessions2.attachedSurfaces()).toContainText(labelB);
    await expect(sessions2.policyPanel().getByRole('region', { name: 'Attached surfaces' })).not.toContainText(labelA);

    // a prompt from B with A gone still asks B
    await sessions2.send('ask once more');
    await expect(sessions2.permissionCard('Delete build/').getByRole('button', { name: /Allow/ })).toBeVisible();
    await second.close();
    secondOpen = false;
  } finally {
    if (secondOpen) await second.close();
  }
});

test('the request remembers its surface: a reloaded tab still shows only the notice; closing the asked tab moves the card to the other', async ({ page, browser }) => {
  const { dataDir } = prepare();
  server = await startAtrium(dataDir);
  const atrium = new AtriumPage(page);
  const sessions = new SessionsPage(page);
  await sessions.openWorkspaceSessions(atrium, server.url);
  await sessions.startSession('Scripted agent', 'hello');
  await expect(sessions.state()).toHaveText('idle');
  const id = await sessions.sessionId();
  const code = await sessions.handOver();

  const second = await browser.newContext();
  let secondOpen = true;
  try {
    const page2 = await second.newPage();
    const sessions2 = new SessionsPage(page2);
    await new AtriumPage(page2).open(server.url);
    await sessions2.pickUp(code);
    await sessions2.button(/^Workspace$/).click();
    const labelB = await sessions2.ownSurfaceLabel();

    // B sends the prompt: the card is in B, A shows the notice
    await sessions2.send('ask before deleting');
    const cardB = sessions2.permissionCard('Delete build/');
    await expect(cardB.getByRole('button', { name: /Allow/ })).toBeVisible();
    await expect(sessions.permissionElsewhere('Delete build/')).toContainText(`Waiting for an answer on ${labelB}`);

    // A reloads (a new page that never saw the request's event): the item itself still routes it to B
    await page.reload();
    await expect(sessions.view).toHaveAttribute('data-session-id', id);
    await expect(sessions.permissionElsewhere('Delete build/')).toContainText(`Waiting for an answer on ${labelB}`);
    await expect(sessions.permissionCard('Delete build/')).toHaveCount(0);
    await expect(sessions.view.getByRole('button', { name: /Allow/ })).toHaveCount(0);
    await expect(cardB).toBeVisible();

    // B's context closes: the pending request is re-targeted to A, which now shows the card
    await second.close();
    secondOpen = false;
    const cardA = sessions.permissionCard('Delete build/');
    await expect(cardA.getByRole('button', { name: /Allow/ })).toBeVisible();
    await expect(sessions.permissionElsewhere('Delete build/')).toHaveCount(0);
    await cardA.getByRole('button', { name: /Allow/ }).click();
    await expect(cardA).toBeHidden();
    await expect(sessions.transcript).toContainText('permission: allow');
    await expect(sessions.state()).toHaveText('idle');
  } finally {
    if (secondOpen) await second.close();
  }
});

test('a wrong handover code is refused with a message and nothing opens', async ({ page }) => {
  const { dataDir } = prepare();
  server = await startAtrium(dataDir);
  const atrium = new AtriumPage(page);
  await atrium.open(server.url);
  await page.getByRole('navigation', { name: 'Workspaces' }).getByRole('button', { name: /^Sessions/ }).click();
  await page.getByRole('button', { name: 'Pick up a session' }).click();
  const dialog = page.getByRole('dialog', { name: 'Pick up a session' });
  await dialog.getByLabel('Handover code').fill('ZZZZ');
  await dialog.getByRole('button', { name: 'Pick up', exact: true }).click();
  await expect(dialog.getByRole('alert')).toContainText(/code/i);
  await expect(page.locator('section.sess-view')).toHaveCount(0);
});
