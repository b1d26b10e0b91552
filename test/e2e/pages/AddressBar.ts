import { expect, type Page } from '@playwright/test';

/** The browser's address as Atrium writes it (state/route.ts): the fragment, reload, Back and Forward. */
export class AddressBar {
  constructor(readonly page: Page) {}

  /** The fragment of the current address, decoded (`#/workspace/…`). */
  hash(): Promise<string> {
    return this.page.evaluate(() => decodeURIComponent(location.hash));
  }

  /** Waits until the fragment matches. */
  async expectHash(pattern: RegExp): Promise<void> {
    await expect.poll(() => this.hash(), { timeout: 15_000 }).toMatch(pattern);
  }

  async reload(): Promise<void> {
    await this.page.reload();
    await expect(this.page.getByText('Atrium', { exact: true })).toBeVisible();
  }

  back(): Promise<unknown> {
    return this.page.goBack();
  }

  forward(): Promise<unknown> {
    return this.page.goForward();
  }

  /** The full address, as a user would copy it from the address bar. */
  url(): string {
    return this.page.url();
  }
}
