import { expect, type Locator, type Page } from '@playwright/test';

/** Page object for a workspace's Overview tab: the "Needs you" rows with their links, and the counts line. */
export class OverviewPage {
  readonly tab: Locator;
  readonly panel: Locator;
  readonly needsYou: Locator;

  constructor(readonly page: Page) {
    this.tab = page.getByRole('tab', { name: 'Overview' });
    this.panel = page.getByRole('tabpanel', { name: 'Overview' });
    this.needsYou = this.panel.getByRole('list', { name: 'Needs you' });
  }

  async open(): Promise<void> {
    await this.tab.click();
    await expect(this.panel).toBeVisible();
  }

  /** The "Needs you" row containing `text`. */
  row(text: string | RegExp): Locator {
    return this.needsYou.getByRole('listitem').filter({ hasText: text });
  }

  /** Follows a row's link ("Hooks", "Rules", "Sessions", "Review…"). */
  async follow(row: Locator): Promise<void> {
    await row.getByRole('button').click();
  }

  /** "Nothing needs you here: …" (shown when no row is). */
  clear(): Locator {
    return this.panel.getByTestId('needs-you-clear');
  }

  /** "18 instruction files · 3 hooks, 1 MCP server · 2 sessions". */
  counts(): Locator {
    return this.panel.getByTestId('overview-counts');
  }
}
