/**
 * Runs every `bench/*.bench.ts` in name order (`npm run bench`). Convention: a bench file exports a
 * default async function that runs the benchmark and prints its result as one JSON line; files
 * without a default export run on import. A failing bench sets exit code 1 and the rest still run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort();

for (const file of files) {
  try {
    const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { default?: unknown };
    if (typeof mod.default === 'function') await (mod.default as () => Promise<unknown>)();
  } catch (error) {
    process.stderr.write(`bench ${file} failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  }
}
