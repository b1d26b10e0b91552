import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Page object for the Hooks tab: hook and MCP cards, approve/revoke (through the confirmation when
 * one is asked), what a digest does not cover, the diff of a modified hook, the Approve all dialog.
 */
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

  /** The filter box over the hooks and MCP servers. */
  filter(): Locator {
    return this.panel.getByRole('searchbox', { name: 'Filter hooks and MCP servers' });
  }

  /** The filter box's count ("2 of 14 hooks and servers"). */
  filterCount(): Locator {
    return this.panel.getByRole('search', { name: 'Filter hooks and MCP servers' }).getByTestId('filter-count');
  }

  /** Every hook card shown (not the MCP server cards). */
  cards(): Locator {
    return this.panel.locator('article.hook-card[data-hook-id]');
  }

  /** Every MCP server card shown. */
  mcpCards(): Locator {
    return this.panel.locator('article.hook-card[data-mcp-id]');
  }

  /** The card of the MCP server named `name`. */
  mcpCard(name: string): Locator {
    return this.panel.getByRole('article', { name: `MCP server ${name}`, exact: true });
  }

  /** An MCP card's "Variables it reads" block: the references as written, the masked expansion, or why it is withheld. */
  expansion(card: Locator): Locator {
    return card.getByRole('region', { name: 'Variables it reads' });
  }

  /** The command line or URL an MCP card's server expands to. */
  expandedCommand(card: Locator): Locator {
    return card.getByLabel('Expanded command');
  }

  /** A card's "Not covered by the digest:" block. */
  uncovered(card: Locator): Locator {
    return card.getByRole('group', { name: 'Not covered by the digest' });
  }

  /** The card's own Approve button (it may open the confirmation). */
  approveButton(card: Locator): Locator {
    return card.getByRole('button', { name: /^Approve/ });
  }

  /** The confirmation asked before approving one item with danger highlights or uncovered parts. */
  confirmDialog(): Locator {
    return this.page.getByRole('alertdialog', { name: /^Approve (code the digest does not cover|an? (hook|MCP server) with danger highlights)\?$/ });
  }

  /** The acknowledgement checkbox of the single-item confirmation. */
  acknowledgement(): Locator {
    return this.confirmDialog().getByRole('checkbox', { name: 'I understand Atrium cannot check this code' });
  }

  /**
   * Approves as a user would: clicks Approve and, when the card shows danger highlights or parts
   * the digest does not cover, confirms in the dialog (ticking the acknowledgement when asked).
   */
  async approve(card: Locator): Promise<void> {
    const flagged = (await card.getByRole('list', { name: 'Danger highlights' }).count()) + (await this.uncovered(card).count());
    await this.approveButton(card).click();
    if (!flagged) return;
    const dialog = this.confirmDialog();
    await expect(dialog).toBeVisible();
    if (await this.acknowledgement().count()) await this.acknowledgement().check();
    await dialog.getByRole('button', { name: /^Approve/ }).click();
    await expect(dialog).toBeHidden();
  }

  /** The toolbar's "Approve all shown…" button (no count: the dialog says how many it approves and why others are left out). */
  approveAllButton(): Locator {
    return this.panel.getByRole('button', { name: /^Approve all shown/ });
  }

  /** The Approve all dialog, titled "Approve N shown items?" or "Approve N of M shown items?". */
  approveAllDialog(): Locator {
    return this.page.getByRole('alertdialog', { name: /^Approve (\d+ of )?\d+ shown items?\?$/ });
  }

  /** The Approve all dialog's title. */
  approveAllTitle(): Locator {
    return this.approveAllDialog().locator('.dialog-title');
  }

  /** The Approve all dialog's confirm button ("Approve N"). */
  approveAllConfirm(): Locator {
    return this.approveAllDialog().getByRole('button', { name: /^Approve \d+$/ });
  }

  /** The Approve all dialog's line under the title saying how many are left out and why ("4 left out: 3 not covered by the digest …"). */
  approveAllLeftOut(): Locator {
    return this.approveAllDialog().getByTestId('left-out-reasons');
  }

  /** The checkbox that includes an Approve all item (its own tick, or the acknowledgement of an uncovered one). */
  approveAllCheckbox(item: Locator): Locator {
    return item.getByRole('checkbox');
  }

  /** An item of the Approve all dialog, by the start of its label (`Stop hook: echo x`, `MCP server tools`). */
  approveAllItem(label: string): Locator {
    return this.approveAllDialog().getByRole('listitem', { name: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) });
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
