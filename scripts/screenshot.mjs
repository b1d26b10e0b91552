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
  Serves the built UI (npm run build) on DATA_DIR and writes OUT_PREFIX-light.png and OUT_PREFIX-dark.png.`;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [dataDir, out, hash = '', tab] = process.argv.slice(2);
if (!dataDir || !out || dataDir.startsWith('-') || out.startsWith('-')) {
  console.error(USAGE);
  process.exit(2);
}
if (!existsSync(path.join(root, 'out', 'renderer'))) {
  console.error('The UI is not built: run `npm run build` first.');
  process.exit(1);
}

const child = spawn(process.execPath, [path.join(root, 'bin', 'atrium.js'), 'serve', '--json', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
const line = await new Promise((resolve) => {
  readline.createInterface({ input: child.stdout }).once('line', resolve);
  child.once('exit', () => resolve(null));
});
if (line === null) {
  console.error('atrium serve exited before printing its address (its error is above).');
  process.exit(1);
}
const { url } = JSON.parse(line);
try {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: systemChromium(), args: ['--no-sandbox', '--disable-gpu'] });
  for (const scheme of ['light', 'dark']) {
    const page = await browser.newPage({ viewport: { width: 1200, height: 720 }, colorScheme: scheme });
    await page.goto(url);
    if (hash) {
      await page.evaluate((h) => { globalThis.location.hash = h; }, hash);
      await page.reload();
    }
    await page.waitForTimeout(800);
    if (tab) {
      await page.getByRole('tab', { name: tab }).click();
      await page.waitForTimeout(800);
    }
    await page.screenshot({ path: `${out}-${scheme}.png` });
  }
  await browser.close();
} finally {
  child.kill();
}
