import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { AtriumPage } from './pages/AtriumPage';
import { SessionsPage } from './pages/SessionsPage';
import { scriptedWorkspace } from './support/scriptedWorkspace';
import { startAtrium, type ServedAtrium } from './support/server';

let server: ServedAtrium | null = null;
test.afterEach(async () => {
  await server?.stop();
  server = null;
});

/** Steps of a long turn: `n` messages, each followed by an edit (so each is its own item); two mention marmalade. */
function longTurn(n: number) {
  const steps: object[] = [];
  for (let i = 0; i < n; i++) {
    steps.push({ text: `Step ${i}: ${i === 5 || i === n - 10 ? 'the Marmalade recipe' : 'routine work'}` });
    steps.push({ toolCall: { id: `e${i}`, title: `Edit file ${i}`, kind: 'edit', status: 'completed' } });
  }
  return steps;
}

function prepare() {
  return scriptedWorkspace('atrium-e2e-find-', {
    turns: [
      {
        match: 'explore',
        steps: [
          { text: 'Let me look around.' },
          { toolCall: { id: 'r1', title: 'Read src/a.ts', kind: 'read', status: 'completed', locations: [{ path: '{{cwd}}/src/a.ts' }] } },
          { toolCall: { id: 'r2', title: 'Read src/b.ts', kind: 'read', status: 'completed', locations: [{ path: '{{cwd}}/src/b.ts' }] } },
          { toolCall: { id: 's1', title: 'Search for TODO', kind: 'search', status: 'completed' } },
          { toolCall: { id: 'r3', title: 'Read src/c.ts', kind: 'read', status: 'completed', locations: [{ path: '{{cwd}}/src/c.ts' }] } },
          { text: 'Found what I needed.' },
          { toolCall: { id: 'w1', title: 'Edit src/a.ts', kind: 'edit', status: 'completed' } },
        ],
      },
      { match: 'long', steps: longTurn(130) },
    ],
  });
}

test.use({ viewport: { width: 1280, height: 800 } });

/** Critical and serious axe-core violations inside `selectors` (the parts this spec adds), as readable lines. */
async function axeViolations(page: Page, selectors: string[]): Promise<string[]> {
  let builder = new AxeBuilder({ page });
  for (const s of selectors) builder = builder.include(s);
  const { violations } = await builder.analyze();
  return violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('runs of read/search tool calls show as one compact row that expands; edits stay cards', async ({ page }) => {
  const { dataDir } = prepare();
  server = await startAtrium(dataDir);
  const atrium = new AtriumPage(page);
  const sessions = new SessionsPage(page);
  await sessions.openWorkspaceSessions(atrium, server.url);
  await sessions.startSession('Scripted agent', 'explore the code');
  await expect(sessions.transcript).toContainText('Found what I needed.');
  const group = sessions.toolGroups();
  await expect(group).toHaveCount(1);
  await expect(group).toHaveAttribute('data-group-size', '4');
  await expect(group.getByRole('button', { name: /Read 3 files · searched 1 time/ })).toHaveAttribute('aria-expanded', 'false');
  await expect(group).toContainText('a.ts, b.ts, Search for TODO, c.ts');
  // the edit is not exploration: it stays a card of its own
  await expect(sessions.items('tool_call')).toHaveCount(1);
  await expect(sessions.items('tool_call')).toContainText('Edit src/a.ts');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: test.info().outputPath(`tool-group-collapsed-${scheme}.png`) });
  }
  expect(await axeViolations(page, ['.sess-group'])).toEqual([]);
  await group.getByRole('button', { name: /Read 3 files/ }).click();
  await expect(group.getByRole('button', { name: /Read 3 files/ })).toHaveAttribute('aria-expanded', 'true');
  await expect(group.locator('.sess-tool')).toHaveCount(4);
  await expect(group.locator('.sess-tool').nth(2)).toContainText('Search for TODO');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: test.info().outputPath(`tool-group-open-${scheme}.png`) });
  }
});

