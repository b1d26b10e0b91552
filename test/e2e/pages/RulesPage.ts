import { expect, type Locator, type Page } from '@playwright/test';

/** Page object for the Rules tab: file list, detail pane, Test a path, lint. */
export class RulesPage {
  readonly fileList: Locator;
  readonly detail: Locator;
  readonly explanation: Locator;
  readonly agentView: Locator;
  /** Every notice and warning line of the workspace view (restricted banner, tab notes, catalog warnings). */
  readonly notices: Locator;
  /** The error shown at the "Session starts in" field. */
  readonly startFolderError: Locator;
  /** "Also present, read by other tools, …". */
  readonly otherTools: Locator;

  constructor(readonly page: Page) {
    this.fileList = page.getByRole('listbox', { name: 'Rule files' });
    this.detail = page.locator('article.rule-detail');
    this.explanation = page.getByRole('region', { name: 'Explanation' });
    this.agentView = page.getByRole('region', { name: 'Agent view' });
    this.notices = page.locator('.workspace-view').locator('.banner, .warning-line');
    this.startFolderError = page.locator('.test-path').getByRole('alert');
    this.otherTools = page.getByLabel('Files read by other tools');
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

  /** The Files view's filter box. */
  filter(): Locator {
    return this.page.getByRole('searchbox', { name: 'Filter rule files' });
  }

  /** The filter box's count ("3 of 16 files"). */
  filterCount(): Locator {
    return this.page.getByRole('search', { name: 'Filter rule files' }).getByTestId('filter-count');
  }

  /** Paths of the rule files the list shows, in order. */
  listedPaths(): Promise<string[]> {
    return this.fileList.locator('[data-rule-path]').evaluateAll((els) => els.map((el) => el.getAttribute('data-rule-path') ?? ''));
  }

  /** The detail pane's "Applies" value for a file that was not read, saying why. */
  notReadReason(): Locator {
    return this.detail.getByTestId('not-read-reason');
  }

  /** The Lint view's headings ("9 problems (…)", "3 notes …"). */
  lintHeadings(): Locator {
    return this.page.locator('.lint-list .lint-heading');
  }

  /** The "N warnings" / "N errors" badge of a file in the list. */
  problems(path: string, severity: 'warning' | 'error' = 'warning'): Locator {
    return this.file(path).locator(`[data-problems="${severity}"]`);
  }

  startFolder(): Locator {
    return this.page.getByLabel('Start folder');
  }

  async testPath(path: string, agent?: string, from?: string): Promise<void> {
    await this.view('Test a path').click();
    await this.page.getByLabel('Test a path').fill(path);
    if (from !== undefined) await this.startFolder().fill(from);
    if (agent) await this.page.getByLabel('Agent view').selectOption({ label: agent });
    await this.page.getByRole('button', { name: 'Explain' }).click();
  }

  /** How many lines the text of an element occupies (distinct line tops of its text). */
  lineCount(element: Locator): Promise<number> {
    return element.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
    });
  }

  /** Folder and file name parts of listed paths whose text is cut (overflowing their box). */
  clippedPathParts(): Promise<string[]> {
    return this.fileList.locator('.rule-dir, .rule-base').evaluateAll((els) => els.filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent ?? ''));
  }
}
