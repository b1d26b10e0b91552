import { expect, type Locator, type Page } from '@playwright/test';

/** Page object for the global Trusted folders page (`#/trust`) and its Permissions granted section (`#/trust/permissions`). */
export class TrustedFoldersPage {
  readonly entry: Locator;
  readonly heading: Locator;
  readonly decisions: Locator;
  readonly history: Locator;
  readonly grants: Locator;

  constructor(readonly page: Page) {
    this.entry = page.getByRole('navigation', { name: 'Workspaces' }).getByRole('button', { name: 'Trusted folders' });
    this.heading = page.getByRole('main').getByRole('heading', { level: 1, name: 'Trusted folders' });
    this.decisions = page.getByRole('table', { name: 'Trust decisions' });
    this.history = page.getByRole('table', { name: 'All trust history' });
    this.grants = page.getByRole('table', { name: 'Permissions granted' });
  }

  /** Opens the page from the sidebar entry. */
  async open(): Promise<void> {
    await this.entry.click();
    await expect(this.heading).toBeVisible();
  }

  /** Switches to a section ("Folders", "Permissions granted"). */
  async section(name: 'Folders' | 'Permissions granted'): Promise<void> {
    await this.page.getByRole('tablist', { name: 'Trust sections' }).getByRole('tab', { name }).click();
  }

  /** The decision row of a folder (absolute path). */
  decision(folder: string): Locator {
    return this.decisions.locator(`tr[data-path="${folder}"]`);
  }

  /** The grant rows of a session. */
  grantRows(sessionId: string): Locator {
    return this.grants.locator(`tr[data-session-id="${sessionId}"]`);
  }
}