test('find in transcript searches items not loaded yet, counts them and steps between them; earlier items load without moving the view or covering a card', async ({ page }) => {
  test.setTimeout(180_000);
  const { dataDir } = prepare();
  server = await startAtrium(dataDir);
  const atrium = new AtriumPage(page);
  const sessions = new SessionsPage(page);
  await sessions.openWorkspaceSessions(atrium, server.url);
  await sessions.startSession('Scripted agent', 'long transcript please');
  await expect(sessions.transcript).toContainText('Step 129: routine work', { timeout: 60_000 });
  await expect(sessions.state()).toHaveText('idle');
  const id = await sessions.sessionId();

  // older pages can be held back on the wire, to look at the list while they load
  const held = { on: false, frames: [] as Array<() => void>, release() {
    this.on = false;
    for (const f of this.frames.splice(0)) f();
  } };
  const olderRequests = new Set<number>();
  await page.routeWebSocket(() => true, (ws) => {
    const upstream = ws.connectToServer();
    ws.onMessage((m) => {
      const frame = JSON.parse(String(m)) as { id?: number; method?: string; params?: { before?: number } };
      if (frame.method === 'sessions.transcript' && frame.params?.before !== undefined && frame.id !== undefined) olderRequests.add(frame.id);
      upstream.send(m);
    });
    upstream.onMessage((m) => {
      const frame = JSON.parse(String(m)) as { id?: number };
      if (held.on && frame.id !== undefined && olderRequests.has(frame.id)) held.frames.push(() => ws.send(m));
      else ws.send(m);
    });
  });

  // reopened: only the newest page is loaded, so "Step 5" is not in the page yet
  await page.reload();
  await expect(sessions.view).toHaveAttribute('data-session-id', id);
  await expect(sessions.transcript).toContainText('Step 129: routine work');
  await expect(sessions.transcript).not.toContainText('Step 5: the Marmalade recipe');

  // "Load earlier items" is a row of its own: at the top it never covers the first card, and loading keeps what was on screen in place
  const minId = () => sessions.transcript.locator('[data-item-id]').evaluateAll((rows) => Math.min(...rows.map((r) => Number((r as HTMLElement).dataset.itemId))));
  const loadedFrom = await minId();
  held.on = true;
  await sessions.transcript.evaluate((el) => (el.scrollTop = 0));
  await expect(sessions.transcript.locator('.sess-older')).toContainText('Loading earlier items');
  await expect.poll(() => held.frames.length).toBeGreaterThan(0);
  const before = await sessions.transcript.evaluate((el) => {
    const older = el.querySelector('.sess-older')!.getBoundingClientRect();
    const rows = [...el.querySelectorAll<HTMLElement>('.sess-item[data-item-id]')].map((r) => ({ id: r.dataset.itemId!, top: r.getBoundingClientRect().top }));
    rows.sort((a, b) => a.top - b.top);
    return { olderBottom: older.bottom, first: rows[0] };
  });
  expect(before.olderBottom).toBeLessThanOrEqual(before.first.top + 0.5);
  held.release();
  await expect.poll(minId).toBeLessThan(loadedFrom);
  await expect(sessions.transcript.locator('.sess-older')).toHaveCount(0);
  const after = await sessions.item(Number(before.first.id)).evaluate((r) => r.getBoundingClientRect().top);
  expect(Math.abs(after - before.first.top)).toBeLessThanOrEqual(4);

  await page.reload();
  await expect(sessions.transcript).toContainText('Step 129: routine work');
  await sessions.find('marmalade');
  // counted over the whole transcript; it starts at the match nearest the bottom
  await expect(sessions.findCount()).toHaveText('2 of 2');
  await expect(sessions.currentMatch()).toContainText('Step 120: the Marmalade recipe');
  await sessions.findBar().getByRole('searchbox').press('Enter');
  await expect(sessions.findCount()).toHaveText('1 of 2');
  // the first match was not loaded: it is paged in and scrolled into view
  await expect(sessions.currentMatch()).toContainText('Step 5: the Marmalade recipe');
  await expect(sessions.currentMatch()).toBeInViewport();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: test.info().outputPath(`find-in-transcript-${scheme}.png`) });
  }
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await axeViolations(page, ['.sess-find', '.sess-item-current'])).toEqual([]);
  }
  await sessions.findBar().getByRole('searchbox').press('Shift+Enter');
  await expect(sessions.findCount()).toHaveText('2 of 2');
  await expect(sessions.currentMatch()).toContainText('Step 120');
  await expect(sessions.currentMatch()).toBeInViewport();
  await sessions.findBar().getByRole('button', { name: 'Next match' }).click();
  await expect(sessions.findCount()).toHaveText('1 of 2');
  await sessions.findBar().getByRole('searchbox').fill('no such words anywhere');
  await expect(sessions.findCount()).toHaveText('No matches');
  await expect(sessions.findBar().getByRole('button', { name: 'Next match' })).toBeDisabled();
  await sessions.findBar().getByRole('searchbox').press('Escape');
  await expect(sessions.findBar()).toBeHidden();
  await expect(sessions.input).toBeFocused();
});

test('the sessions list has a filter box with a match count and an empty state that clears it', async ({ page }) => {
  const { dataDir } = prepare();
  server = await startAtrium(dataDir);
  const atrium = new AtriumPage(page);
  const sessions = new SessionsPage(page);
  await sessions.openWorkspaceSessions(atrium, server.url);
  await sessions.startSession('Scripted agent', 'explore the code', { title: 'Explore the code' });
  await expect(sessions.transcript).toContainText('Found what I needed.');
  await sessions.openWorkspaceSessions(atrium, server.url);
  await sessions.startSession('Scripted agent', 'write the changelog', { title: 'Write the changelog' });
  await expect(sessions.transcript).toContainText('write the changelog');

  await sessions.sidebarEntry.click();
  const list = page.getByRole('list', { name: 'All sessions' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await sessions.sessionFilter().fill('changelog');
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list).toContainText('Write the changelog');
  await expect(page.getByRole('search', { name: 'Filter All sessions' }).getByRole('status')).toHaveText('1 of 2');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: test.info().outputPath(`sessions-filter-${scheme}.png`) });
    expect(await axeViolations(page, ['.sess-filter'])).toEqual([]);
  }
  await sessions.sessionFilter().fill('scripted EXPLORE');
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list).toContainText('Explore the code');
  await sessions.sessionFilter().fill('nothing like this');
  await expect(list.getByRole('listitem')).toHaveCount(0);
  await expect(page.getByText('No session matches “nothing like this”')).toBeVisible();
  await page.getByRole('button', { name: 'Clear the filter' }).click();
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(sessions.sessionFilter()).toHaveValue('');
  // the same keys as every other list filter: / (outside a text field) focuses it
  await list.getByRole('listitem').first().getByRole('button').focus();
  await page.keyboard.press('/');
  await expect(sessions.sessionFilter()).toBeFocused();

  // the workspace's Sessions tab filters the same way
  await atrium.workspaceItem('project').click();
  await sessions.openTab();
  await sessions.sessionFilter().fill('changelog');
  await expect(page.getByRole('list', { name: 'Sessions in project' }).getByRole('listitem')).toHaveCount(1);
});
