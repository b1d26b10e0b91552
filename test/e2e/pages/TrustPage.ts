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

  /** The review's one-screen summary (jump links, what runs code, what needs approval after trusting). */
  reviewSummary(): Locator {
    return this.review.getByRole('region', { name: 'Summary' });
  }

  /** The summary's jump link to a group ("Hooks 3 …"). */
  jumpLink(label: string): Locator {
    return this.reviewSummary().getByRole('navigation', { name: 'Jump to a group' }).getByRole('button', { name: new RegExp(`^${label}\\b`) });
  }

  /** A group's heading toggle (collapses or opens the group). */
  groupToggle(label: string): Locator {
    return this.reviewGroup(label).locator('[data-group-toggle]');
  }

  /** The review's filter box and its match count. */
  reviewFilter(): Locator {
    return this.review.getByRole('searchbox', { name: 'Filter review items' });
  }

  reviewFilterCount(): Locator {
    return this.review.locator('#review-filter-count');
  }

  /** The review item (inside `scope`) whose literal command contains `text`. */
  reviewItemByCommand(text: string, scope: Locator = this.review): Locator {
    return scope.locator('.review-item').filter({ has: this.page.getByLabel('Literal command').filter({ hasText: text }) });
  }

  /** An expanded item's own lines of its file (labelled "<path>, lines a–b"). */
  itemLines(item: Locator): Locator {
    return item.getByLabel(/, lines \d+–\d+$/);
  }

  /** Clicks "Trust parent folder …" in the review; the confirmation opens (nothing is recorded yet). */
  async trustParent(): Promise<Locator> {
    await this.review.getByRole('button', { name: /^Trust parent folder/ }).click();
    const confirm = this.parentConfirm();
    await expect(confirm).toBeVisible();
    return confirm;
  }

  /** The separate confirmation of "Trust parent folder", naming what else becomes trusted. */
  parentConfirm(): Locator {
    return this.page.getByRole('alertdialog', { name: /^Trust every folder below / });
  }
}
