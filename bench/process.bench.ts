/**
 * Benchmark: whole `atrium` processes beside the floor, on generated monorepos of several sizes
 * (`../shared/bench/gen-monorepo.py --files N`, 500 rule files each). For every size and command,
 * pairs are run back to back (floor, command, floor, command, …) and the ratio is taken pair by pair,
 * so a busy machine slows both sides of a pair alike; the median ratio of the pairs is reported,
 * never an absolute pass/fail. Commands and their floors:
 *
 * - `atrium rules list MONO --json` and `atrium rules explain MONO --path <one file> --json`
 *   beside `floor.sh MONO --untracked` (git lists tracked and untracked files, every rule file is
 *   read once: the I/O a discoverer that sees a new AGENTS.md cannot avoid);
 * - `atrium workspace list --json` and `atrium --help` beside `node -e 0` (Node's own start-up).
 *
 * With GNU time installed (`/usr/bin/time`), each run's CPU time (user + system, children
 * included) is measured too and its pair ratio reported beside the wall-time one: on a machine
 * shared with other work, wall time includes waiting for a core. Also the peak RSS of `rules list`
 * at each size (GNU time's, else the child's `process.resourceUsage().maxRSS` written at exit). Monorepos are generated once into the temp folder and
 * reused by later runs (`atrium-bench-mono-<files>`; delete them to regenerate). Needs the built CLI
 * (`npm run build`). Prints a table on stderr and one JSON line on stdout.
 *
 * Run alone: `npm run bench -- process` (sizes 10,000, 100,000 and 300,000 files);
 * `npm run bench -- process --quick` (10,000 and 100,000, 3 pairs);
 * `npm run bench -- process --sizes=10000,50000` (any sizes).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { missingShared, sharedDir, skippedLine } from './shared';
import { runGit } from '../src/main/core/git/runGit';

/** Files of the shared folder this bench needs. */
export const needsShared = ['bench/gen-monorepo.py', 'bench/floor.sh'];

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(repo, 'bin/atrium.js');
const BUILT = path.join(repo, 'out/main/cli.js');

/** One command beside its floor at one size; times in milliseconds (CPU fields NaN, i.e. null in JSON, without GNU time). */
export interface ProcessBenchRow extends Measured {
  files: number;
  command: string;
  floor: string;
  /** What the goal allows (ratio), for the table. */
  goal: number;
}

