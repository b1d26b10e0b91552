import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServe, stopSpawned } from '../../support/cli';
import { repoRoot } from '../../support/corpus';
import { tempDir } from '../../support/tempDir';

const SCRIPT = path.join(repoRoot, 'scripts', 'screenshot.mjs');
const screenshot = (...args: string[]) => spawnSync(process.execPath, [SCRIPT, ...args], { cwd: repoRoot, encoding: 'utf8', timeout: 90_000 });

describe('scripts/screenshot.mjs', { timeout: 120_000 }, () => {
  afterEach(() => stopSpawned());

  it('--help prints the usage and exits 0; missing arguments exit 2', () => {
    const help = screenshot('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('usage: node scripts/screenshot.mjs DATA_DIR OUT_PREFIX');
    expect(help.stdout).toContain('No Atrium server may already run on DATA_DIR');
    expect(screenshot().status).toBe(2);
  });

  // it runs the built CLI (bin/atrium.js → out/main/cli.js), as the README says: after `npm run build`
  it.runIf(fs.existsSync(path.join(repoRoot, 'out', 'main', 'cli.js')) && fs.existsSync(path.join(repoRoot, 'out', 'renderer')))(
    'a server already running on DATA_DIR is one clear line and exit 1, not a page.goto stack trace',
    async () => {
      const base = tempDir('atrium-screenshot-');
      const dataDir = path.join(base, 'data');
      await startServe(dataDir);
      const run = screenshot(dataDir, path.join(base, 'shot'));
      expect(run.status).toBe(1);
      expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^screenshot: atrium serve did not start: Atrium is already serving this data directory at /)]);
      expect(run.stderr).not.toContain('page.goto');
      expect(fs.existsSync(path.join(base, 'shot-light.png'))).toBe(false);
    },
  );

  it.runIf(fs.existsSync(path.join(repoRoot, 'out', 'main', 'cli.js')) && fs.existsSync(path.join(repoRoot, 'out', 'renderer')))(
    'an unknown TAB is one line listing the tabs there are, promptly and without a TimeoutError stack',
    () => {
      const base = tempDir('atrium-screenshot-');
      const started = Date.now();
      const run = screenshot(path.join(base, 'data'), path.join(base, 'shot'), '', 'Nosuch');
      expect(run.status).toBe(1);
      expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^screenshot: no tab "Nosuch" on this page; its tabs: /)]);
      expect(Date.now() - started).toBeLessThan(25_000);
    },
  );
});
