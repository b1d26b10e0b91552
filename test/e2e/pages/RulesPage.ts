import { expect, type Locator, type Page } from '@playwright/test';

/** Page object for the Rules tab: file list, detail pane, Test a path, lint. */
export class RulesPage {
  readonly fileList: Locator;
  readonly detail: Locator;
  readonly explanation: Locator;

  constructor(readonly page: Page) {
    this.fileList = page.getByRole('listbox', { name: 'Rule files' });
    this.detail = page.locator('article.rule-detail');
    this.explanation = page.getByRole('region', { name: 'Explanation' });
  }

  async open(): Promise<void> {
    await this.page.getByRole('tab', { name: 'Rules' }).click();
    await expect(this.page.getByRole('tablist', { name: 'Rules view' })).toBeVisible();
  }

  view(name: 'Files' | 'Test a path' | 'Lint'): Locator {
    return this.page.getByRole('tablist', { name: 'Rules view' }).getByRole('tab', { name: new RegExp(`^${name}`) });
  }

  file(path: string): Locator {
    return this.fileList.locator(`[data-rule-path="${path}"]`);
  }

  async testPath(path: string, agent?: string): Promise<void> {
    await this.view('Test a path').click();
    await this.page.getByLabel('Test a path').fill(path);
    if (agent) await this.page.getByLabel('Agent view').selectOption({ label: agent });
    await this.page.getByRole('button', { name: 'Explain' }).click();
  }
}
