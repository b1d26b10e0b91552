// Screenshots of the UI in light and dark: node scripts/screenshot.mjs DATA_DIR OUT_PREFIX [#hash] [tab name]
// (serves the built app on DATA_DIR, writes OUT_PREFIX-light.png and OUT_PREFIX-dark.png).
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import readline from 'node:readline';
const dataDir = process.argv[2]; const out = process.argv[3]; const hash = process.argv[4] ?? '';
const child = spawn('node', ['bin/atrium.js','serve','--json','--data-dir',dataDir], {stdio:['ignore','pipe','inherit']});
const line = await new Promise(r => readline.createInterface({input: child.stdout}).once('line', r));
const { url } = JSON.parse(line);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu'] });
for (const scheme of ['light','dark']) {
  const page = await browser.newPage({ viewport: { width: 1200, height: 720 }, colorScheme: scheme });
  await page.goto(url);
  if (hash) { await page.evaluate((h) => { globalThis.location.hash = h; }, hash); await page.reload(); }
  await page.waitForTimeout(800);
  if (process.argv[5]) { await page.getByRole('tab', { name: process.argv[5] }).click(); await page.waitForTimeout(800); }
  await page.screenshot({ path: `${out}-${scheme}.png` });
}
await browser.close(); child.kill();
