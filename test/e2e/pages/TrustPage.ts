import { expect, type Locator, type Page } from '@playwright/test';

/** Page object for folder trust: the restricted-mode banner, the review dialog and the Trust tab. */
export class TrustPage {
  readonly banner: Locator;
  readonly review: Locator;
  /** The workspace header's "shares trust with <repo> (a worktree of it)" note. */
  readonly headerSharesTrust: Locator;

  constructor(readonly page: Page) {
    this.banner = page.getByRole('status', { name: 'Restricted mode' });
    this.review = page.getByRole('dialog', { name: /Review before trusting/ });
    this.headerSharesTrust = page.locator('.workspace-header').getByTestId('shares-trust');
  }

  /** The "shares trust with …" note inside `scope` (the Trust tab panel, the review dialog, the banner). */
  sharesTrustIn(scope: Locator): Locator {
    return scope.getByTestId('shares-trust');
  }

  async openReview(): Promise<void> {
    await this.banner.getByRole('button', { name: 'Review…' }).click();
    await expect(this.review).toBeVisible();
  }

  reviewGroup(label: string): Locator {
    return this.review.getByRole('region', { name: label });
  }

  /** The "This folder is a worktree of <repo>; the trust decision belongs to that main checkout…" note inside `scope`. */
  sharedDecisionIn(scope: Locator): Locator {
    return scope.getByTestId('shared-decision');
  }

  /** Clicks the review's trust button ("Trust this folder", or "Trust <repo> and its worktrees" in a worktree). */
  async trustThisFolder(label: string = 'Trust this folder'): Promise<void> {
    await this.review.getByRole('button', { name: label, exact: true }).click();
    await expect(this.review).toBeHidden();
  }

  /** The Trust tab's panel. */
  trustPanel(): Locator {
    return this.page.getByRole('tabpanel', { name: 'Trust' });
  }

  /** The confirmation asked before a worktree changes the decision it shares with its main checkout. */
  sharedChangeDialog(): Locator {
    return this.page.getByRole('alertdialog');
  }

  async openTrustTab(): Promise<void> {
    await this.page.getByRole('tab', { name: 'Trust' }).click();
  }

  historyTable(): Locator {
    return this.page.getByRole('table', { name: 'Trust history' });
  }
}
