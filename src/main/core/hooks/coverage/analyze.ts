/**
 * The command-coverage analysis' entry points: {@link analyzeCommand} (what a hook or MCP server
 * command executes, for the digest) and {@link uncoveredOf}. The analysis itself lives beside this
 * file (`analysis.ts` and its followers); the shapes in `types.ts`.
 */
import type { HookUncovered } from '../../../../shared/contract';
import { bashParser } from '../../formats/shell';
import { Analysis } from './analysis';
import type { Coverage, CoverageContext } from './types';

export { knownVariables } from './analysis';
export { isSystemPath, movingSpec } from './programs';
export { MAX_ANALYZED_BYTES, MAX_COVERED_FILES, type Coverage, type CoverageContext } from './types';

/**
 * Follows a command line the way bash will run it and collects what it executes (see
 * {@link Coverage}). `args` given = exec form (no shell: the program and its arguments as written,
 * with Atrium's placeholders expanded). The parser is tree-sitter-bash; every form it cannot follow
 * deterministically becomes an `uncovered` entry with a code:
 * `package-runner` (npx, uvx, pnpm dlx, docker run, npm install, ...), `module-resolution`
 * (`python -m` of a module not beside the command, a bare `require('pkg')`, node_modules/.bin),
 * `dynamic-path` (a program or script path built from an unknown variable, a substitution, a glob or
 * brace, an unknown working directory), `word-split` (an unquoted expansion whose value would be
 * split or globbed), `interpreter-code` (inline `-e`/`-c` code that loads other code), `stdin-code`
 * (an interpreter reading code from a pipe whose producer is not known), `unparsed` (syntax the
 * grammar rejects), `size-cap` (more files or bytes than the bounds). Never throws.
 */
export async function analyzeCommand(command: string, args: readonly string[] | null | undefined, ctx: CoverageContext): Promise<Coverage> {
  const a = new Analysis(await bashParser().catch(() => null), ctx);
  const cwd = ctx.cwd ?? ctx.projectDir;
  try {
    if (args) {
      const expand = (s: string) => s.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (m, x: string | undefined, y: string | undefined) => a.vars.get((x ?? y)!) ?? m);
      const words = [command, ...args].map((w, i) => ({ value: expand(w), raw: w, index: i - 1 }));
      await a.exec(words.map((w) => ({ ok: true as const, value: w.value, raw: w.raw, at: { arg: w.index } })), cwd, a.vars, 0, null);
    } else {
      await a.shell(command, cwd, new Map(a.vars), 0, null, true);
    }
  } catch (error) {
    a.uncover('unparsed', command, `the command could not be followed (${(error as Error).message}), so the digest may not cover what it runs.`);
  }
  return { files: [...a.files], folders: [...a.folders], uncovered: a.uncovered, rewrites: a.rewrites };
}

/**
 * Package runners in a command, from its `uncovered` analysis (kept for callers that only need
 * to know whether a command runs code chosen at run time). Never throws.
 */
export async function uncoveredOf(command: string | null | undefined, args: readonly string[] | null | undefined, ctx: CoverageContext): Promise<HookUncovered[]> {
  if (!command) return [];
  return (await analyzeCommand(command, args, ctx)).uncovered;
}
