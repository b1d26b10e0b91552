#!/usr/bin/env node
// Starts the built CLI. Built by `npm run build` into out/main/cli.js.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const built = fileURLToPath(new URL('../out/main/cli.js', import.meta.url));
if (!existsSync(built)) {
  process.stderr.write('atrium: Atrium is not built yet. Run `npm run build` in the Atrium folder first (npm run serve does it for you).\n');
  process.exit(1);
}
await import(pathToFileURL(built).href);
