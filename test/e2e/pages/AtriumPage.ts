import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Page object for the Atrium shell (tldraw-style): tests say what a user does ("add a workspace"),
 * this class knows which control does it. Capabilities add their own page objects beside it.
 */
export class AtriumPage {
  readonly sidebar: Locator;
  readonly workspaceItems: Locator;
  readonly main: Locator;

  constructor(readonly page: Page) {
    this.sidebar = page.getByRole('navigation', { name: 'Workspaces' });
    this.workspaceItems = this.sidebar.getByRole('option');
    this.main = page.getByRole('main');
  }

  async open(url: string): Promise<void> {
    await this.page.goto(url);
    await expect(this.page.getByText('Atrium', { exact: true })).toBeVisible();
  }

  workspaceItem(name: string): Locator {
    return this.sidebar.getByRole('option', { name: new RegExp(name) });
  }

  /** Adds a workspace by typing its path in the Add dialog (browser mode has no native picker). */
  async addWorkspace(folder: string): Promise<void> {
    await this.sidebar.getByRole('button', { name: 'Add workspace' }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Add a workspace' });
    await dialog.getByLabel('Folder path').fill(folder);
    await dialog.getByRole('button', { name: 'Add workspace' }).click();
  }

  addDialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Add a workspace' });
  }

  /** The folder completions the Add dialog offers for what is typed (its datalist's values). */
  async folderCompletions(): Promise<string[]> {
    return this.addDialog()
      .getByTestId('folder-completions')
      .locator('option')
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  }

  /** A "Recent folders" button of the Add dialog (the folder a recent workspace lives in). */
  recentFolder(label: string): Locator {
    return this.addDialog().getByRole('group', { name: 'Recent folders' }).getByRole('button', { name: label, exact: true });
  }

  async renameSelected(name: string): Promise<void> {
    await this.main.getByRole('button', { name: 'Rename' }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Rename workspace' });
    await dialog.getByLabel('Display name').fill(name);
    await dialog.getByRole('button', { name: 'Rename' }).click();
  }

  async removeSelected(): Promise<void> {
    await this.main.getByRole('button', { name: 'Remove' }).click();
    await this.page.getByRole('alertdialog').getByRole('button', { name: 'Remove from Atrium' }).click();
  }

  /** The selected workspace's "The folder is missing" banner, with its Locate… button. */
  missingBanner(): Locator {
    return this.main.getByRole('status', { name: 'Folder missing' });
  }

  /** Points the selected (missing) workspace at `folder` through Locate… in its banner. */
  async locateSelected(folder: string): Promise<void> {
    await this.missingBanner().getByRole('button', { name: 'Locate…' }).click();
    const dialog = this.page.getByRole('dialog', { name: /^Locate / });
    await dialog.getByLabel('New folder path').fill(folder);
    await dialog.getByRole('button', { name: 'Use this folder' }).click();
    await expect(dialog).toBeHidden();
  }

  heading(): Locator {
    return this.main.getByRole('heading', { level: 1 });
  }
}
