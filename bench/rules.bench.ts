/**
 * Benchmark: the project rule catalog on (a) the largest corpus workspace
 * (`cline__cline`, materialized as a real git repository) and (b) the generated 100,000-file
 * monorepo with 500 rule files (`../shared/bench/gen-monorepo.py`, generated once per run into a
 * temp dir). For each: the `git ls-files` floor (`../shared/bench/floor.sh`, tracked only and with
 * untracked files), a cold catalog build, a rebuild after one rule file changes, and contextual
 * lookup throughput (index only, on a first pass that builds each folder's plan and then in
 * folders seen before, and the full `contextualRules` call with canonicalisation, budget and
 * rendering). Goals: cold ≤ 1.5× the untracked floor, rebuild < 20 ms, ≥ 1,000,000 lookups/s
 * index only and ≥ 100,000/s for the full `contextualRules`.
 * Benchmarks print, they do not assert. Prints a table on stderr and one JSON line on stdout.
 *
 * Run alone: `node --import tsx bench/rules.bench.ts`; `npm run bench` runs every bench file.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { missingShared, sharedDir, skippedLine } from './shared';
import { RuleCatalogBuilder } from '../src/main/core/rules/builder';
import type { RuleCatalog } from '../src/main/core/rules/catalog';
import { fixedGate } from '../src/main/core/trust/gate';

const CORPUS_ENTRY = 'cline__cline';
const RUNS = 5;

/** Files of the shared folder this bench needs (`bench/run.ts` skips it, saying so, when one is missing). */
export const needsShared = ['corpus/materialize.sh', 'corpus/cline__cline', 'bench/gen-monorepo.py', 'bench/floor.sh'];

/** Timings for one workspace; times in milliseconds. */
export interface RulesBenchWorkspace {
  workspace: string;
  workspaceFiles: number;
  ruleFiles: number;
  floorTrackedMs: number;
  floorUntrackedMs: number;
  coldBuildMs: number;
  coldVsFloor: number;
  rebuildOneChangeMs: number;
  /** Index-only lookups of files in folders already looked up in (the steady state of a session). */
  lookupsPerSecond: number;
  /** The first pass: one lookup per file, so every folder's plan is built on the way. */
  firstPassLookupsPerSecond: number;
  contextualRulesPerSecond: number;
}

