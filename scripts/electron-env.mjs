// Shared by start-electron.mjs and test-electron.mjs: where the Electron binary is, and a
// better-sqlite3 binding compiled for Electron's ABI kept apart from node_modules (so the CLI,
// `atrium serve` and the tests keep using the Node build of the same package).
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
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

/** Electron's version as installed in node_modules (the one `npm start` and `npm run dist` use). */
export function electronVersion() {
  return JSON.parse(readFileSync(path.join(electronDir, 'package.json'), 'utf8')).version;
}

/**
 * node-gyp's arguments that compile better-sqlite3 for Electron `version` on `arch` (x64, arm64, …):
 * Electron's headers (from electronjs.org, as `@electron/rebuild` uses) instead of Node's, because
 * Electron has its own NODE_MODULE_VERSION and a Node build of the module does not load in it.
 */
export function electronGypArgs(version, arch = process.arch) {
  return ['rebuild', '--release', `--target=${version}`, `--arch=${arch}`, '--runtime=electron', '--dist-url=https://electronjs.org/headers'];
}

/**
 * Compiles better-sqlite3 for Electron `version`/`arch` in a throw-away copy of the package (in the
 * system temp dir) and copies the result to `outFile`. The developer's node_modules is only read:
 * rebuilding it in place would leave the CLI, `atrium serve` and the tests with a binding Node cannot load.
 * @throws when node-gyp fails (its output is on the console).
 */
export function buildElectronSqlite({ version, arch = process.arch, outFile }) {
  const work = mkdtempSync(path.join(os.tmpdir(), 'atrium-sqlite-electron-'));
  try {
    cpSync(path.join(root, 'node_modules', 'better-sqlite3'), work, { recursive: true, dereference: true });
    rmSync(path.join(work, 'build'), { recursive: true, force: true });
    console.log(`Building better-sqlite3 for Electron ${version} (${arch})…`);
    execFileSync(process.execPath, [path.join(root, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'), ...electronGypArgs(version, arch)], { cwd: work, stdio: 'inherit' });
    mkdirSync(path.dirname(outFile), { recursive: true });
    cpSync(path.join(work, 'build', 'Release', 'better_sqlite3.node'), outFile);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return outFile;
}

/**
 * Returns the path of a better-sqlite3 binding built for this Electron version, building it once
 * into .atrium-native/ (see {@link buildElectronSqlite}).
 */
export function electronSqliteBinding() {
  const version = electronVersion();
  const binding = path.join(root, '.atrium-native', `electron-${version}`, 'better_sqlite3.node');
  if (existsSync(binding)) return binding;
  return buildElectronSqlite({ version, outFile: binding });
}
