import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { AddressBar } from './pages/AddressBar';
import { AtriumPage } from './pages/AtriumPage';
import { HooksPage } from './pages/HooksPage';
import { RulesPage } from './pages/RulesPage';
import { SessionsPage } from './pages/SessionsPage';
import { SettingsPage } from './pages/SettingsPage';
import { atriumCli, scriptedWorkspace } from './support/scriptedWorkspace';
import { startAtrium, type ServedAtrium } from './support/server';

let server: ServedAtrium | null = null;
test.afterEach(async () => {
  await server?.stop();
  server = null;
});

test.use({ viewport: { width: 1280, height: 800 } });

test('Settings chooses the editor once; Open in editor opens rule files, hook files and diff paths with it, and an error toast reads as Markdown', async ({ page }) => {
  const made = scriptedWorkspace('atrium-e2e-editor-', {
    turns: [
      {
        match: 'edit',
        steps: [
          { toolCall: { id: 't1', title: 'Edit notes', kind: 'edit', status: 'completed', content: [{ type: 'diff', path: '/nonexistent-atrium/notes.md', oldText: 'a\n', newText: 'b\n' }] } },
          { text: 'Edited.' },
        ],
      },
    ],
  });
  fs.writeFileSync(path.join(made.ws, 'AGENTS.md'), '# Rules\n');
  fs.mkdirSync(path.join(made.ws, '.claude'));
  fs.writeFileSync(path.join(made.ws, '.claude/settings.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo editor-hook' }] }] } }));
  atriumCli(made.dataDir, ['trust', 'set', made.ws, 'trusted']);
  // the system default on Linux is xdg-open on the folder: a stand-in records what it was given
  const bin = path.join(made.base, 'bin');
  const record = path.join(made.base, 'opened.txt');
  fs.mkdirSync(bin);
  fs.writeFileSync(path.join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$@" >> '${record}'\n`, { mode: 0o755 });
  server = await startAtrium(made.dataDir, { PATH: `${bin}${path.delimiter}${process.env.PATH}` });

  const atrium = new AtriumPage(page);
  const settings = new SettingsPage(page);
  const rules = new RulesPage(page);
  const hooks = new HooksPage(page);
  const address = new AddressBar(page);
  await atrium.open(server.url);
  await atrium.workspaceItem('project').click();

  // the shortcut opens Settings, which has an address
  await settings.openWithShortcut();
  await address.expectHash(/^#\/settings$/);
  await expect(settings.section('Editor')).toContainText('Until you choose, it uses the system default.');
  // what applies is what is shown: the system default is the checked choice before any is made
  await expect(settings.section('Editor').getByRole('radio', { name: /^System default/ })).toBeChecked();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: test.info().outputPath(`settings-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await settings.chooseEditor('System default');

  // a rule file opens with the system default: Atrium starts xdg-open with the file's folder
  await atrium.workspaceItem('project').click();
  await rules.open();
  await rules.file('AGENTS.md').click();
  await settings.openInEditor(rules.detail).click();
  await expect.poll(() => (fs.existsSync(record) ? fs.readFileSync(record, 'utf8') : ''), { timeout: 15_000 }).toBe(`${fs.realpathSync(made.ws)}\n`);

  // VS Code and Zed open through their links in a browser tab; the choice holds after a reload
  await settings.openFromSidebar();
  await settings.chooseEditor('VS Code');
  await address.reload();
  await expect(settings.section('Editor').getByRole('radio', { name: /^VS Code/ })).toBeChecked();
  await atrium.workspaceItem('project').click();
  await rules.open();
  await rules.file('AGENTS.md').click();
  await expect(settings.openInEditor(rules.detail)).toHaveAttribute('href', `vscode://file${fs.realpathSync(made.ws)}/AGENTS.md`);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: test.info().outputPath(`rule-open-in-editor-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await hooks.open();
  const hookFile = settings.openInEditor(hooks.card('echo editor-hook'));
  await expect(hookFile).toHaveAttribute('href', new RegExp(`^vscode://file${fs.realpathSync(made.ws)}/\\.claude/settings\\.json:\\d+$`));
  await settings.openFromSidebar();
  await settings.chooseEditor('Zed');
  await atrium.workspaceItem('project').click();
  await hooks.open();
  await expect(settings.openInEditor(hooks.card('echo editor-hook'))).toHaveAttribute('href', /^zed:\/\/file\//);
  await page.screenshot({ path: test.info().outputPath('hooks-open-in-editor.png') });

  // a diff path in a session: the system default is asked for a path that does not exist, and the error toast shows the path as code
  await settings.openFromSidebar();
  await settings.chooseEditor('System default');
  const sessions = new SessionsPage(page);
  await atrium.workspaceItem('project').click();
  await sessions.openTab();
  await sessions.startSession('Scripted agent', 'edit the notes');
  await expect(sessions.transcript).toContainText('Edited.');
  const diff = sessions.transcript.locator('figure.sess-diff').filter({ hasText: '/nonexistent-atrium/notes.md' });
  await diff.locator('.open-in-editor').click();
  const toast = page.getByTestId('error-toast');
  await expect(toast).toContainText('does not exist (any more)');
  await expect(toast.locator('code')).toHaveText('/nonexistent-atrium/notes.md');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: test.info().outputPath(`error-toast-markdown-${scheme}.png`) });
  }
});
