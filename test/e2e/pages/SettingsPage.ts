import { expect, type Locator, type Page } from '@playwright/test';

/** Page object for the Settings page (`#/settings`) and the "Open in editor" controls it configures. */
export class SettingsPage {
  readonly view: Locator;

  constructor(readonly page: Page) {
    this.view = page.locator('section.settings-view');
  }

  /** Opens Settings with the keyboard shortcut (Ctrl+,). */
  async openWithShortcut(): Promise<void> {
    await this.page.keyboard.press('Control+Comma');
    await expect(this.page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  }

  /** Opens Settings from the sidebar. */
  async openFromSidebar(): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Workspaces' }).getByRole('button', { name: 'Settings' }).click();
    await expect(this.page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  }

  section(title: string): Locator {
    return this.view.getByRole('region', { name: title });
  }

  /** Chooses the editor "Open in editor" uses (VS Code, Cursor, Zed, System default). */
  async chooseEditor(name: 'VS Code' | 'Cursor' | 'Zed' | 'System default'): Promise<void> {
    const radio = this.section('Editor').getByRole('radio', { name: new RegExp(`^${name}`) });
    await radio.check();
    await expect(radio).toBeChecked();
  }

  /** The "Open in …" controls inside `scope` (links in a browser for VS Code, Cursor and Zed; buttons for the system default). */
  openInEditor(scope: Locator): Locator {
    return scope.locator('.open-in-editor');
  }
}
