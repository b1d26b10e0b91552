import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Page object for links in agent and rule text and their confirmation dialog (address, host,
 * warning lines, Open / Copy / Cancel), and for the desktop update line in the sidebar footer.
 */
export class LinksPage {
  readonly dialog: Locator;
  readonly address: Locator;
  readonly warnings: Locator;
  readonly openButton: Locator;
  readonly copyButton: Locator;
  readonly cancelButton: Locator;
  readonly updateLine: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog');
    this.address = this.dialog.getByTestId('link-address');
    this.warnings = this.dialog.locator('[data-warning]');
    this.openButton = this.dialog.getByRole('button', { name: /^Open in (browser|mail app)$/ });
    this.copyButton = this.dialog.getByRole('button', { name: 'Copy link' });
    this.cancelButton = this.dialog.getByRole('button', { name: 'Cancel' });
    this.updateLine = page.getByRole('navigation', { name: 'Workspaces' }).locator('.update-notice');
  }

  /** A link in `within` (e.g. the transcript) by its text. */
  link(within: Locator, text: string): Locator {
    return within.getByRole('link', { name: text, exact: true });
  }

  /** Clicks the link and waits for the confirmation. */
  async activate(link: Locator): Promise<void> {
    await link.click();
    await expect(this.dialog).toBeVisible();
  }

  /** The `data-warning` keys shown, in order (`insecure`, `ip-address`, `blocked`, …). */
  async warningKeys(): Promise<string[]> {
    return this.warnings.evaluateAll((els) => els.map((e) => e.getAttribute('data-warning') ?? ''));
  }

  async cancel(): Promise<void> {
    await this.cancelButton.click();
    await expect(this.dialog).toBeHidden();
  }
}
