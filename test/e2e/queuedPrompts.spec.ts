import { expect, test } from '@playwright/test';
import { AtriumPage } from './pages/AtriumPage';
import { SessionsPage } from './pages/SessionsPage';
import { scriptedWorkspace } from './support/scriptedWorkspace';
import { startAtrium, type ServedAtrium } from './support/server';

let server: ServedAtrium | null = null;
test.afterEach(async () => {
  await server?.stop();
  server = null;
});

/** A workspace and the scripted agent whose first turn streams slowly, leaving time to queue a prompt. */
function prepare() {
  return scriptedWorkspace('atrium-e2e-queue-', {
    turns: [
      { match: 'first', steps: [{ text: 'Working on the first request' }, { sleep: 6000 }, { text: ' — Done with the first.' }] },
      { match: 'second', steps: [{ text: 'Answer to the second.' }] },
    ],
  });
}

test.use({ viewport: { width: 1280, height: 800 } });

test('a prompt sent during a turn waits in the queue strip and enters the transcript after that turn, live and after a reload', async ({ page }) => {
  const { dataDir } = prepare();
  server = await startAtrium(dataDir);
  const atrium = new AtriumPage(page);
  const sessions = new SessionsPage(page);
  await sessions.openWorkspaceSessions(atrium, server.url);
  await sessions.startSession('Scripted agent', 'first request');
  await expect(sessions.transcript).toContainText('Working on the first request');

  await sessions.send('second request');
  // waiting: in the queue strip only, not in the transcript above the rest of the running turn
  await expect(sessions.queue).toContainText('second request');
  await expect(sessions.transcript).not.toContainText('second request');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: test.info().outputPath(`queue-waiting-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });

  await expect(sessions.transcript).toContainText('Answer to the second.');
  await expect(sessions.queue).toBeHidden();
  const order = async () =>
    sessions.transcript.locator('.sess-item[data-kind="user_message"], .sess-item[data-kind="agent_message"]').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-kind')}: ${(e.textContent ?? '').replace(/\s+/g, ' ').trim()}`));
  const expected = [/^user_message: .*first request/, /^agent_message: .*Working on the first request — Done with the first\./, /^user_message: .*second request/, /^agent_message: .*Answer to the second\./];
  const check = async () => {
    const got = await order();
    expect(got).toHaveLength(expected.length);
    got.forEach((line, i) => expect(line).toMatch(expected[i]));
  };
  await check();
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: test.info().outputPath(`queue-done-dark.png`) });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.screenshot({ path: test.info().outputPath(`queue-done-light.png`) });

  // the stored transcript has the same order
  await page.reload();
  await expect(sessions.transcript).toContainText('Answer to the second.');
  await check();
});