/** The benchmark's result. */
export interface ProcessBenchResult {
  bench: 'process';
  pairs: number;
  cpus: number;
  loadAverage: number;
  rows: ProcessBenchRow[];
  /** Peak resident set of `rules list` per size, MiB. */
  rulesListPeakRssMiB: Record<string, number>;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** GNU time, when installed: then each run also reports its CPU time (user + system) and peak RSS. */
const GNU_TIME = ['/usr/bin/time', '/bin/time'].find((p) => fs.existsSync(p)) ?? null;

interface Run {
  ms: number;
  /** User + system CPU of the process and its children, ms (NaN without GNU time). */
  cpuMs: number;
  /** Peak resident set, KiB (NaN without GNU time). */
  rssKiB: number;
}

function run(argv: string[], env: NodeJS.ProcessEnv, scratch: string): Run {
  const stats = path.join(scratch, 'time.txt');
  const full = GNU_TIME ? [GNU_TIME, '-f', '%U %S %M', '-o', stats, ...argv] : argv;
  const t0 = performance.now();
  const r = spawnSync(full[0], full.slice(1), { env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${argv.join(' ')} exited ${r.status}: ${r.stderr}`);
  if (!GNU_TIME) return { ms, cpuMs: NaN, rssKiB: NaN };
  const [user, sys, rss] = fs.readFileSync(stats, 'utf8').trim().split(/\s+/).map(Number);
  return { ms, cpuMs: (user + sys) * 1000, rssKiB: rss };
}

/**
 * Runs floor and command alternately `count` times (after one warm-up each): the medians and the
 * median of the per-pair ratios, of wall time and (with GNU time) of CPU time. On a machine shared
 * with other work the wall time of a process includes waiting for a core; its CPU time does not.
 */
function pairs(floor: string[], command: string[], count: number, env: NodeJS.ProcessEnv, scratch: string): Measured {
  run(floor, env, scratch);
  run(command, env, scratch);
  const f: Run[] = [];
  const c: Run[] = [];
  for (let i = 0; i < count; i++) {
    f.push(run(floor, env, scratch));
    c.push(run(command, env, scratch));
  }
  const ratio = (key: 'ms' | 'cpuMs') => round(median(c.map((x, i) => x[key] / f[i][key])), 2);
  return {
    floorMs: round(median(f.map((x) => x.ms))),
    commandMs: round(median(c.map((x) => x.ms))),
    ratio: ratio('ms'),
    floorCpuMs: round(median(f.map((x) => x.cpuMs))),
    commandCpuMs: round(median(c.map((x) => x.cpuMs))),
    cpuRatio: ratio('cpuMs'),
    commandPeakRssMiB: round(Math.max(...c.map((x) => x.rssKiB)) / 1024),
  };
}

/** Medians of one command's pairs (see {@link pairs}). */
export interface Measured {
  floorMs: number;
  commandMs: number;
  ratio: number;
  floorCpuMs: number;
  commandCpuMs: number;
  cpuRatio: number;
  commandPeakRssMiB: number;
}

/** The generated monorepo with `files` files, generated on first use and kept in the temp folder. */
function monorepo(files: number): string {
  const dir = path.join(os.tmpdir(), `atrium-bench-mono-${files}`);
  if (fs.existsSync(path.join(dir, '.git')) && fs.existsSync(path.join(dir, '.atrium-bench-complete'))) return dir;
  fs.rmSync(dir, { recursive: true, force: true });
  process.stderr.write(`process bench: generating the ${files.toLocaleString('en')}-file monorepo into ${dir} (kept for later runs)…\n`);
  const r = spawnSync('python3', [path.join(sharedDir, 'bench/gen-monorepo.py'), dir, '--files', String(files)], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`gen-monorepo.py failed: ${r.stderr}`);
  fs.writeFileSync(path.join(dir, '.git', 'info', 'exclude'), '.atrium-bench-complete\n', { flag: 'a' });
  fs.writeFileSync(path.join(dir, '.atrium-bench-complete'), '');
  return dir;
}

/** Peak RSS (MiB) of one CLI run, read by the child itself at exit (when GNU time is not installed). */
function peakRss(args: string[], env: NodeJS.ProcessEnv, scratch: string): number {
  const out = path.join(scratch, 'rss.txt');
  const preload = path.join(scratch, 'rss.mjs');
  fs.writeFileSync(preload, `import fs from 'node:fs';\nprocess.on('exit', () => fs.writeFileSync(${JSON.stringify(out)}, String(process.resourceUsage().maxRSS)));\n`);
  run([process.execPath, '--import', pathToFileURL(preload).href, CLI, ...args], env, scratch);
  return round(Number(fs.readFileSync(out, 'utf8')) / 1024);
}

function options(argv: readonly string[]): { sizes: number[]; pairs: number } {
  const sizesArg = argv.find((a) => a.startsWith('--sizes='));
  if (sizesArg) return { sizes: sizesArg.slice('--sizes='.length).split(',').map((s) => Number(s.trim())).filter((n) => Number.isInteger(n) && n > 0), pairs: 5 };
  if (argv.includes('--quick')) return { sizes: [10_000, 100_000], pairs: 3 };
  return { sizes: [10_000, 100_000, 300_000], pairs: 5 };
}

/** Measures every size; see the file comment. */
export default async function benchProcess(argv: readonly string[] = process.argv.slice(2)): Promise<ProcessBenchResult | null> {
  if (!fs.existsSync(BUILT)) {
    process.stderr.write(`bench process.bench.ts skipped: the CLI is not built (${BUILT} is missing); run \`npm run build\` first\n`);
    return null;
  }
  const { sizes, pairs: count } = options(argv);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-process-'));
  const home = path.join(scratch, 'home');
  fs.mkdirSync(home);
  const env = { ...process.env, HOME: home, ATRIUM_DATA_DIR: path.join(scratch, 'data'), CODEX_HOME: path.join(home, '.codex') };
  const node = process.execPath;
  const floor = path.join(sharedDir, 'bench/floor.sh');
  const rows: ProcessBenchRow[] = [];
  const rss: Record<string, number> = {};
  try {
    for (const files of sizes) {
      const mono = monorepo(files);
      run([node, CLI, 'trust', 'set', mono, 'trusted'], env, scratch);
      run([node, CLI, 'workspace', 'add', mono], env, scratch);
      const listed = (await runGit(['ls-files'], { cwd: mono, maxBuffer: 256 * 1024 * 1024 })).stdout.split('\n').filter((p) => /\.(ts|tsx|py|go)$/.test(p));
      const target = listed[Math.floor(listed.length / 2)];
      const untracked = ['sh', floor, mono, '--untracked'];
      const nodeStart = [node, '-e', '0'];
      const measure = (command: string, args: string[], floorName: string, floorArgv: string[], goal: number) => {
        const m = pairs(floorArgv, [node, CLI, ...args], count, env, scratch);
        rows.push({ files, command, floor: floorName, ...m, goal });
        const cpu = Number.isNaN(m.cpuRatio) ? '' : `; CPU ${m.commandCpuMs} vs ${m.floorCpuMs} ms = ${m.cpuRatio.toFixed(2)}x`;
        process.stderr.write(`  ${files.toLocaleString('en').padStart(7)} files  ${command.padEnd(34)} ${String(m.commandMs).padStart(8)} ms  ${floorName.padEnd(20)} ${String(m.floorMs).padStart(7)} ms  ${m.ratio.toFixed(2).padStart(6)}x (goal <= ${goal}x)${cpu}\n`);
        return m;
      };
      const list = measure('rules list --json', ['rules', 'list', mono, '--json'], 'floor.sh --untracked', untracked, 2);
      measure('rules explain --path <file> --json', ['rules', 'explain', mono, '--path', target, '--json'], 'floor.sh --untracked', untracked, 2.5);
      measure('workspace list --json', ['workspace', 'list', '--json'], 'node -e 0', nodeStart, 2.5);
      measure('--help', ['--help'], 'node -e 0', nodeStart, 2.5);
      rss[String(files)] = GNU_TIME ? list.commandPeakRssMiB : peakRss(['rules', 'list', mono, '--json'], env, scratch);
      process.stderr.write(`  ${files.toLocaleString('en').padStart(7)} files  rules list peak RSS ${rss[String(files)]} MiB\n`);
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  const result: ProcessBenchResult = { bench: 'process', pairs: count, cpus: os.cpus().length, loadAverage: round(os.loadavg()[0], 2), rows, rulesListPeakRssMiB: rss };
  process.stderr.write('process bench: growth of rules list (ratio to the floor by size): ' + rows.filter((r) => r.command === 'rules list --json').map((r) => `${r.files.toLocaleString('en')}: ${r.ratio}x`).join(', ') + '\n');
  process.stdout.write(`${JSON.stringify(result)}\n`);
  return result;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const missing = missingShared(needsShared);
  if (missing.length) {
    process.stderr.write(`${skippedLine(path.basename(process.argv[1]), missing)}\n`);
    process.exitCode = 2;
  } else await benchProcess();
}
