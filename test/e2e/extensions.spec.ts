import { expect, test } from '@playwright/test';
import { materialize } from '../support/corpus';
import { AtriumPage } from './pages/AtriumPage';
import { ExtensionsPage } from './pages/ExtensionsPage';
import { TrustPage } from './pages/TrustPage';
import { startAtrium, type ServedAtrium } from './support/server';

let server: ServedAtrium | null = null;
test.afterEach(async () => {
  await server?.stop();
  server = null;
});

test('Extensions tab: restricted mode, then a corpus workspace’s skills, commands, MCP and LSP servers; a command preview; embeds run only after confirmation', async ({ page }) => {
  const folder = materialize('synthetic__kitchen-sink');
  server = await startAtrium();
  const atrium = new AtriumPage(page);
  const ext = new ExtensionsPage(page);
  await atrium.open(server.url);
  await atrium.addWorkspace(folder);
  await ext.open();

  // Restricted: nothing from the project, and the note says what would activate.
  await expect(ext.restrictedNote()).toContainText('2 skills, 3 commands, 1 agent');
  await expect(ext.section('Commands')).toContainText('Custom commands are Markdown files');
  await ext.restrictedNote().getByRole('button', { name: 'Review and trust…' }).click();
  await new TrustPage(page).trustThisFolder();

  // Trusted: the real files, with source badge, path and parse warnings.
  await expect(ext.section('Skills')).toContainText('release-notes');
  await expect(ext.row('release-notes')).toContainText('1 warning');
  await expect(ext.row('frontend/lint')).toContainText('.claude/commands/frontend/lint.md');
  await expect(ext.row('backend/lint')).toBeVisible();
  await expect(ext.row('docs')).toContainText('https://docs.example.invalid/mcp');
  await expect(ext.row('project:typescript')).toContainText('typescript-language-server --stdio');
  const skill = await ext.expand('release-notes');
  await expect(skill).toContainText('contains ": "');
  await skill.getByRole('button', { name: /Show body/ }).click();
  await expect(skill.getByLabel('Body of release-notes')).toContainText('Read the git log since the last tag');

  // Command preview: 0-based arguments, @path inlined, the shell embed listed and not run.
  const expansion = await ext.preview('review', '42 high');
  await expect(expansion).toContainText('Review PR #high with priority $2.');
  await expect(expansion).toContainText('Current branch: !`git branch --show-current`');
  await expect(expansion).toContainText('Prefer small functions.');
  const row = ext.row('review');
  await expect(row).toContainText('written for 1-based arguments');
  await expect(row.locator('.ext-embeds')).toContainText('git branch --show-current');

  // Running needs an explicit confirmation listing the exact command.
  await row.getByRole('button', { name: 'Run shell commands…' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Run 1 shell command?' });
  await expect(dialog).toContainText('git branch --show-current');
  await dialog.getByRole('button', { name: 'Run' }).click();
  await expect(expansion).toContainText('Current branch: main');
  await expect(row.getByLabel('Shell command results')).toContainText('exit 0');
});
