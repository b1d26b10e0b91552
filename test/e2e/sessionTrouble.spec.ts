import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { AtriumPage } from './pages/AtriumPage';
import { SessionsPage } from './pages/SessionsPage';
import { atriumCli, scriptedWorkspace } from './support/scriptedWorkspace';
import { startAtrium, type ServedAtrium } from './support/server';

let server: ServedAtrium | null = null;
test.afterEach(async () => {
  await server?.stop();
  server = null;
});

test.use({ viewport: { width: 1280, height: 800 } });

test('Diagnostics of an agent that dies at start agree with themselves: the command that ran, its exit and its stderr', async ({ page }) => {
  const { dataDir } = scriptedWorkspace('atrium-e2e-dies-', {});
  atriumCli(dataDir, ['agents', 'define', 'dying', process.execPath, '--name', 'Dying agent', '--', '-e', "process.stderr.write('fatal: no API key configured\\n'); process.exit(3)"]);
  server = await startAtrium(dataDir);
  const atrium = new AtriumPage(page);
  const sessions = new SessionsPage(page);
  await sessions.openWorkspaceSessions(atrium, server.url);
  await sessions.startSession('Dying agent', 'hello');
  await expect(sessions.state()).toHaveText('failed', { timeout: 30_000 });
  await sessions.button(/^Diagnostics$/).first().click();
  const diag = sessions.diagnostics();
  await expect(diag.getByLabel('stderr tail')).toContainText('fatal: no API key configured');
  await expect(diag).not.toContainText('not started yet');
  await expect(diag).not.toContainText('no unexpected exit');
  await expect(diag).not.toContainText('until it starts');
  await expect(sessions.diagnosticsFact('Agent session')).toHaveText('none (the agent never attached)');
  await expect(sessions.diagnosticsFact('Command')).toContainText(process.execPath);
  await expect(sessions.diagnosticsFact('Exit')).toContainText('exit code 3');
  await expect(sessions.diagnosticsFact('Process')).toHaveText(/not running/);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: test.info().outputPath(`diagnostics-died-at-start-${scheme}.png`) });
  }
});

test('a rule edited before Resume pauses the session calmly: "paused: rules changed", one message, no error toast, no digests', async ({ page }) => {
  const { dataDir, ws } = scriptedWorkspace('atrium-e2e-paused-', {});
  writeFileSync(path.join(ws, 'AGENTS.md'), '# Project rules\n\nAlways be kind.\n');
  atriumCli(dataDir, ['trust', 'set', ws, 'trusted']);
  server = await startAtrium(dataDir);
  const atrium = new AtriumPage(page);
  const sessions = new SessionsPage(page);
  await sessions.openWorkspaceSessions(atrium, server.url);
  await sessions.startSession('Scripted agent', 'hello');
  await expect(sessions.items('agent_message').last()).toContainText('Always be kind.');
  await sessions.button(/^Close$/).click();
  await expect(sessions.state()).toHaveText('closed');

  writeFileSync(path.join(ws, 'AGENTS.md'), '# Project rules\n\nAlways be kind.\nNever push to main.\n');
  await sessions.button(/^Resume$/).click();
  await expect(sessions.state()).toHaveText('paused: rules changed');
  const card = page.getByRole('region', { name: 'Rules changed' });
  await expect(card).toContainText('Paused: rules changed.');
  await expect(card.locator('[data-change="edited"]')).toContainText('AGENTS.md');
  // one message: no red state, no alert, no toast pointing at Diagnostics, no internal message text or digests
  await expect(sessions.items('notice').filter({ hasText: 'Paused: rules changed' })).toHaveCount(1);
  await expect(sessions.view.getByRole('alert')).toHaveCount(0);
  await expect(page.getByText(/Diagnostics for|open Diagnostics|could not be resumed|Could not resume/i)).toHaveCount(0);
  await expect(page.getByText(/provenance mismatch/i)).toHaveCount(0);
  // (the agent's own echo of the rules block may carry digests; Atrium's words do not)
  await expect(card).not.toContainText(/[0-9a-f]{12}/);
  for (const text of await sessions.items('notice').allTextContents()) expect(text).not.toMatch(/[0-9a-f]{12}/);
  await sessions.button(/^Diagnostics$/).first().click();
  await expect(sessions.diagnostics()).not.toContainText('Last error');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: test.info().outputPath(`paused-rules-changed-${scheme}.png`) });
  }
});

test('permission flow: the diff shows once, its path is not repeated, one line says waiting; a rejected tool reads "rejected" and focus returns to the input', async ({ page }) => {
  const options = [
    { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
    { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
  ];
  const { dataDir, ws } = scriptedWorkspace('atrium-e2e-permission-', {
    turns: [
      {
        match: 'write',
        steps: [
          { text: 'I will write the notes.' },
          { toolCall: { id: 'w1', title: 'Write notes.md', kind: 'edit', status: 'pending', locations: [{ path: '{{cwd}}/notes.md' }], content: [{ type: 'diff', path: '{{cwd}}/notes.md', oldText: null, newText: '# Notes\n\n- first\n' }] } },
          { permission: { toolCallId: 'w1', title: 'Write notes.md', kind: 'edit', locations: [{ path: '{{cwd}}/notes.md' }], options, stopOnReject: true } },
          { toolUpdate: { id: 'w1', status: 'completed' } },
        ],
      },
    ],
  });
  server = await startAtrium(dataDir);
  const atrium = new AtriumPage(page);
  const sessions = new SessionsPage(page);
  await sessions.openWorkspaceSessions(atrium, server.url);
  await sessions.startSession('Scripted agent', 'please write the notes');
  const card = sessions.permissionCard('Write notes.md');
  await expect(card).toBeVisible();
  const notes = path.join(ws, 'notes.md');
  // the diff once (in the request), its path once (the diff's own header), not again as a location of either card
  await expect(page.getByLabel(/Diff of .*notes\.md/)).toHaveCount(1);
  await expect(card.getByLabel(/Diff of .*notes\.md/)).toContainText('# Notes');
  await expect(sessions.view.getByText(notes, { exact: true })).toHaveCount(1);
  const tool = sessions.items('tool_call');
  await expect(tool).toContainText('asks permission below');
  await expect(tool.getByRole('button', { name: /Write notes\.md/ })).toHaveAttribute('aria-expanded', 'false');
  // one line says "waiting" (where to answer); the transcript's permission line says it was asked
  await expect(sessions.view.getByText(/waiting/i)).toHaveCount(1);
  await expect(sessions.items('permission')).toContainText('asked');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: test.info().outputPath(`permission-pending-${scheme}.png`) });
  }

  await card.getByRole('button', { name: /Reject/ }).click();
  await expect(card).toBeHidden();
  await expect(sessions.input).toBeFocused();
  await expect(sessions.state()).toHaveText('idle');
  await expect(sessions.items('permission')).toContainText('Reject');
  // rejected, not pending and then cancelled
  await expect(tool.locator('[data-tool-status]')).toHaveAttribute('data-tool-status', 'rejected');
  await expect(tool).toContainText('rejected');
  await expect(tool).not.toContainText('cancelled');
  await page.reload();
  await expect(sessions.items('tool_call').locator('[data-tool-status]')).toHaveAttribute('data-tool-status', 'rejected');
});
