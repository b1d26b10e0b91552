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

test('a prompt sent in the browser to a session a terminal runs says where it runs and what to do', async ({ page }) => {
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

  server = await startAtrium(dataDir);
  const atrium = new AtriumPage(page);
  const sessions = new SessionsPage(page);
  await atrium.open(server.url);
  await page.evaluate((id) => (location.hash = `#/sessions/${id}`), sessionId);
  await expect(sessions.view).toBeVisible();
  await sessions.send('from the browser');
  await expect(page.getByText(new RegExp(`Could not send the prompt: Session ${sessionId} is running in a terminal: atrium session … \\(pid ${terminal.pid}\\)`))).toBeVisible();
  await expect(page.getByText('Only the process that runs a session may change it.', { exact: false })).toBeVisible();
  // the terminal's turn went on: nothing was queued from the browser
  expect(out).not.toContain('from the browser');
});
