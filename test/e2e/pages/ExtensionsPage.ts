import { expect, type Locator, type Page } from '@playwright/test';

/** Page object for the Extensions tab: one section per kind, expandable rows, command preview. */
export class ExtensionsPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.getByRole('tab', { name: 'Extensions' }).click();
    await expect(this.page.getByRole('navigation', { name: 'Extension kinds' })).toBeVisible();
  }

  /** The section of a kind (`Skills`, `Commands`, `Subagents`, `Plugins`, `MCP servers`, `Output styles`, `LSP servers`). */
  section(title: string): Locator {
    return this.page.getByRole('region', { name: new RegExp(`^${title} \\d+( of \\d+)?$`) });
  }

  /** The tab's filter box (over every kind). */
  filter(): Locator {
    return this.page.getByRole('searchbox', { name: 'Filter extensions' });
  }

  /** The filter box's count ("2 of 31 extensions"). */
  filterCount(): Locator {
    return this.page.getByRole('search', { name: 'Filter extensions' }).getByTestId('filter-count');
  }

  /** The source badge ("project", "user", "plugin …") of a row. */
  sourceBadge(id: string): Locator {
    return this.row(id).locator('.ext-source').first();
  }

  /** The row of a resource by id. */
  row(id: string): Locator {
    return this.page.locator(`li.ext-row[data-ext-id="${id}"]`);
  }

  /** The restricted-mode note of the tab. */
  restrictedNote(): Locator {
    return this.page.getByRole('note').filter({ hasText: 'project extensions are inactive' });
  }

  async expand(id: string): Promise<Locator> {
    const row = this.row(id);
    const head = row.locator('.ext-row-head');
    if ((await head.getAttribute('aria-expanded')) !== 'true') await head.click();
    await expect(head).toHaveAttribute('aria-expanded', 'true');
    return row;
  }

  /** Types sample arguments into an expanded command's preview. */
  async preview(id: string, args: string): Promise<Locator> {
    const row = await this.expand(id);
    await row.getByLabel('Sample arguments').fill(args);
    return row.getByTestId('command-expansion');
  }
}
