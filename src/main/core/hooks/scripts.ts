import { createHash } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';
import type { HookScript } from '../../../shared/contract';
import { isAncestorOrSelf } from '../trust/paths';
import type { HandlerFields } from './parse';
import { lexShell, splitWords } from './shellWords';

/** The folders a command's paths are resolved against. */
export interface ScriptContext {
  /** The execution directory and `$CLAUDE_PROJECT_DIR` (the workspace folder). */
  projectDir: string;
  homeDir: string;
  /** `${CLAUDE_PLUGIN_ROOT}` of a plugin hook, else null. */
  pluginRoot: string | null;
}

/** Programs that run the file given as an argument (their non-flag arguments that are files are hashed). */
const INTERPRETERS = new Set([
  'bash', 'sh', 'zsh', 'dash', 'ksh', 'fish', 'source', '.', 'python', 'python2', 'python3', 'node', 'nodejs', 'deno', 'bun', 'tsx',
  'ts-node', 'npx', 'bunx', 'pnpx', 'uv', 'uvx', 'ruby', 'perl', 'php', 'pwsh', 'powershell', 'osascript', 'Rscript', 'lua', 'elixir',
  'java', 'go', 'cargo', 'dotnet', 'make', 'just',
]);

/** Programs that run the next word as the command (`env FOO=1 bash x.sh`, `sudo`, `exec`, ...). */
const WRAPPERS = new Set(['env', 'exec', 'sudo', 'doas', 'nohup', 'nice', 'time', 'command', 'builtin', 'timeout', 'xargs', 'caffeinate']);

/** Operating-system folders whose programs are not hashed (they change with OS updates, not with the repository). */
const SYSTEM_PREFIXES = ['/bin/', '/sbin/', '/usr/', '/lib/', '/lib32/', '/lib64/', '/etc/', '/System/', '/opt/homebrew/', '/nix/store/', '/proc/', '/dev/'];

/** Variables expanded when looking for scripts (Claude, Gemini, Blade and plugin placeholders, HOME). */
function expander(ctx: ScriptContext): (name: string) => string | undefined {
  return (name) => {
    if (name === 'CLAUDE_PROJECT_DIR' || name === 'GEMINI_PROJECT_DIR' || name === 'BLADE_PROJECT_DIR' || name === 'CODEX_PROJECT_DIR') return ctx.projectDir;
    if ((name === 'CLAUDE_PLUGIN_ROOT' || name === 'BLADE_PLUGIN_ROOT') && ctx.pluginRoot) return ctx.pluginRoot;
    if (name === 'HOME') return ctx.homeDir;
    return undefined;
  };
}

/**
 * Absolute paths of the files a handler's command executes or passes to an interpreter, in order
 * of appearance (issue 6 "Digest"): after expanding `$CLAUDE_PROJECT_DIR` / `${CLAUDE_PROJECT_DIR}`
 * / `${CLAUDE_PLUGIN_ROOT}` (and Gemini's/Blade's equivalents, `$HOME`, `~`), relative paths taken
 * from the project folder (the execution directory): the program of every simple command when it
 * is a path (`./x.sh`, `.claude/hooks/y.sh`), and every non-flag argument of an interpreter
 * (`bash x.sh`, `python3 y.py`, `node z.js`, `bash a.sh b.py`). Words after redirections, words
 * with unexpanded variables or substitutions, and operating-system programs are not candidates.
 * Whether a candidate exists is decided by {@link hashScripts}.
 */
