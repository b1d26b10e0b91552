import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from '@playwright/test';
import { repoRoot } from '../support/corpus';
import { AtriumPage } from './pages/AtriumPage';
import { HooksPage } from './pages/HooksPage';
import { SessionsPage } from './pages/SessionsPage';
import { startAtrium, type ServedAtrium } from './support/server';

let server: ServedAtrium | null = null;
test.afterEach(async () => {
  await server?.stop();
  server = null;
});

const cli = (dataDir: string, ...args: string[]) => execFileSync(process.execPath, [path.join(repoRoot, 'bin/atrium.js'), ...args.slice(0, 1), ...args.slice(1)], { cwd: repoRoot, env: { ...process.env, ATRIUM_DATA_DIR: dataDir }, encoding: 'utf8' });

/** A data dir with one workspace and the scripted fixture agent defined as "Scripted agent" (same CLI a user runs). */
function prepare() {
  const base = mkdtempSync(path.join(os.tmpdir(), 'atrium-e2e-sessions-'));
  const dataDir = path.join(base, 'data');
  const ws = path.join(base, 'project');
  mkdirSync(ws);
  cli(dataDir, 'workspace', 'add', ws, '--name', 'project', '--data-dir', dataDir);
  const loader = pathToFileURL(path.join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;
  const agent = path.join(repoRoot, 'test/fixtures/agents/scripted-agent.ts');
  const scenario = path.join(repoRoot, 'test/fixtures/agents/scenarios/ui-tour.json');
  const state = path.join(base, 'agent-state.json');
  cli(dataDir, 'agents', 'define', 'scripted', process.execPath, '--name', 'Scripted agent', '--data-dir', dataDir, '--', '--import', loader, agent, '--scenario', scenario, '--state', state);
  return { dataDir, ws };
}

test('start a session with the fixture agent, answer a permission prompt, stop a turn, reload and resume', async ({ page }) => {
  const { dataDir, ws } = prepare();
  server = await startAtrium(dataDir);
  const atrium = new AtriumPage(page);
  const sessions = new SessionsPage(page);
  await sessions.openWorkspaceSessions(atrium, server.url);
  await expect(sessions.panel).toContainText('No sessions yet');

  // launch with a first prompt: the agent streams, plans, and asks before writing
  await sessions.startSession('Scripted agent', 'please write the notes');
  const id = await sessions.sessionId();
  const card = sessions.permissionCard('Write notes.md');
  await expect(card).toBeVisible();
  await expect(card.getByLabel(/Diff of .*notes\.md/)).toContainText('# Notes');
  await expect(sessions.state()).toHaveText(/needs you/);
  await expect(sessions.items('plan').first()).toContainText('Write notes.md');
  await expect(sessions.items('agent_thought').first()).toContainText('Thought');
  await expect(page.getByRole('navigation', { name: 'Workspaces' }).getByTestId('sidebar-needs-you')).toHaveText('1');
  expect(existsSync(path.join(ws, 'notes.md'))).toBe(false);

  // answer by keyboard (Alt+1 = the first option, "Allow once") from the input
  await sessions.input.focus();
  await page.keyboard.press('Alt+1');
  await expect(card).toBeHidden();
  await expect(sessions.transcript).toContainText('permission: allow');
  await expect(sessions.transcript).toContainText('write ok');
  await expect(sessions.transcript.locator('[data-permission-state="selected"]')).toContainText('Allow once');
  await expect(sessions.state()).toHaveText('idle');
  await expect.poll(() => (existsSync(path.join(ws, 'notes.md')) ? readFileSync(path.join(ws, 'notes.md'), 'utf8') : '')).toContain('- second');
  await expect(sessions.view.getByRole('heading', { level: 1 })).toHaveText('Write the notes');

  // the agent's slash commands complete in the input; its modes switch from the header
  await sessions.input.fill('/re');
  await expect(sessions.slashGroup('Agent commands')).toContainText('/review');
  await sessions.input.press('Tab');
  await expect(sessions.input).toHaveValue('/review ');
  await sessions.input.fill('');
  await sessions.view.getByLabel('Mode', { exact: true }).selectOption('plan');
  await expect(sessions.view.getByLabel('Mode', { exact: true })).toHaveValue('plan');

  // a long turn: queue a second prompt, remove it, then stop the turn with Esc
  await sessions.send('start the long job');
  await expect(sessions.state()).toHaveText('working');
  await expect(sessions.transcript).toContainText('tick');
  await sessions.send('run this afterwards');
  await expect(sessions.queue).toContainText('run this afterwards');
  await sessions.queue.getByRole('button', { name: /Remove queued prompt/ }).click();
  await expect(sessions.queue).toBeHidden();
  // removed before it ran: it enters the transcript only now, marked not sent
  await expect(sessions.items('user_message').last()).toContainText('run this afterwards');
  await expect(sessions.items('user_message').last()).toContainText('not sent');
  await page.keyboard.press('Escape');
  await expect(sessions.items('stop').last().locator('[data-stop-reason]')).toHaveAttribute('data-stop-reason', 'cancelled');
  await expect(sessions.state()).toHaveText('idle');

  // close the agent, reload: the URL brings the same session back; resume continues it
  await sessions.button(/^Close$/).click();
  await expect(sessions.state()).toHaveText('closed');
  await page.reload();
  await expect(sessions.view).toHaveAttribute('data-session-id', id);
  await expect(sessions.transcript).toContainText('permission: allow');
  await expect(sessions.state()).toHaveText('closed');
  await sessions.button(/^Resume$/).click();
  await expect(sessions.items('notice').filter({ hasText: 'Resumed the agent session' })).toHaveCount(1);
  await expect(sessions.state()).toHaveText('idle');
  await sessions.send('hello again');
  await expect(sessions.transcript).toContainText('echo: hello again');

  // the list survives a restart of Atrium; the session resumes there too
  await server.stop();
  server = await startAtrium(dataDir);
  await atrium.open(server.url);
  await sessions.sidebarEntry.click();
  const row = page.getByRole('list', { name: 'All sessions' }).locator(`[data-session-id="${id}"]`);
  await expect(row).toContainText('Write the notes');
  await expect(row).toContainText('scripted');
  await row.click();
  await expect(sessions.view).toHaveAttribute('data-session-id', id);
  await sessions.button(/^Resume$/).click();
  await expect(sessions.items('notice').filter({ hasText: 'Resumed the agent session' })).toHaveCount(2);
  await sessions.send('still there?');
  await expect(sessions.transcript).toContainText('echo: still there?');
});

test('a rule edited while Atrium was stopped pauses the session ("paused: rules changed"); the diff shows, prompts are refused, and "Continue with the current rules" resumes it', async ({ page }) => {
  const { dataDir, ws } = prepare();
  writeFileSync(path.join(ws, 'AGENTS.md'), '# Project rules\n\nAlways be kind.\n');
  cli(dataDir, 'trust', 'set', ws, 'trusted', '--data-dir', dataDir);
  server = await startAtrium(dataDir);
  const atrium = new AtriumPage(page);
  const sessions = new SessionsPage(page);
  await sessions.openWorkspaceSessions(atrium, server.url);
  await sessions.startSession('Scripted agent', 'hello');
  const id = await sessions.sessionId();
  await expect(sessions.items('agent_message').last()).toContainText('Always be kind.');
  await sessions.button(/^Workspace$/).click();
  await expect(sessions.policyPanel().getByRole('region', { name: 'Rules' })).toContainText('AGENTS.md');

  await server.stop();
  writeFileSync(path.join(ws, 'AGENTS.md'), '# Project rules\n\nAlways be kind.\nNever push to main.\n');
  server = await startAtrium(dataDir);
  await atrium.open(server.url);
  await page.goto(`${server.origin}/#/sessions/${encodeURIComponent(id)}`);
  await page.reload();
  await expect(sessions.view).toHaveAttribute('data-session-id', id);
  await sessions.send('after the edit');
  const mismatch = page.getByRole('region', { name: 'Rules changed' });
  await expect(mismatch.locator('[data-change="edited"]')).toContainText('AGENTS.md');
  await mismatch.getByText('Diff', { exact: true }).click();
  await expect(mismatch.getByLabel('Diff of AGENTS.md')).toContainText('+Never push to main.');
  // paused, not failed: the state names the reason
  await expect(sessions.state()).toHaveText('paused: rules changed');
  await expect(sessions.state()).toHaveAttribute('data-session-state', 'paused');
  // a prompt on the paused session starts nothing: it is refused, and the text stays in the input
  // one calm message: the card (a warning, not an alert) and one transcript line; no error anywhere
  await expect(mismatch).toContainText('Paused: rules changed.');
  await expect(sessions.items('notice').filter({ hasText: 'Paused: rules changed' })).toHaveCount(1);
  await expect(sessions.view.getByRole('alert')).toHaveCount(0);
  await expect(page.getByText(/Project rule provenance mismatch/)).toHaveCount(0);
  await sessions.send('sneak past');
  await expect(page.getByText('Not sent: this session is paused')).toBeVisible();
  await expect(page.getByText(/open Diagnostics/i)).toHaveCount(0);
  await expect(sessions.input).toHaveValue('sneak past');
  await expect(sessions.items('user_message').filter({ hasText: 'sneak past' })).toHaveCount(0);
  await expect(sessions.state()).toHaveText('paused: rules changed');
  await sessions.input.fill('');
  // the only ways on are the card's two: no Resume (it would fail closed again)
  await expect(mismatch.getByRole('button', { name: 'Start a new session' })).toBeVisible();
  await expect(sessions.view.getByRole('button', { name: /^Resum/ })).toHaveCount(0);
  await mismatch.getByRole('button', { name: 'Continue with the current rules' }).click();
  await expect(mismatch).toBeHidden();
  await expect(sessions.transcript).toContainText('Continued with the current rules (1 file changed)');
  // no internal digests in what a person reads
  await expect(sessions.transcript).not.toContainText(/[0-9a-f]{12}…/);
  await expect(sessions.state()).toHaveText('idle');
  await sessions.send('and now');
  // the agent was resumed with the current rules: they are sent again, edited
  await expect(sessions.items('agent_message').last()).toContainText('Never push to main.');
  await expect(sessions.items('agent_message').last()).toContainText('and now');
});

test('a session in a new git worktree shows its branch; archiving with a dirty worktree asks before discarding', async ({ page }) => {
  const { dataDir, ws } = prepare();
  execFileSync('git', ['init', '-q', ws]);
  execFileSync('git', ['-C', ws, '-c', 'user.email=e2e@atrium', '-c', 'user.name=e2e', 'commit', '-q', '--allow-empty', '-m', 'init']);
  server = await startAtrium(dataDir);
  const atrium = new AtriumPage(page);
  const sessions = new SessionsPage(page);
  await sessions.openWorkspaceSessions(atrium, server.url);
  await sessions.panel.getByRole('button', { name: /Start a session|New session/ }).click();
  // before anything is installed, the picker marks the agents Atrium does not isolate
  await expect(sessions.dialog.locator('[data-agent-id="qwen"] .badge-warn')).toHaveText('approvals not enforced');
  await expect(sessions.dialog.locator('[data-agent-id="codex"] .badge-warn')).toHaveCount(0);
  await sessions.dialog.getByRole('radio', { name: /Scripted agent/ }).check();
  await expect(sessions.dialog.locator('[data-agent-id="scripted"] .badge-warn')).toHaveText('approvals not enforced');
  // an agent Atrium cannot identify: a warning before launch, not muted text
  const warning = sessions.dialog.getByRole('alert', { name: 'Approvals are not enforced for this agent' });
  await expect(warning).toContainText('Atrium cannot enforce approvals for Scripted agent');
  await expect(warning).toContainText(/user-defined agent/i);
  await expect(warning).toHaveClass(/banner-warn/);
  const where = page.locator('#new-session-desc');
  await expect(where).toContainText(`starts the agent in the workspace folder ${ws}`);
  await sessions.dialog.getByLabel('Run in a new git worktree').check();
  // ticked, the description says where it will run instead
  await expect(where).toContainText(`creates a new git worktree of ${ws}`);
  await expect(where).toContainText('atrium/<title>-<session id> from its current HEAD');
  await expect(where).toContainText('Rules are matched in the workspace (the source project)');
  await expect(where).not.toContainText('starts the agent in the workspace folder');
  await sessions.dialog.getByLabel('First prompt').fill('hello');
  await sessions.dialog.getByRole('button', { name: /Start session/ }).click();
  await expect(sessions.state()).toHaveText('idle');
  await sessions.button(/^Workspace$/).click();
  const runsIn = sessions.policyPanel().getByRole('region', { name: 'Execution' });
  await expect(runsIn).toContainText('atrium/');
  await expect(runsIn).toContainText('clean');
  const dir = (await runsIn.locator('dd code').first().textContent())!.trim();
  expect(existsSync(dir)).toBe(true);
  writeFileSync(path.join(dir, 'unsaved.txt'), 'work in progress\n');

  await sessions.button(/^Archive$/).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm.getByLabel(/Also remove its worktree/)).toBeChecked();
  await confirm.getByRole('button', { name: 'Archive', exact: true }).click();
  await expect(confirm).toContainText('Discard uncommitted changes?');
  await expect(confirm.getByLabel('Uncommitted changes')).toContainText('unsaved.txt');
  expect(existsSync(dir)).toBe(true);
  await confirm.getByRole('button', { name: 'Discard changes and remove' }).click();
  await expect(confirm).toBeHidden();
  await expect.poll(() => existsSync(dir)).toBe(false);
  await expect(runsIn).toContainText('removed');
});

