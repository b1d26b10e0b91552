import { expect, type Locator, type Page } from '@playwright/test';

/** Page object for the Hooks tab: hook cards by their literal command, approve/revoke, the diff of a modified hook. */
export class HooksPage {
  readonly tab: Locator;
  readonly panel: Locator;

  constructor(readonly page: Page) {
    this.tab = page.getByRole('tab', { name: /^Hooks/ });
    this.panel = page.getByRole('tabpanel', { name: /^Hooks/ });
  }

  async open(): Promise<void> {
    await this.tab.click();
    await expect(this.panel).toBeVisible();
  }

  /** The card of the hook whose literal command contains `text`. */
  card(text: string): Locator {
    return this.panel.locator('article.hook-card').filter({ has: this.page.getByLabel('Literal command').filter({ hasText: text }) });
  }

  /** The state badge of a card (`approved`, `modified`, `unapproved`, ...) as its data attribute. */
  state(card: Locator): Locator {
    return card.locator('[data-hook-state]').first();
  }

  async approve(card: Locator): Promise<void> {
    await card.getByRole('button', { name: /^Approve/ }).click();
  }

  /** The diff block of a modified card. */
  diff(card: Locator): Locator {
    return card.getByTestId('hook-diff');
  }

  /** The http hook host allowlist section. */
  httpHosts(): Locator {
    return this.panel.getByRole('region', { name: 'http hook hosts' });
  }

  /** The badge on the tab that counts modified hooks. */
  tabBadge(): Locator {
    return this.tab.getByTestId('hooks-tab-badge');
  }
}
