import path from 'node:path';
import type { HookUncovered } from '../../../shared/contract';
import { lexShell, splitWords } from './shellWords';

/** Package runners: they fetch and run code chosen at run time, which no digest of the repository can cover. */
const PACKAGE_RUNNERS: ReadonlyArray<{ program: string; sub?: string }> = [
  { program: 'npx' },
  { program: 'bunx' },
  { program: 'pnpx' },
  { program: 'uvx' },
  { program: 'pnpm', sub: 'dlx' },
  { program: 'yarn', sub: 'dlx' },
  { program: 'npm', sub: 'exec' },
  { program: 'pipx', sub: 'run' },
  { program: 'uv', sub: 'run' },
  { program: 'bun', sub: 'x' },
  { program: 'deno', sub: 'run' },
];

/**
 * What a command line runs that its digest cannot cover. Today: package runners (`npx pkg`,
 * `uvx tool`, `pnpm dlx`, `pipx run`, `npm exec`, `bunx`), whose code is whatever the registry or
 * the package cache holds at run time. `args` is the exec form's argument list (no shell). Never
 * throws.
 */
export function uncoveredOf(command: string | null | undefined, args?: readonly string[] | null): HookUncovered[] {
  if (!command) return [];
  const commands = args ? [[command, ...args]] : splitWords(lexShell(command).items).map((words) => words.map((w) => w.text));
  const out: HookUncovered[] = [];
  for (const words of commands) {
    let i = 0;
    while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i])) i++;
    const program = words[i] === undefined ? '' : path.basename(words[i]);
    const runner = PACKAGE_RUNNERS.find((r) => r.program === program && (r.sub === undefined || words[i + 1] === r.sub));
    if (!runner) continue;
    const text = words.slice(i).join(' ');
    out.push({ code: 'package-runner', text, message: `${runner.sub ? `${runner.program} ${runner.sub}` : runner.program} runs a package chosen at run time (registry or cache), so the digest cannot cover its code.` });
  }
  return out;
}