test('the worktree option is disabled, with the reason, for a workspace that is not a git repository', async ({ page }) => {
  const { dataDir, ws } = prepare();
  server = await startAtrium(dataDir);
  const atrium = new AtriumPage(page);
  const sessions = new SessionsPage(page);
  await sessions.openWorkspaceSessions(atrium, server.url);
  await sessions.panel.getByRole('button', { name: /Start a session|New session/ }).click();
  const option = sessions.dialog.getByLabel('Run in a new git worktree');
  await expect(option).toBeDisabled();
  await expect(option).not.toBeChecked();
  await expect(sessions.dialog.getByRole('note', { name: 'Why no worktree' })).toContainText('not inside a git repository');
  await expect(page.locator('#new-session-desc')).toContainText(`starts the agent in the workspace folder ${ws}`);
});

test('the Workspace panel lists the run of an approved hook with its result and a withheld MCP server with the reason and a link', async ({ page }) => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'atrium-e2e-home-'));
  const { dataDir, ws } = prepare();
  mkdirSync(path.join(ws, '.claude/hooks'), { recursive: true });
  writeFileSync(path.join(ws, '.claude/hooks/prompt-guard.sh'), '#!/bin/sh\ninput=$(cat)\ncase "$input" in\n  *forbidden*) echo "no forbidden words here" >&2; exit 2;;\nesac\nexit 0\n');
  writeFileSync(path.join(ws, '.claude/settings.json'), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'sh .claude/hooks/prompt-guard.sh' }] }] } }));
  writeFileSync(path.join(ws, '.mcp.json'), JSON.stringify({ mcpServers: { shady: { command: 'node', args: ['shady-server.js'] } } }));
  cli(dataDir, 'trust', 'set', ws, 'trusted', '--data-dir', dataDir);
  server = await startAtrium(dataDir, { HOME: home });
  const atrium = new AtriumPage(page);
  const sessions = new SessionsPage(page);
  const hooks = new HooksPage(page);
  await atrium.open(server.url);
  await atrium.workspaceItem('project').click();

  // approve the hook in the Hooks tab; leave the MCP server unapproved
  await hooks.open();
  const card = hooks.card('prompt-guard.sh');
  await hooks.approve(card);
  await expect(hooks.state(card)).toHaveAttribute('data-hook-state', 'approved');

  await sessions.openTab();
  await sessions.startSession('Scripted agent', 'hello');
  await expect(sessions.transcript).toContainText('echo: hello');
  await sessions.send('a forbidden prompt');
  await expect(sessions.transcript).toContainText('no forbidden words here');
  await sessions.button(/^Workspace$/).click();

  const hooksSection = sessions.policyPanel().getByRole('region', { name: 'Hooks' });
  await expect(hooksSection).toContainText('1 approved');
  const runs = hooksSection.getByRole('list', { name: 'Hook runs' }).getByRole('listitem');
  // newest first: the blocked prompt (exit 2, with the hook's reason), then the one it let through (exit 0)
  await expect(runs).toHaveCount(2);
  await expect(runs.nth(0)).toHaveAttribute('data-decision', 'block');
  await expect(runs.nth(0)).toContainText('UserPromptSubmit');
  await expect(runs.nth(0)).toContainText('no forbidden words here');
  await expect(runs.nth(0)).toContainText('block, exit 2');
  // hooks are named by the command they run, not by internal ids
  await expect(runs.nth(0)).toContainText('sh .claude/hooks/prompt-guard.sh');
  await expect(hooksSection).not.toContainText(/h_[0-9a-f]{4}/);
  await expect(sessions.items('notice').filter({ hasText: 'UserPromptSubmit hook' })).toContainText('“sh .claude/hooks/prompt-guard.sh”: block');
  await expect(runs.nth(1)).toHaveAttribute('data-decision', 'none');
  await expect(runs.nth(1)).toContainText('exit 0');

  const mcp = sessions.policyPanel().getByRole('region', { name: 'MCP servers' });
  await expect(mcp).toContainText('None passed to the agent.');
  const withheld = mcp.getByRole('list', { name: 'Withheld MCP servers' }).getByRole('listitem');
  await expect(withheld).toHaveCount(1);
  await expect(withheld).toContainText('shady');
  await expect(withheld).toContainText('Not approved: review and approve it on the Hooks tab');
  // the scripted agent is a custom command Atrium does not isolate: it says what it did, not what the agent may do
  await expect(withheld).toContainText('not passed by Atrium');
  await expect(mcp).toContainText("This agent is not isolated: it may start MCP servers from the repository's own configuration by itself.");
  await withheld.getByRole('button', { name: 'Review shady on the Hooks tab' }).click();
  await expect(hooks.panel).toBeVisible();
  await expect(hooks.panel).toContainText('shady');
});

