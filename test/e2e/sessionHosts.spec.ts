import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from '@playwright/test';
import { repoRoot } from '../support/corpus';
import { AtriumPage } from './pages/AtriumPage';
import { SessionsPage } from './pages/SessionsPage';
import { startAtrium, type ServedAtrium } from './support/server';

let server: ServedAtrium | null = null;
let terminal: ChildProcess | null = null;
test.afterEach(async () => {
  if (terminal && terminal.exitCode === null) {
    const t = terminal;
    await new Promise<void>((resolve) => {
      t.once('exit', () => resolve());
      t.kill('SIGINT');
    });
  }
  terminal = null;
  await server?.stop();
  server = null;
});

const BIN = path.join(repoRoot, 'bin/atrium.js');

test('a session a terminal runs is followed live in the browser, says where it runs, and cannot be driven from here until it ends', async ({ page }) => {
  const base = mkdtempSync(path.join(os.tmpdir(), 'atrium-e2e-hosts-'));
  const dataDir = path.join(base, 'data');
  const ws = path.join(base, 'project');
  mkdirSync(ws);
  const cli = (...args: string[]) => execFileSync(process.execPath, [BIN, ...args, '--data-dir', dataDir], { cwd: repoRoot, encoding: 'utf8' });
  cli('workspace', 'add', ws, '--name', 'project');
  const loader = pathToFileURL(path.join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;
  const agent = path.join(repoRoot, 'test/fixtures/agents/scripted-agent.ts');
  const scenario = path.join(repoRoot, 'test/fixtures/agents/scenarios/ui-tour.json');
  execFileSync(process.execPath, [BIN, 'agents', 'define', 'scripted', process.execPath, '--name', 'Scripted agent', '--data-dir', dataDir, '--', '--import', loader, agent, '--scenario', scenario, '--state', path.join(base, 'state.json')], { cwd: repoRoot });

  // a terminal runs a long turn of the session
  terminal = spawn(process.execPath, [BIN, 'session', 'new', ws, '--agent', 'scripted', '--prompt', 'a long job', '--json', '--data-dir', dataDir], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  terminal.stdout!.on('data', (d) => (out += String(d)));
  await expect.poll(() => /"sessionId":"([^"]+)"[^\n]*tick/.exec(out)?.[1] ?? null, { timeout: 30_000 }).not.toBeNull();
  const sessionId = /"sessionId":"([^"]+)"/.exec(out)![1];
  const pid = terminal.pid!;

  server = await startAtrium(dataDir);
  const atrium = new AtriumPage(page);
  const sessions = new SessionsPage(page);
  await atrium.open(server.url);
  await page.evaluate((id) => (location.hash = `#/sessions/${id}`), sessionId);
  await expect(sessions.view).toBeVisible();

  // where it runs, calmly, and why nothing here drives it
  const banner = sessions.view.locator('.sess-banner-hosted');
  await expect(banner).toBeVisible();
  await expect(banner).toContainText(`Runs in a terminal (an atrium session command, pid ${pid}). Shown here as it is saved; to prompt, stop or answer it, use that terminal — or wait until it ends.`);
  const prompt = sessions.input;
  await expect(prompt).toBeDisabled();
  await expect(prompt).toHaveAttribute('title', /Runs in a terminal/);
  await expect(sessions.button(/^Close$/)).toBeDisabled();

  // the transcript follows the terminal's stream without a reload
  const ticks = async () => ((await sessions.items('agent_message').allTextContents()).join('').match(/tick/g) ?? []).length;
  const seen = await ticks();
  await expect.poll(ticks, { timeout: 15_000 }).toBeGreaterThan(seen + 3);
  // the terminal was not disturbed
  expect(out).not.toContain('SESSION_HOSTED_ELSEWHERE');

  // when the terminal ends (Ctrl+C), the view shows the final state and may drive the session again
  const t = terminal;
  await new Promise<void>((resolve) => {
    t.once('exit', () => resolve());
    t.kill('SIGINT');
  });
  await expect(banner).toBeHidden({ timeout: 15_000 });
  await expect(prompt).toBeEnabled();
});
