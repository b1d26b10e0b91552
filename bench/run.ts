/**
 * Runs every `bench/*.bench.ts` in name order (`npm run bench`), or those whose names contain one of
 * the arguments (`npm run bench -- rules`). Convention: a bench file exports a default async function
 * that runs the benchmark and prints its result as one JSON line; files without a default export run
 * on import. A bench that exports `needsShared` (files of the shared folder, see bench/shared.ts) is
 * skipped with one line saying what is missing when one of them is absent, and the others still run.
 * A failing bench sets exit code 1 and the rest still run. Arguments starting with `--` are not
 * filters: benches read them from `process.argv` (`npm run bench -- process --quick`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { missingShared, skippedLine } from './shared';

const dir = path.dirname(fileURLToPath(import.meta.url));
// words select bench files; options (`--quick`, `--sizes=…`) are for the benches themselves
const filters = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((word) => f.includes(word)))
  .sort();
if (files.length === 0) {
  process.stderr.write(`bench: no bench file matches ${filters.join(', ')} (files: ${fs.readdirSync(dir).filter((f) => f.endsWith('.bench.ts')).join(', ')})\n`);
  process.exitCode = 2;
}

for (const file of files) {
  try {
    const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { default?: unknown; needsShared?: readonly string[] };
    const missing = missingShared(mod.needsShared ?? []);
    if (missing.length > 0) {
      process.stderr.write(`${skippedLine(file, missing)}\n`);
      continue;
    }
    if (typeof mod.default === 'function') await (mod.default as () => Promise<unknown>)();
  } catch (error) {
    process.stderr.write(`bench ${file} failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  }
}
