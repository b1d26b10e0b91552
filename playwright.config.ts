import { defineConfig } from '@playwright/test';
import { systemChromium } from './scripts/chromium.mjs';

// End-to-end tests drive the real UI served by `atrium serve` (built first: `npm run build`) in a real
// Chromium. Debian's /usr/bin/chromium is used when present, because Playwright's own browser
// download is blocked on some machines; otherwise Playwright's managed browser (scripts/chromium.mjs,
// shared with scripts/screenshot.mjs).

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  // one line when the shared corpus is absent: the specs that need it skip with that reason
  globalSetup: './test/support/corpusNotice.ts',
  use: {
    browserName: 'chromium',
    headless: true,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: systemChromium(),
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
});
