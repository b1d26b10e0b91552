// Shared by start-electron.mjs and test-electron.mjs: where the Electron binary is, and a
// better-sqlite3 binding compiled for Electron's ABI kept apart from node_modules (so the CLI,
// `atrium serve` and the tests keep using the Node build of the same package).
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const electronDir = path.join(root, 'node_modules', 'electron');

/** Absolute path of the Electron executable, or null when its binary was never downloaded. */
export function electronBinary() {
  const pathFile = path.join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const bin = path.join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(bin) ? bin : null;
}

/** Tries Electron's own download once (skipped when ELECTRON_SKIP_BINARY_DOWNLOAD is set). */
export function tryDownloadElectron() {
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) return null;
  console.log('Downloading the Electron binary (once)…');
  // Its own error output is a long stack trace; the caller prints one sentence instead.
  spawnSync(process.execPath, [path.join(electronDir, 'install.js')], { stdio: 'ignore', timeout: 300_000 });
  return electronBinary();
}

export const MISSING_SENTENCE =
  'The Electron binary is missing (its download is blocked or was skipped), so the desktop window cannot open; `npm run serve` runs the same app in your browser.';

/**
 * Returns the path of a better-sqlite3 binding built for this Electron version, building it once
 * into .atrium-native/ with node-gyp against Electron's headers.
 */
export function electronSqliteBinding() {
  const version = JSON.parse(readFileSync(path.join(electronDir, 'package.json'), 'utf8')).version;
  const outDir = path.join(root, '.atrium-native', `electron-${version}`);
  const binding = path.join(outDir, 'better_sqlite3.node');
  if (existsSync(binding)) return binding;
  const work = path.join(outDir, 'src');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  cpSync(path.join(root, 'node_modules', 'better-sqlite3'), work, { recursive: true });
  console.log(`Building better-sqlite3 for Electron ${version} (once)…`);
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'), 'rebuild', '--release', `--target=${version}`, '--runtime=electron', '--dist-url=https://electronjs.org/headers'], { cwd: work, stdio: 'inherit' });
  cpSync(path.join(work, 'build', 'Release', 'better_sqlite3.node'), binding);
  rmSync(work, { recursive: true, force: true });
  return binding;
}
