import type { Locator, Page } from '@playwright/test';

/** Page object for the browser tab's connection to `atrium serve`: the banner and what it disables. */
export class ConnectionPage {
  /** "Lost the connection…" (role status) while the server is unreachable. */
  readonly lost: Locator;
  /** "Atrium restarted with a new token…" / "no valid token" (role alert). */
  readonly refused: Locator;
  /** The sidebar's Add workspace button, as an example of an action. */
  readonly addWorkspace: Locator;

  constructor(readonly page: Page) {
    this.lost = page.locator('.connection-banner[role="status"]');
    this.refused = page.locator('.connection-banner[role="alert"]');
    this.addWorkspace = page.getByRole('navigation', { name: 'Workspaces' }).getByRole('button', { name: 'Add workspace' });
  }
}