/** The benchmark's result. */
export interface RulesBenchResult {
  bench: 'rules';
  runs: number;
  cpus: number;
  loadAverage: number;
  workspaces: RulesBenchWorkspace[];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

async function time(fn: () => unknown | Promise<unknown>, runs = RUNS): Promise<number> {
  await fn(); // warm-up (OS cache, JIT)
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** Calls `fn` over `items` repeatedly for at least `minMs`; returns calls per second. */
function throughput<T>(items: readonly T[], fn: (item: T) => unknown, minMs = 1000): number {
  let calls = 0;
  const t0 = performance.now();
  let elapsed = 0;
  do {
    for (const item of items) fn(item);
    calls += items.length;
    elapsed = performance.now() - t0;
  } while (elapsed < minMs);
  return calls / (elapsed / 1000);
}

async function benchWorkspace(name: string, dir: string, shared: string): Promise<RulesBenchWorkspace> {
  const floor = path.join(shared, 'bench/floor.sh');
  const floorTrackedMs = await time(() => execFileSync('sh', [floor, dir], { stdio: 'ignore' }));
  const floorUntrackedMs = await time(() => execFileSync('sh', [floor, dir, '--untracked'], { stdio: 'ignore' }));
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-home-'));
  const builder = new RuleCatalogBuilder({ workspaceDir: fs.realpathSync(dir), homeDir: home, gate: fixedGate(true) });
  let catalog: RuleCatalog = await builder.build();
  const coldBuildMs = await time(async () => {
    catalog = await new RuleCatalogBuilder({ workspaceDir: fs.realpathSync(dir), homeDir: home, gate: fixedGate(true) }).build();
  });
  await builder.build();

  const target = catalog.files.find((f) => f.status === 'active' && f.source === 'project' && f.kind === 'conditional') ?? catalog.files.find((f) => f.source === 'project');
  let rebuildOneChangeMs = NaN;
  if (target) {
    const original = fs.readFileSync(target.absolutePath);
    let n = 0;
    try {
      rebuildOneChangeMs = await time(async () => {
        fs.writeFileSync(target.absolutePath, Buffer.concat([original, Buffer.from(`\nedit ${n++}\n`)]));
        const { changed } = await builder.update([target.absolutePath]);
        if (!changed) throw new Error('the edit was not seen');
      });
    } finally {
      fs.writeFileSync(target.absolutePath, original);
    }
  }

  const current = builder.current!;
  const targets = current.workspaceFiles.length > 50_000 ? current.workspaceFiles.filter((_, i) => i % 2 === 0) : current.workspaceFiles;
  const empty = new Set<string>();
  const t0 = performance.now();
  for (const rel of targets) current.matchTargets('', [rel], empty);
  const firstPassLookupsPerSecond = targets.length / ((performance.now() - t0) / 1000);
  const lookupsPerSecond = throughput(targets, (rel) => current.matchTargets('', [rel], empty));
  const absolute = targets.slice(0, 5000).map((rel) => path.join(current.root, rel));
  const contextualRulesPerSecond = throughput(absolute, (p) => current.contextualRules(undefined, [p]));
  fs.rmSync(home, { recursive: true, force: true });
  return {
    workspace: name,
    workspaceFiles: current.workspaceFiles.length,
    ruleFiles: current.files.length,
    floorTrackedMs: round(floorTrackedMs),
    floorUntrackedMs: round(floorUntrackedMs),
    coldBuildMs: round(coldBuildMs),
    coldVsFloor: round(coldBuildMs / floorUntrackedMs, 2),
    rebuildOneChangeMs: round(rebuildOneChangeMs, 2),
    lookupsPerSecond: Math.round(lookupsPerSecond),
    firstPassLookupsPerSecond: Math.round(firstPassLookupsPerSecond),
    contextualRulesPerSecond: Math.round(contextualRulesPerSecond),
  };
}

/** Materializes the corpus entry and generates the monorepo, then measures both. */
export default async function benchRules(): Promise<RulesBenchResult> {
  const shared = sharedDir;
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-rules-'));
  try {
    const corpus = path.join(base, CORPUS_ENTRY);
    execFileSync('bash', [path.join(shared, 'corpus/materialize.sh'), path.join(shared, 'corpus', CORPUS_ENTRY), corpus], { stdio: 'ignore' });
    const mono = path.join(base, 'monorepo');
    process.stderr.write('rules bench: generating the 100,000-file monorepo (takes a few seconds)…\n');
    execFileSync('python3', [path.join(shared, 'bench/gen-monorepo.py'), mono], { stdio: 'ignore' });
    const workspaces = [await benchWorkspace(CORPUS_ENTRY, corpus, shared), await benchWorkspace('monorepo-100k', mono, shared)];
    const result: RulesBenchResult = { bench: 'rules', runs: RUNS, cpus: os.cpus().length, loadAverage: round(os.loadavg()[0], 2), workspaces };
    for (const w of workspaces) {
      process.stderr.write(
        [
          `rules bench: ${w.workspace} (${w.workspaceFiles} files, ${w.ruleFiles} rule files)`,
          `  floor git ls-files: ${w.floorTrackedMs} ms tracked, ${w.floorUntrackedMs} ms with untracked`,
          `  cold build:         ${w.coldBuildMs} ms (${w.coldVsFloor}x the untracked floor; goal <= 1.5x)`,
          `  one-change rebuild: ${w.rebuildOneChangeMs} ms (target < 20 ms)`,
          `  contextual lookups: ${w.lookupsPerSecond.toLocaleString('en')}/s index only in folders looked up before (goal >= 1,000,000), ${w.firstPassLookupsPerSecond.toLocaleString('en')}/s on the first pass (a plan built per folder); ${w.contextualRulesPerSecond.toLocaleString('en')}/s full contextualRules (realpath + budget + render; goal >= 100,000)`,
        ].join('\n') + '\n',
      );
    }
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
  } else await benchRules();
}