test('the "/" menu lists workspace commands beside the agent\'s; a picked one previews its expansion from the snapshot, runs shell commands only when confirmed, and sends the expansion', async ({ page }) => {
  const { dataDir, ws } = prepare();
  mkdirSync(path.join(ws, '.claude/commands'), { recursive: true });
  const review = path.join(ws, '.claude/commands/review.md');
  writeFileSync(review, '---\ndescription: Review a file against the team checklist\nargument-hint: <file>\n---\nReview $0 against the checklist. Context: @notes.md\n');
  writeFileSync(path.join(ws, '.claude/commands/status.md'), '---\ndescription: Summarise the branch\n---\nBranch state: !`echo embed-output-42`\nOther: !`echo second-embed`\nFocus: $ARGUMENTS\n');
  writeFileSync(path.join(ws, 'notes.md'), 'checklist: tests, docs\n');
  cli(dataDir, 'trust', 'set', ws, 'trusted', '--data-dir', dataDir);
  server = await startAtrium(dataDir);
  const atrium = new AtriumPage(page);
  const sessions = new SessionsPage(page);
  await sessions.openWorkspaceSessions(atrium, server.url);
  await sessions.startSession('Scripted agent');
  await expect(sessions.state()).toHaveText('idle');
  // edited on disk after the session started: the session keeps the snapshot's template
  writeFileSync(review, 'CHANGED on disk $ARGUMENTS\n');

  // two labelled groups: the agent's /review and the workspace's /review (source badge, argument hint)
  await sessions.input.fill('/re');
  await expect(sessions.slashGroup('Agent commands')).toContainText('/review');
  const workspace = sessions.slashGroup('Workspace commands');
  await expect(workspace).toContainText('/review');
  await expect(workspace).toContainText('project');
  await expect(workspace).toContainText('<file>');
  await expect(workspace).toContainText('Review a file against the team checklist');
  // keyboard only: ↓ to the workspace entry, Enter picks it and shows the preview
  await sessions.input.press('ArrowDown');
  await expect(workspace.getByRole('option', { selected: true })).toContainText('/review');
  await sessions.input.press('Enter');
  await expect(sessions.input).toHaveValue('/review ');
  const preview = sessions.slashPreview();
  await expect(preview).toContainText("from this session's snapshot");
  await sessions.input.pressSequentially('src/app.ts');
  const expanded = preview.getByLabel('Expanded prompt');
  await expect(expanded).toContainText('Review src/app.ts against the checklist. Context:');
  await expect(expanded).toContainText('checklist: tests, docs');
  await expect(expanded).not.toContainText('CHANGED');
  await expect(preview.getByRole('list', { name: 'Referenced files' })).toContainText('@notes.md included');
  await sessions.input.press('Enter');
  await expect(preview).toBeHidden();
  await expect(sessions.input).toHaveValue('');
  await expect(sessions.items('notice').filter({ hasText: '/review src/app.ts' })).toContainText('.claude/commands/review.md');
  await expect(sessions.items('user_message').last()).toContainText('Review src/app.ts against the checklist.');
  await expect(sessions.transcript).toContainText('echo: Review src/app.ts against the checklist.');
  await expect(sessions.state()).toHaveText('idle');

  // shell commands are listed, not run, until "Run these 2 commands"; then Enter sends their output
  await sessions.input.fill('/sta');
  await expect(sessions.slashGroup('Workspace commands')).toContainText('runs 2 shell commands');
  await sessions.input.press('Enter');
  await sessions.input.pressSequentially('docs');
  await expect(expanded).toContainText('Focus: docs');
  await expect(expanded).toContainText('Branch state: !`echo embed-output-42`');
  const embeds = preview.getByRole('group', { name: 'Shell commands' });
  await expect(embeds).toContainText('echo embed-output-42');
  await expect(embeds).toContainText('not run');
  await embeds.getByRole('button', { name: 'Run these 2 commands' }).click();
  await expect(expanded).toContainText('Branch state: embed-output-42\nOther: second-embed');
  await expect(embeds).toContainText('exit 0');
  await sessions.input.focus();
  await sessions.input.press('Enter');
  await expect(preview).toBeHidden();
  await expect(sessions.transcript).toContainText('echo: Branch state: embed-output-42');
  await expect(sessions.items('notice').filter({ hasText: '/status docs' })).toHaveCount(1);

  // Esc closes the preview; Enter then sends the typed text as is
  await sessions.input.fill('/status later');
  await expect(preview).toBeVisible();
  await sessions.input.press('Escape');
  await expect(preview).toBeHidden();
  await sessions.input.press('Enter');
  await expect(sessions.transcript).toContainText('echo: /status later');
});

