import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { AtriumPage } from './pages/AtriumPage';
import { ExtensionsPage } from './pages/ExtensionsPage';
import { TrustPage } from './pages/TrustPage';
import { startAtrium, type ServedAtrium } from './support/server';
import { KITCHEN_SINK } from './support/workspaces';

let server: ServedAtrium | null = null;
test.afterEach(async () => {
  await server?.stop();
  server = null;
});

for (const source of KITCHEN_SINK) {
  test(`Extensions tab (${source.name}): restricted mode, then the skills, commands, MCP and LSP servers; a command preview; embeds run only after confirmation`, async ({ page }) => {
    test.skip(source.skipReason !== null, source.skipReason ?? '');
    const folder = source.make();
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
}

test('Extensions tab: user and local MCP servers from ~/.claude.json, an installed plugin, nested skills, skill arguments and hooks; the review names them alike', async ({ page }) => {
  const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-e2e-home-')));
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-e2e-ws-')));
  const write = (base: string, files: Record<string, string>) => {
    for (const [rel, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(base, rel)), { recursive: true });
      fs.writeFileSync(path.join(base, rel), text);
    }
  };
  const installPath = path.join(home, '.claude/plugins/cache/mkt/inst/1.2.0');
  write(home, {
    '.claude.json': JSON.stringify({ mcpServers: { userwide: { command: 'user-server', env: { API_TOKEN: 'sk-live-abcdef123456', LOG_LEVEL: 'debug' } } }, projects: { [folder]: { mcpServers: { mine: { command: 'mine-server', args: ['--here'] } } } } }),
    '.claude/plugins/installed_plugins.json': JSON.stringify({ version: 2, plugins: { 'inst@mkt': [{ scope: 'user', installPath, version: '1.2.0' }] } }),
    '.claude/plugins/cache/mkt/inst/1.2.0/.claude-plugin/plugin.json': JSON.stringify({ name: 'inst', version: '1.2.0' }),
    '.claude/plugins/cache/mkt/inst/1.2.0/commands/hello.md': 'Hello from an installed plugin',
    '.claude/settings.json': JSON.stringify({ enabledPlugins: { 'inst@mkt': true } }),
  });
  write(folder, {
    '.claude/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: Deploy the app\narguments: env region\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: ./notify.sh\n---\nDeploy to $env.\n',
    'apps/web/.claude/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: Deploy the web app\n---\nWeb.\n',
    '.claude/commands/frontend/x.md': 'Frontend x',
    '.claude/plugins/alpha/.claude-plugin/plugin.json': JSON.stringify({ name: 'alpha' }),
    '.claude/plugins/alpha/commands/x.md': 'Alpha x',
  });
  server = await startAtrium(undefined, { HOME: home, USERPROFILE: home });
  const atrium = new AtriumPage(page);
  const ext = new ExtensionsPage(page);
  await atrium.open(server.url);
  await atrium.addWorkspace(folder);
  await ext.open();

  // Restricted: your own ~/.claude.json servers and installed plugin are active, with their badges.
  await expect(ext.row('mine')).toContainText('local');
  await expect(ext.row('mine')).toContainText('~/.claude.json');
  await expect(ext.row('mine')).toContainText('mine-server --here');
  await expect(ext.row('userwide').locator('.ext-source')).toHaveText('user');
  await expect(ext.row('plugin:inst')).toContainText('installed');
  await expect(ext.row('plugin:inst:hello')).toBeVisible();
  // where the plugin comes from and who turned it on are two differently worded badges
  await expect(ext.row('plugin:inst').locator('.ext-source')).toHaveText('from user');
  await expect(ext.row('plugin:inst').locator('.ext-enabled')).toHaveText('on for: me everywhere');
  // one "NAME = value" row per env variable, the secret masked
  const env = (await ext.expand('userwide')).getByRole('list', { name: 'Environment variables' }).getByRole('listitem');
  await expect(env).toHaveText([/^API_TOKEN = \S+$/, /^LOG_LEVEL = \S+$/]);
  await expect(env.first()).not.toContainText('sk-live');
  await expect(ext.restrictedNote()).toContainText('Trusting would activate 2 skills, 2 commands, 1 plugin');

  // The review lists the project's extensions under the names the tab will use.
  await ext.restrictedNote().getByRole('button', { name: 'Review and trust…' }).click();
  const trust = new TrustPage(page);
  await expect(trust.reviewGroup('Skills')).toContainText('apps/web:deploy');
  await expect(trust.reviewGroup('Custom commands')).toContainText('/plugin:alpha:x');
  await expect(trust.reviewGroup('Hooks')).toContainText('./notify.sh');
  await trust.trustThisFolder();

  // Trusted: the nested skill with its qualified id, the skill's arguments and hooks.
  await expect(ext.row('apps/web:deploy')).toContainText('apps/web/.claude/skills/deploy/SKILL.md');
  await expect(ext.row('deploy')).toContainText('1 hook');
  const skill = await ext.expand('deploy');
  await expect(skill).toContainText('$env');
  await expect(skill).toContainText('$region');
  await expect(skill).toContainText('not run by Atrium and not on the Hooks tab');
  await expect(ext.row('plugin:alpha:x')).toBeVisible();
  await expect(ext.row('plugin:alpha').locator('.ext-source')).toHaveText('from project');
  await expect(ext.row('plugin:alpha').locator('.ext-enabled')).toHaveText('on (default)');
});

test('Extensions tab: a command hint YAML reads as a list holding a mapping shows as written, with the quoting fix, never [object Object]', async ({ page }) => {
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-e2e-ws-')));
  fs.mkdirSync(path.join(folder, '.claude/commands'), { recursive: true });
  fs.writeFileSync(path.join(folder, '.claude/commands/research.md'), '---\ndescription: Research a topic\nargument-hint: [topic: foo | bar]\nmodel: [fast, deep]\n---\nResearch $ARGUMENTS.\n');
  server = await startAtrium();
  const atrium = new AtriumPage(page);
  const ext = new ExtensionsPage(page);
  await atrium.open(server.url);
  await atrium.addWorkspace(folder);
  await ext.open();
  await ext.restrictedNote().getByRole('button', { name: 'Review and trust…' }).click();
  await new TrustPage(page).trustThisFolder();

  await expect(ext.row('research')).toContainText('2 warnings');
  const row = await ext.expand('research');
  const frontmatter = row.getByRole('list', { name: 'Frontmatter' }).or(row.getByLabel('Frontmatter'));
  await expect(frontmatter).toContainText('[topic: foo | bar]');
  await expect(frontmatter).toContainText('[fast, deep]');
  await expect(frontmatter).not.toContainText('[object Object]');
  await expect(frontmatter).not.toContainText('{"topic"');
  await expect(row).toContainText('Quote the value: argument-hint: "[topic: foo | bar]"');
});
