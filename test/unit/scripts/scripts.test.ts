/**
 * The developer scripts on a checkout without the shared folder and when called wrongly: they say
 * what is missing or how to call them, and never write into the checkout.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/corpus';
import { tempDir } from '../../support/tempDir';

describe('scripts/screenshot.mjs', () => {
  it.each([[[] as string[]], [['/tmp/data-only']]])('with arguments %j prints its usage, exits 2 and writes nothing', (args) => {
    const cwd = tempDir('atrium-shot-');
    const r = spawnSync(process.execPath, [path.join(repoRoot, 'scripts/screenshot.mjs'), ...args], { cwd, encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^usage: node scripts\/screenshot\.mjs DATA_DIR OUT_PREFIX/);
    expect(fs.readdirSync(cwd)).toEqual([]);
  });

  it('--help prints its usage on stdout, exits 0 and writes nothing', () => {
    const cwd = tempDir('atrium-shot-');
    const r = spawnSync(process.execPath, [path.join(repoRoot, 'scripts/screenshot.mjs'), '--help'], { cwd, encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^usage: node scripts\/screenshot\.mjs DATA_DIR OUT_PREFIX/);
    expect(fs.readdirSync(cwd)).toEqual([]);
  });

  it('finds Chromium as the browser tests do: the first system Chromium that exists, else Playwright\'s own', async () => {
    const { systemChromium, SYSTEM_CHROMIUM_PATHS } = (await import(pathToFileURL(path.join(repoRoot, 'scripts/chromium.mjs')).href)) as { systemChromium: (c?: readonly string[]) => string | undefined; SYSTEM_CHROMIUM_PATHS: string[] };
    const dir = tempDir('atrium-chromium-');
    const second = path.join(dir, 'chromium-browser');
    fs.writeFileSync(second, '');
    expect(systemChromium([path.join(dir, 'chromium'), second])).toBe(second);
    expect(systemChromium([path.join(dir, 'none')])).toBeUndefined();
    const { default: config } = await import('../../../playwright.config');
    expect(config.use?.launchOptions?.executablePath).toBe(SYSTEM_CHROMIUM_PATHS.find((p) => fs.existsSync(p)));
    const source = fs.readFileSync(path.join(repoRoot, 'scripts/screenshot.mjs'), 'utf8');
    expect(source).toContain('executablePath: systemChromium()');
  });
});

describe('npm run bench without the shared folder', () => {
  it('says which shared files each corpus bench needs, skips it, and exits 0 without a stack trace', { timeout: 60_000 }, () => {
    const empty = tempDir('atrium-noshared-');
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', 'rules', 'trust-review'], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, ATRIUM_SHARED_DIR: empty }, timeout: 60_000 });
    expect(r.status).toBe(0);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(new RegExp(`^bench rules\\.bench\\.ts skipped: it needs ${empty}/corpus/materialize\\.sh, .*${empty}/bench/gen-monorepo\\.py.* set ATRIUM_SHARED_DIR\\)$`)),
      expect.stringMatching(new RegExp(`^bench trust-review\\.bench\\.ts skipped: it needs ${empty}/corpus/materialize\\.sh, ${empty}/corpus/cline__cline `)),
    ]);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
  });

  it('a bench name that matches nothing is an error naming the bench files', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', 'nosuchbench'], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/no bench file matches nosuchbench \(files: .*rules\.bench\.ts/);
  });
});