export function scriptCandidates(fields: HandlerFields, ctx: ScriptContext): string[] {
  if (fields.type !== 'command' || !fields.command) return [];
  const expand = expander(ctx);
  const commands: Array<Array<{ text: string; usable: boolean }>> = [];
  if (fields.args) {
    const program = lexShell(fields.command, expand).items.find((i) => i.kind === 'word');
    const first = program && program.kind === 'word' ? { text: program.text, usable: !program.hasSubstitution } : { text: fields.command, usable: true };
    commands.push([first, ...fields.args.map((a) => ({ text: expandPlain(a, expand), usable: !/\$/.test(expandPlain(a, expand)) }))]);
  } else {
    collectCommands(fields.command, expand, commands, 0);
  }
  const out: string[] = [];
  const add = (word: string) => {
    const abs = path.resolve(ctx.projectDir, word);
    if (SYSTEM_PREFIXES.some((p) => abs.startsWith(p)) || out.includes(abs)) return;
    out.push(abs);
  };
  for (const words of commands) {
    let i = 0;
    // skip assignments and wrappers: FOO=1 env -i sudo bash x.sh
    while (i < words.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i].text) || WRAPPERS.has(path.basename(words[i].text)) || (i > 0 && words[i].text.startsWith('-') && WRAPPERS.has(path.basename(words[i - 1].text))))) i++;
    const program = words[i];
    if (!program) continue;
    if (program.usable && program.text.includes('/')) add(program.text);
    if (!INTERPRETERS.has(path.basename(program.text))) continue;
    for (const w of words.slice(i + 1)) {
      if (!w.usable || w.text.startsWith('-') || w.text === '') continue;
      add(w.text);
    }
  }
  return out;
}

function collectCommands(command: string, expand: (n: string) => string | undefined, out: Array<Array<{ text: string; usable: boolean }>>, depth: number): void {
  if (depth > 8) return;
  const lex = lexShell(command, expand);
  for (const words of splitWords(lex.items)) out.push(words.map((w) => ({ text: w.text, usable: !w.hasSubstitution })));
  for (const sub of lex.substitutions) collectCommands(sub, expand, out, depth + 1);
}

function expandPlain(text: string, expand: (n: string) => string | undefined): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (m, a: string | undefined, b: string | undefined) => expand((a ?? b)!) ?? m).replace(/^~(?=\/|$)/, expand('HOME') ?? '~');
}

/**
 * Hashes the candidates that are existing regular files (links followed): hex SHA-256 of their
 * bytes, their size, their shown path (workspace-relative POSIX inside the project folder, `~/…`
 * under the home directory, else absolute) and whether their real location is outside the project
 * folder. Missing files and folders are left out. Never throws.
 */
export async function hashScripts(candidates: readonly string[], ctx: ScriptContext): Promise<Array<HookScript & { abs: string }>> {
  const out: Array<HookScript & { abs: string }> = [];
  let realProject = ctx.projectDir;
  try {
    realProject = await fs.realpath(ctx.projectDir);
  } catch {
    // keep the given path
  }
  for (const abs of candidates) {
    try {
      const st = await fs.stat(abs);
      if (!st.isFile()) continue;
      const real = await fs.realpath(abs);
      const sha256 = await hashFile(real);
      out.push({ abs, path: shownPath(abs, ctx), sha256, size: st.size, outsideWorkspace: !isAncestorOrSelf(realProject, real) });
    } catch {
      // missing or unreadable: not a script we can hash (an unreadable script cannot run either)
    }
  }
  return out;
}

/** How a script path is shown and digested: relative inside the project, `~/…` under home, else absolute. */
export function shownPath(abs: string, ctx: ScriptContext): string {
  if (isAncestorOrSelf(ctx.projectDir, abs)) return path.relative(ctx.projectDir, abs).split(path.sep).join('/');
  if (isAncestorOrSelf(ctx.homeDir, abs)) return `~/${path.relative(ctx.homeDir, abs).split(path.sep).join('/')}`;
  return abs;
}

/** Hex SHA-256 of a file's bytes (streamed). */
export function hashFile(abs: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    const stream = createReadStream(abs);
    stream.on('data', (chunk) => hash.update(chunk));
    stream.on('error', reject);
    stream.on('end', () => resolve(hash.digest('hex')));
  });
}
