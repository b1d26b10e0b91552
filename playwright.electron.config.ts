import { defineConfig } from '@playwright/test';

// The desktop suite (Playwright's _electron), run by scripts/test-electron.mjs only when an
// Electron binary exists.
export default defineConfig({
  testDir: 'test/electron',
  testMatch: '**/*.spec.ts',
  workers: 1,
  timeout: 60_000,
  reporter: [['list']],
});