test('a trial user at 1280×800: the typed title stays, messages stay apart, the command preview keeps Send on screen, clashing /review entries are marked', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const home = mkdtempSync(path.join(os.tmpdir(), 'atrium-e2e-home-'));
  const { dataDir, ws } = prepare();
  mkdirSync(path.join(ws, '.claude/commands'), { recursive: true });
  const body = Array.from({ length: 30 }, (_, i) => `Checklist line ${i + 1} for $0.`).join('\n');
  writeFileSync(path.join(ws, '.claude/commands/review.md'), `---\ndescription: Review a PR\nargument-hint: PR PRIORITY\n---\nReview PR #$0 with priority $1.\n${body}\nBranch: !\`git branch --show-current\`\nLog: !\`git log -1 --oneline\`\nStatus: !\`git status --short\`\n`);
  // rules that mention every scenario keyword: only the user's own text picks the scripted agent's turn
  writeFileSync(path.join(ws, 'AGENTS.md'), 'Always write tests first. Ask before deleting. Keep long functions short.\n');
  writeFileSync(path.join(ws, '.claude/settings.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'http', url: 'https://hooks.example.com/stop' }] }] } }));
  cli(dataDir, 'trust', 'set', ws, 'trusted', '--data-dir', dataDir);
  server = await startAtrium(dataDir, { HOME: home });
  const atrium = new AtriumPage(page);
  const sessions = new SessionsPage(page);
  await sessions.openWorkspaceSessions(atrium, server.url);

  // the dialog's buttons stay on screen at 800 px while its form scrolls
  await sessions.panel.getByRole('button', { name: /Start a session|New session/ }).click();
  const start = sessions.dialog.getByRole('button', { name: /Start session/ });
  await expect(start).toBeInViewport({ ratio: 1 });
  await sessions.dialog.getByRole('radio', { name: /Scripted agent/ }).check();
  await sessions.dialog.getByLabel('Title').fill('Handover test');
  await expect(start).toBeInViewport({ ratio: 1 });
  await start.click();
  await expect(sessions.view).toBeVisible();
  const heading = sessions.view.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText('Handover test');

  // "ask" plays the ask turn although the rules (sent with this first prompt) say "write"
  await sessions.send('ask');
  await sessions.permissionCard('Delete build/').getByRole('button', { name: /Reject/ }).click();
  await expect(sessions.transcript).toContainText('permission: reject');

  // the agent's title ("Write the notes") does not replace the typed one; its report and the write's result are two messages
  await sessions.send('write');
  await expect(sessions.permissionCard('Write notes.md')).toBeVisible();
  await sessions.input.focus();
  await page.keyboard.press('Alt+1');
  await expect(sessions.transcript).toContainText('Done.');
  await expect(sessions.items('agent_message').filter({ hasText: 'permission: allow' })).toHaveText('permission: allow');
  await expect(sessions.items('agent_message').filter({ hasText: 'write ok' })).toHaveText(/^write ok/);
  await expect(heading).toHaveText('Handover test');
  // the title is not cut: the toolbar shows icons (names and tooltips kept) at this width
  expect(await heading.evaluate((h) => h.scrollWidth <= h.clientWidth)).toBe(true);
  await expect(sessions.button(/^Workspace$/)).toHaveAttribute('title', /Rules, hooks/);

  // rename in place: the user's title wins from then on
  await sessions.button('Rename the session').click();
  await sessions.view.getByLabel('Session title').fill('Notes run');
  await sessions.view.getByLabel('Session title').press('Enter');
  await expect(heading).toHaveText('Notes run');

  // two /review entries: the agent's is marked "agent", the workspace's keeps its source badge
  await sessions.input.fill('');
  await sessions.input.pressSequentially('/rev');
  const agentReview = sessions.slashGroup('Agent commands').getByRole('option', { name: /\/review/ });
  await expect(agentReview).toContainText('agent');
  await expect(sessions.slashGroup('Workspace commands').getByRole('option', { name: /\/review/ })).toContainText('project');
  await sessions.input.press('ArrowDown');
  await sessions.input.press('Enter');
  await expect(sessions.input).toHaveValue('/review ');
  // a space typed right after the pick is not a second one
  await sessions.input.pressSequentially(' 42 high');
  await expect(sessions.input).toHaveValue('/review 42 high');
  const preview = sessions.slashPreview();
  await expect(preview.getByLabel('Expanded prompt')).toContainText('Review PR #42 with priority high.');
  await expect(preview.getByRole('note').filter({ hasText: "not the agent's own" })).toContainText("Runs the workspace's /review (project command");
  // the long preview fits above the input and its text scrolls in its own box: the input and Send stay on screen
  await expect(preview).toBeInViewport({ ratio: 1 });
  await expect(sessions.input).toBeInViewport({ ratio: 1 });
  await expect(sessions.button(/^Send$/)).toBeInViewport({ ratio: 1 });
  await expect(preview.getByRole('button', { name: 'Run these 3 commands' })).toBeInViewport({ ratio: 1 });
  expect(await preview.getByLabel('Expanded prompt').evaluate((p) => p.scrollHeight > p.clientHeight)).toBe(true);
  await sessions.input.press('Escape');
  await sessions.input.fill('');

  // the Workspace panel names the http hook that does not run by its URL
  await sessions.button(/^Workspace$/).click();
  await expect(sessions.policyPanel().getByRole('list', { name: 'Hooks that do not run' })).toContainText('https://hooks.example.com/stop');
});
