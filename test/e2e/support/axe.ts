import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import type { AxeResults, Result } from 'axe-core';

/** Impacts that fail a test; `moderate` and `minor` findings are reported but do not fail it… */
const FAILING = new Set(['critical', 'serious']);

/** …except these rules, which fail at any impact: unique landmarks and valid list/listbox structure. */
const ALWAYS_FAILING = new Set(['landmark-unique', 'landmark-no-duplicate-main', 'landmark-no-duplicate-banner', 'landmark-no-duplicate-contentinfo', 'landmark-main-is-top-level', 'aria-required-children', 'aria-required-parent', 'list', 'listitem']);

/**
 * One violation per line, readable in a test failure: impact, rule id, what it means, and each
 * offending element (its CSS target and axe's summary of the fix), at most `perRule` per rule.
 */
export function describeViolations(violations: readonly Result[], perRule = 5): string {
  return violations
    .map((v) => {
      const nodes = v.nodes.slice(0, perRule).map((n) => `    - ${n.target.join(' ')}\n      ${(n.failureSummary ?? '').replace(/\n/g, '\n      ')}`);
      const more = v.nodes.length > perRule ? [`    … and ${v.nodes.length - perRule} more`] : [];
      return [`  [${v.impact ?? 'unknown'}] ${v.id}: ${v.help} (${v.helpUrl})`, ...nodes, ...more].join('\n');
    })
    .join('\n');
}

/**
 * Runs axe-core (WCAG 2.0/2.1/2.2 A and AA rules plus axe's best practices) on the page as it is
 * now and fails the test when any violation is critical or serious (or breaks landmark uniqueness or
 * list/listbox structure, at any impact), listing them readably under
 * `screen` (e.g. "Rules tab (dark)"). The page's full results are attached to the test report as
 * JSON. `exclude` leaves out CSS selectors (for third-party markup Atrium does not render).
 */
export async function expectNoSeriousA11yViolations(page: Page, screen: string, exclude: readonly string[] = []): Promise<AxeResults> {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']);
  for (const selector of exclude) builder = builder.exclude(selector);
  const results = await builder.analyze();
  await test.info().attach(`axe ${screen}.json`, { body: JSON.stringify(results.violations, null, 2), contentType: 'application/json' });
  const failing = results.violations.filter((v) => FAILING.has(v.impact ?? '') || ALWAYS_FAILING.has(v.id));
  expect(failing.length, `axe: critical/serious violations on ${screen}:\n${describeViolations(failing)}`).toBe(0);
  return results;
}
