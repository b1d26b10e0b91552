/**
 * Benchmark: trust review (`reviewFolder`) on the largest corpus workspace (`cline__cline`, 3,818
 * files, materialized as a real git repository). The review runs when a workspace is opened, so it
 * must stay well below a second. Prints one JSON line `{bench, workspace, files, items, runs, minMs,
 * medianMs, maxMs}` (and returns it).
 *
 * Run alone: `node --import tsx bench/trust-review.bench.ts`; `bench/run.ts` runs every bench file.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { missingShared, sharedDir, skippedLine } from './shared';
import { reviewFolder } from '../src/main/core/trust/review/review';

const ENTRY = 'cline__cline';
const RUNS = 7;

/** Files of the shared folder this bench needs (`bench/run.ts` skips it, saying so, when one is missing). */
export const needsShared = ['corpus/materialize.sh', 'corpus/cline__cline'];

/** One benchmark result; times in milliseconds. */
export interface TrustReviewBenchResult {
  bench: 'trust-review';
  workspace: string;
  files: number;
  items: number;
  runs: number;
  minMs: number;
  medianMs: number;
  maxMs: number;
}

/** Materializes the corpus entry, reviews it once to warm up, then {@link RUNS} timed times. */
export default async function benchTrustReview(): Promise<TrustReviewBenchResult> {
  const shared = sharedDir;
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-trust-'));
  try {
    const dir = path.join(base, ENTRY);
    execFileSync('bash', [path.join(shared, 'corpus/materialize.sh'), path.join(shared, 'corpus', ENTRY), dir], { stdio: 'ignore' });
    const context = { trustRoot: dir, state: 'undecided' as const };
    const warm = await reviewFolder(dir, context);
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await reviewFolder(dir, context);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const round = (n: number) => Math.round(n * 10) / 10;
    const result: TrustReviewBenchResult = {
      bench: 'trust-review',
      workspace: ENTRY,
      files: warm.fileCount,
      items: warm.items.length,
      runs: RUNS,
      minMs: round(times[0]),
      medianMs: round(times[Math.floor(times.length / 2)]),
      maxMs: round(times[times.length - 1]),
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return result;
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const missing = missingShared(needsShared);
  if (missing.length) {
    process.stderr.write(`${skippedLine(path.basename(process.argv[1]), missing)}\n`);
    process.exitCode = 2;
  } else await benchTrustReview();
}
