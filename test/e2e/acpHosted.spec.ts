import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { expect, test } from '@playwright/test';
import { repoRoot } from '../support/corpus';
import { AtriumPage } from './pages/AtriumPage';
import { SessionsPage } from './pages/SessionsPage';
import { scriptedWorkspace } from './support/scriptedWorkspace';
import { startAtrium, type ServedAtrium } from './support/server';

let server: ServedAtrium | null = null;
let editorProcess: ChildProcess | null = null;
test.afterEach(async () => {
  const child = editorProcess;
  if (child && child.exitCode === null && child.signalCode === null) {
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
  editorProcess = null;
  await server?.stop();
  server = null;
});

const BIN = path.join(repoRoot, 'bin/atrium.js');

test('a session an editor runs through atrium acp is shown live and read-only, naming the editor, until the editor lets go', async ({ page }) => {
  const { dataDir, ws } = scriptedWorkspace('atrium-e2e-acp-', { turns: [{ match: '^hello', steps: [{ text: 'Hello back, from the agent behind Atrium.' }] }] });

  // the editor: the ACP SDK's client side over the stdio of the built `atrium acp`
  const child = spawn(process.execPath, [BIN, 'acp', '--agent', 'scripted', '--data-dir', dataDir], { cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe'] });
  editorProcess = child;
  const conn = acp
    .client({ name: 'e2e-editor' })
    .onNotification(acp.methods.client.session.update, () => undefined)
    .onRequest(acp.methods.client.session.requestPermission, () => ({ outcome: { outcome: 'cancelled' } }))
    .connect(acp.ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>));
  await conn.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {}, clientInfo: { name: 'e2e-editor', version: '1.0.0' } });
  const { sessionId } = await conn.agent.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
  expect((await conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'hello from the editor' }] })).stopReason).toBe('end_turn');

  server = await startAtrium(dataDir);
  const atrium = new AtriumPage(page);
  const sessions = new SessionsPage(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await atrium.open(server.url);
  await page.evaluate((id) => (location.hash = `#/sessions/${id}`), sessionId);
  await expect(sessions.view).toBeVisible();

  const banner = sessions.view.locator('.sess-banner-hosted');
  await expect(banner).toContainText(`Runs in an editor (atrium acp, pid ${child.pid}). Shown here as it is saved; to prompt, stop or answer it, use that editor — or wait until it ends.`);
  await expect(banner).toHaveAttribute('data-host-kind', 'acp');
  await expect(sessions.input).toBeDisabled();
  await expect(sessions.items('agent_message')).toContainText(['Hello back, from the agent behind Atrium.']);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: test.info().outputPath(`acp-hosted-session-${scheme}.png`) });
  }

  // the editor closes the connection: its agent stops, and this view may drive the session again
  child.stdin!.end();
  await expect(banner).toBeHidden({ timeout: 20_000 });
  await expect(sessions.input).toBeEnabled();
});
