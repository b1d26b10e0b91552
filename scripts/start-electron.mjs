// `npm start`: builds Atrium and opens the desktop app. Where the Electron binary cannot be
// downloaded, says so in one sentence and points at `npm run serve`.
import { spawn, spawnSync } from 'node:child_process';
import { MISSING_SENTENCE, electronBinary, electronSqliteBinding, root, tryDownloadElectron } from './electron-env.mjs';

const bin = electronBinary() ?? tryDownloadElectron();
if (!bin) {
  console.error(MISSING_SENTENCE);
  process.exit(1);
}
const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const child = spawn(bin, ['.', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, ATRIUM_SQLITE_BINDING: electronSqliteBinding() },
});
child.on('exit', (code) => process.exit(code ?? 0));
