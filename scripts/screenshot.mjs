// Screenshots of the UI in light and dark: node scripts/screenshot.mjs DATA_DIR OUT_PREFIX [#hash] [tab name]
// (serves the built app on DATA_DIR, writes OUT_PREFIX-light.png and OUT_PREFIX-dark.png). Uses the
// same Chromium as the browser tests (scripts/chromium.mjs).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { systemChromium } from './chromium.mjs';

const USAGE = `usage: node scripts/screenshot.mjs DATA_DIR OUT_PREFIX ['#/workspace/ID'] [TAB]
  Serves the built UI (npm run build) on DATA_DIR and writes OUT_PREFIX-light.png and OUT_PREFIX-dark.png.
  TAB is the name of a tab to click first (e.g. Trust). No Atrium server may already run on DATA_DIR
  (it starts its own); stop that one or copy the data dir.`;

/** Prints one line (no stack trace) and exits with `code`. */
function fail(message, code = 1) {
  console.error(`screenshot: ${message}`);
  process.exit(code);
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
if (argv.includes('--help') || argv.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
const [dataDir, out, hash = '', tab] = argv;
if (!dataDir || !out || dataDir.startsWith('-') || out.startsWith('-')) {
  console.error(USAGE);
  process.exit(2);
}
if (!existsSync(path.join(root, 'out', 'renderer'))) fail('The UI is not built: run `npm run build` first.');

const child = spawn(process.execPath, [path.join(root, 'bin', 'atrium.js'), 'serve', '--json', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
let serveErr = '';
child.stderr.on('data', (d) => (serveErr += d));
const line = await new Promise((resolve) => {
  readline.createInterface({ input: child.stdout }).once('line', resolve);
  child.once('exit', () => resolve(null));
});
// serve prints {"url", …} once listening, or {"error": {message}} (e.g. a server already runs on DATA_DIR)
let served = null;
try {
  served = line === null ? null : JSON.parse(line);
} catch {
  served = null;
}
if (typeof served?.url !== 'string') {
  child.kill();
  const why = served?.error?.message ?? serveErr.trim().replace(/^atrium: /, '').split('\n')[0];
  fail(`atrium serve did not start: ${why || 'it exited without printing its address'}`);
}
const { url } = served;
let browser;
try {
  const { chromium } = await import('playwright-core');
  browser = await chromium.launch({ executablePath: systemChromium(), args: ['--no-sandbox', '--disable-gpu'] });
  for (const scheme of ['light', 'dark']) {
    const page = await browser.newPage({ viewport: { width: 1200, height: 720 }, colorScheme: scheme });
    await page.goto(url);
    if (hash) {
      await page.evaluate((h) => { globalThis.location.hash = h; }, hash);
      await page.reload();
    }
    await page.waitForTimeout(800);
    if (tab) {
      const tabs = page.getByRole('tab');
      const wanted = page.getByRole('tab', { name: tab });
      if ((await wanted.count()) === 0) {
        const names = (await tabs.evaluateAll((els) => els.map((e) => (e.getAttribute('aria-label') ?? e.textContent ?? '').trim()))).filter(Boolean);
        throw new Error(`no tab "${tab}" on this page; its tabs: ${names.length > 0 ? names.join(', ') : '(none; open a workspace with a #/workspace/ID hash)'}`);
      }
      await wanted.first().click();
      await page.waitForTimeout(800);
    }
    await page.screenshot({ path: `${out}-${scheme}.png` });
  }
} catch (error) {
  process.exitCode = 1;
  console.error(`screenshot: ${String(error instanceof Error ? error.message : error).split('\n')[0]}`);
} finally {
  await browser?.close().catch(() => {});
  child.kill();
}
