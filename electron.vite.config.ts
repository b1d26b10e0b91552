import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };
const define = { __ATRIUM_VERSION__: JSON.stringify(pkg.version) };

// One build for all targets: the Electron main process and the CLI (`out/main/cli.js`, plain Node,
// also used by `atrium serve`), the sandboxed preload (CommonJS, dependencies bundled) and the
// renderer (served by Electron and by the browser server alike).
export default defineConfig({
  main: {
    define,
    build: {
      outDir: 'out/main',
      // Pure-JavaScript parsers are bundled instead of required from node_modules at run time: a CLI
      // command then reads one chunk instead of resolving and compiling each package's many CommonJS
      // files (yaml alone is 80 files), which is most of a one-shot command's start-up.
      externalizeDeps: { exclude: ['yaml', 'minimatch', 'brace-expansion', 'balanced-match', 'ignore', 'commander', 'smol-toml', 'jsonc-parser'] },
      rolldownOptions: {
        input: {
          index: resolve('src/main/index.ts'),
          cli: resolve('src/main/cli/entry.ts'),
        },
      },
    },
  },
  preload: {
    define,
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    define,
    root: 'src/renderer',
    plugins: [react()],
    build: {
      outDir: 'out/renderer',
      rolldownOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
  },
});
