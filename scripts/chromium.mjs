// Which Chromium the browser tests (playwright.config.ts) and scripts/screenshot.mjs drive.
import { existsSync } from 'node:fs';

/** Where distributions install Chromium (Debian/Ubuntu first), in the order they are tried. */
export const SYSTEM_CHROMIUM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/**
 * The system Chromium (the first of {@link SYSTEM_CHROMIUM_PATHS} that exists, or of `candidates`),
 * or undefined, which tells Playwright to use its own browser (`npx playwright install chromium`).
 * The system one comes first because Playwright's browser download is blocked on some machines.
 * @param {readonly string[]} [candidates]
 * @returns {string | undefined}
 */
export function systemChromium(candidates = SYSTEM_CHROMIUM_PATHS) {
  return candidates.find((p) => existsSync(p));
}
