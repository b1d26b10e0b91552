// `npm run test:electron`: the Playwright _electron suite, when an Electron binary is present.
import { spawnSync } from 'node:child_process';
import { electronBinary, electronSqliteBinding, root } from './electron-env.mjs';

const bin = electronBinary();
if (!bin) {
  console.log('test:electron skipped: no Electron binary is installed here (its download is blocked); test:e2e runs the same UI in Chromium.');
  process.exit(0);
}
const res = spawnSync('npx', ['playwright', 'test', '-c', 'playwright.electron.config.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, ATRIUM_ELECTRON_BIN: bin, ATRIUM_SQLITE_BINDING: electronSqliteBinding() },
});
process.exit(res.status ?? 1);
