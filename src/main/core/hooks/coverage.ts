import { promises as fs } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import type { Parser } from 'web-tree-sitter';
import type { HookUncovered } from '../../../shared/contract';
import { bashParser, expandWord, literalText, parseShellSync, type Expanded, type ShellScript, type SimpleCommand, type Word } from '../formats/shell';

/**
 * What a hook or MCP server command executes, as far as it can be known before it runs: the files
 * whose bytes decide what runs (to be hashed into the digest), what cannot be covered (to be shown
 * as "not covered by the digest: …"), and where in the command line each covered file is named
 * (so the run can execute a verified copy instead).
 */
export interface Coverage {
  /** Absolute paths of the files the command runs, sources, requires or reads as a program (Makefile, package.json), in order of discovery, unique. */
  files: string[];
  /** Folders of scripts that locate their siblings at run time (`$(dirname "$0")`, `__dirname`): their regular files are hashed too (bounded). */
  folders: string[];
  uncovered: HookUncovered[];
  /** Spans of the top-level command line (shell form) or argument indices (exec form) that name a covered file, for running the verified copy. */
  rewrites: Array<{ start: number; end: number; abs: string } | { arg: number; abs: string }>;
}

/** Where and with what a command runs. */
export interface CoverageContext {
  /** The project folder: the default working directory and `$CLAUDE_PROJECT_DIR`. */
  projectDir: string;
  homeDir: string;
  /** `${CLAUDE_PLUGIN_ROOT}` of a plugin hook or server, else null. */
  pluginRoot: string | null;
  /** The working directory when it is not the project folder (an MCP server's `cwd`), absolute. */
  cwd?: string;
  /** Variables the handler sets itself (its `env`), known at run time. */
  env?: Readonly<Record<string, string>>;
}

/** Most files one command's coverage follows (scripts, sources, imports, config files). */
export const MAX_COVERED_FILES = 64;
/** Most bytes of one file read to look for what it sources or imports. */
export const MAX_ANALYZED_BYTES = 512 * 1024;
/** Most nested scripts, sources and `-c` strings followed. */
const MAX_DEPTH = 8;

/** Package runners: they fetch and run code chosen at run time, which no digest of the repository can cover. */
const PACKAGE_RUNNERS: ReadonlyArray<{ program: string; sub?: string }> = [
  { program: 'npx' },
  { program: 'bunx' },
  { program: 'pnpx' },
  { program: 'uvx' },
  { program: 'pnpm', sub: 'dlx' },
  { program: 'pnpm', sub: 'exec' },
  { program: 'yarn', sub: 'dlx' },
  { program: 'yarn', sub: 'exec' },
  { program: 'npm', sub: 'exec' },
  { program: 'npm', sub: 'x' },
  { program: 'pipx', sub: 'run' },
  { program: 'uv', sub: 'run' },
  { program: 'uv', sub: 'tool' },
  { program: 'bun', sub: 'x' },
  { program: 'deno', sub: 'run' },
  { program: 'go', sub: 'run' },
  { program: 'cargo', sub: 'run' },
  { program: 'dotnet', sub: 'run' },
  { program: 'docker', sub: 'run' },
  { program: 'podman', sub: 'run' },
];

/** Package-manager subcommands that install (and so run dependency install scripts). */
const INSTALLS = new Set(['install', 'i', 'ci', 'add', 'update', 'up', 'upgrade', 'create', 'init', 'rebuild']);
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'busybox']);
const NODES = new Set(['node', 'nodejs', 'tsx', 'ts-node', 'bun']);
const PYTHONS = /^(python|python[23](\.\d+)?|pypy3?)$/;
/** Other interpreters whose first non-option argument is the script and `-e` (or `-c`) inline code. */
const OTHER_INTERPRETERS = new Set(['ruby', 'perl', 'php', 'lua', 'luajit', 'Rscript', 'elixir', 'osascript', 'pwsh', 'powershell', 'fish', 'tclsh', 'awk', 'gawk']);
/** Programs that run their remaining arguments as a command; the value is how many option words take an argument. */
const WRAPPERS: Record<string, { valued: RegExp; skipFirst?: RegExp }> = {
  env: { valued: /^-(u|C|S|-unset|-chdir|-split-string)$/ },
  exec: { valued: /^-a$/ },
  command: { valued: /^$/ },
  builtin: { valued: /^$/ },
  nohup: { valued: /^$/ },
  nice: { valued: /^-n$/ },
  time: { valued: /^-(f|o)$/ },
  timeout: { valued: /^-(s|k|-signal|-kill-after)$/, skipFirst: /^[\d.]+[smhd]?$/ },
  sudo: { valued: /^-(u|g|C|D|h|p|r|t|U)$/ },
  doas: { valued: /^-(u|C)$/ },
  stdbuf: { valued: /^-(i|o|e)$/ },
  setsid: { valued: /^$/ },
  ionice: { valued: /^-(c|n|p)$/ },
  chrt: { valued: /^$/ },
  caffeinate: { valued: /^-(t|w)$/ },
  xargs: { valued: /^-(a|d|E|I|L|n|P|s)$/ },
  flock: { valued: /^-(w|E)$/, skipFirst: /./ },
};
/** Builtins and programs that run nothing from the repository (their file arguments are data). */
const INERT = new Set(['echo', 'printf', 'cat', 'true', 'false', 'exit', 'return', 'test', '[', '[[', 'read', 'cd', 'pushd', 'popd', 'export', 'local', 'declare', 'readonly', 'unset', 'shift', 'set', 'shopt', 'trap', 'wait', 'jq', 'grep', 'sed', 'head', 'tail', 'wc', 'sort', 'tr', 'cut', 'printenv', 'date', 'sleep', 'mkdir', 'touch', 'rm', 'cp', 'mv', 'ls', 'git', 'dirname', 'basename', 'realpath', 'pwd']);

/** Names Atrium sets for a hook and their values, as the shell will see them. */
export function knownVariables(ctx: CoverageContext): Map<string, string> {
  const vars = new Map<string, string>();
  for (const [k, v] of Object.entries(ctx.env ?? {})) vars.set(k, v);
  for (const n of ['CLAUDE_PROJECT_DIR', 'GEMINI_PROJECT_DIR', 'BLADE_PROJECT_DIR', 'CODEX_PROJECT_DIR']) vars.set(n, ctx.projectDir);
  if (ctx.pluginRoot) for (const n of ['CLAUDE_PLUGIN_ROOT', 'BLADE_PLUGIN_ROOT']) vars.set(n, ctx.pluginRoot);
  vars.set('HOME', ctx.homeDir);
  return vars;
}

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

type At = { start: number; end: number } | { arg: number } | null;
type ArgWord = ({ ok: true; value: string } | { ok: false; reason: Extract<Expanded, { ok: false }>['reason']; detail: string }) & { raw: string; at: At };

class Analysis {
  readonly files = new Set<string>();
  readonly folders = new Set<string>();
  readonly uncovered: HookUncovered[] = [];
  readonly rewrites: Coverage['rewrites'] = [];
  readonly vars: Map<string, string>;
  private readonly analyzed = new Set<string>();

  constructor(private readonly parser: Parser | null, private readonly ctx: CoverageContext) {
    this.vars = knownVariables(ctx);
  }

  uncover(code: string, text: string, message: string): void {
    const t = oneLine(text);
    if (!this.uncovered.some((u) => u.code === code && u.text === t)) this.uncovered.push({ code, text: t, message });
  }

  /** Adds a file to the covered set; false when the bound is reached (then it is reported). */
  private add(abs: string): boolean {
    if (this.files.has(abs)) return true;
    if (this.files.size >= MAX_COVERED_FILES) {
      this.uncover('size-cap', this.shown(abs), `more than ${MAX_COVERED_FILES} files are involved; this one and any further are not hashed.`);
      return false;
    }
    this.files.add(abs);
    return true;
  }

  shown(abs: string): string {
    const rel = path.relative(this.ctx.projectDir, abs);
    if (!rel.startsWith('..') && !path.isAbsolute(rel)) return rel.split(path.sep).join('/') || '.';
    return abs;
  }

  /** Analyses a shell text (the hook's command line, a `-c` string, a script, a sourced file, an npm script). */
  async shell(text: string, cwd: string | null, vars: Map<string, string>, depth: number, origin: string | null, top = false): Promise<void> {
    if (depth > MAX_DEPTH) {
      this.uncover('size-cap', origin ?? text, `nesting deeper than ${MAX_DEPTH} levels is not followed.`);
      return;
    }
    if (!this.parser) {
      this.uncover('unparsed', text, 'the shell grammar could not be loaded, so what this command runs is not known.');
      return;
    }
    const script = parseShellSync(this.parser, text);
    if (!script.ok) {
      const e = script.errors[0];
      this.uncover('unparsed', origin ? `${origin}: ${text.slice(e.start, e.end + 40)}` : text.slice(Math.max(0, e.start - 20), e.end + 20), `${origin ?? 'the command'} has shell syntax the parser does not accept; what that part runs is not covered.`);
    }
    for (const cmd of script.commands) await this.simple(cmd, script, cwd, vars, depth, origin, top);
  }

  private expander(vars: Map<string, string>, cwd: string | null) {
    return {
      lookup: (n: string) => (n === 'PWD' ? cwd ?? undefined : vars.get(n)),
      substitute: (commands: readonly SimpleCommand[]): string | undefined => this.substitution(commands, vars, cwd),
    };
  }

  /** The output of a `$(...)` that only computes a path (`dirname "$0"`, `cd X && pwd`, `realpath X`), else undefined. */
  private substitution(commands: readonly SimpleCommand[], vars: Map<string, string>, cwd: string | null): string | undefined {
    const nested = new Set<SimpleCommand>();
    for (const c of commands) for (const w of c.words) for (const p of w.parts) if (p.kind === 'substitution') for (const n of p.commands) nested.add(n);
    let out = '';
    for (const c of commands) {
      if (nested.has(c)) continue;
      const here = this.cwdOf(c, cwd, vars);
      const env = this.expander(vars, here.cwd);
      const words = c.words.map((w) => expandWord(w, env));
      if (words.some((w) => !w.ok) || c.redirects.length || c.assignments.length) return undefined;
      const v = words.map((w) => (w as { value: string }).value);
      const args = v.slice(1).filter((x) => !x.startsWith('-'));
      switch (v[0]) {
        case 'cd':
          break;
        case 'pwd':
          if (here.cwd === null) return undefined;
          out += `${here.cwd}\n`;
          break;
        case 'dirname':
          if (args.length !== 1) return undefined;
          out += `${path.posix.dirname(args[0])}\n`;
          break;
        case 'basename':
          if (args.length < 1) return undefined;
          out += `${path.posix.basename(args[0], args[1])}\n`;
          break;
        case 'realpath':
        case 'readlink':
          if (args.length !== 1 || here.cwd === null || (v[0] === 'readlink' && !v.includes('-f'))) return undefined;
          out += `${path.resolve(here.cwd, args[0])}\n`;
          break;
        case 'echo':
          out += `${args.join(' ')}\n`;
          break;
        default:
          return undefined;
      }
    }
    return out;
  }

  private cwdOf(cmd: SimpleCommand, base: string | null, vars: Map<string, string>): { cwd: string | null; why: string | null } {
    if (cmd.cwdUncertain) return { cwd: null, why: 'a cd that may or may not run' };
    let cwd = base;
    for (const cd of cmd.cds) {
      if (cwd === null) break;
      const e = expandWord(cd, this.expander(vars, cwd));
      if (!e.ok) return { cwd: null, why: `cd ${cd.raw}` };
      cwd = path.resolve(cwd, e.value);
    }
    return { cwd, why: base === null ? 'an unknown working directory' : null };
  }

  private async simple(cmd: SimpleCommand, script: ShellScript, baseCwd: string | null, vars: Map<string, string>, depth: number, origin: string | null, top: boolean): Promise<void> {
    const { cwd, why } = this.cwdOf(cmd, baseCwd, vars);
    const env = this.expander(vars, cwd);
    if (cmd.words.length === 0 || cmd.declaration) {
      // NAME=value: later words see it (only when it surely ran and its value is known)
      for (const as of cmd.assignments) {
        const e = as.value ? expandWord(as.value, { ...env, lookup: (n) => env.lookup(n) }) : ({ ok: true, value: '' } as const);
        if (e.ok && !cmd.conditional && !cmd.inFunction && !cmd.inSubstitution) vars.set(as.name, e.value);
        else vars.delete(as.name);
      }
      if (cmd.declaration) return;
    }
    const words: ArgWord[] = cmd.words.map((w) => ({ ...quotedValue(w, env), raw: w.raw, at: top && !cmd.inSubstitution ? { start: w.start, end: w.end } : null }));
    const ctx = { cwd, why, script, stdin: this.stdinOf(cmd, script, cwd, vars) };
    await this.exec(words, cwd, vars, depth, origin, ctx, cmd, script);
  }

  /** Where an interpreter's stdin code comes from: a file (`< x.sh`, `cat x.sh |`), literal text (heredoc, here-string, `echo … |`), or unknown. */
  private stdinOf(cmd: SimpleCommand, script: ShellScript, cwd: string | null, vars: Map<string, string>): { files: ArgWord[] } | { text: string } | { unknown: string } | null {
    const env = this.expander(vars, cwd);
    const input = [...cmd.redirects].reverse().find((r) => r.op === '<' || r.op === '<<' || r.op === '<<-' || r.op === '<<<' || r.op === '<>');
    if (input?.heredoc) return input.heredoc.expands && /[$`]/.test(input.heredoc.text) ? { unknown: `heredoc with expansions` } : { text: input.heredoc.text };
    if (input?.target) {
      const e = quotedValue(input.target, env);
      if (input.op === '<<<') return e.ok ? { text: e.value } : { unknown: input.target.raw };
      return { files: [{ ...e, raw: input.target.raw, at: null }] };
    }
    if (cmd.stdinFrom === null) return null;
    if (cmd.stdinFrom === 'unknown') return { unknown: 'the output of a compound command' };
    const prev = script.commands[cmd.stdinFrom];
    const pv = prev.words.map((w) => quotedValue(w, env));
    const name = pv[0]?.ok ? path.basename(pv[0].value) : null;
    if (name === 'cat' && pv.slice(1).every((w) => !w.ok || !w.value.startsWith('-'))) return { files: prev.words.slice(1).map((w, i) => ({ ...pv[i + 1], raw: w.raw, at: null })) };
    if ((name === 'echo' || name === 'printf') && pv.every((w) => w.ok)) return { text: pv.slice(1).map((w) => (w as { value: string }).value).join(' ') };
    return { unknown: prev.words.map((w) => w.raw).join(' ') || 'a previous command' };
  }

  /**
   * Analyses one simple command from its expanded words: skips wrappers, then dispatches on the
   * program (a path, a shell, node, python, make, npm, a package runner, another interpreter).
   */
  async exec(words: ArgWord[], cwd: string | null, vars: Map<string, string>, depth: number, origin: string | null, ctx?: { cwd: string | null; why: string | null; script: ShellScript; stdin: ReturnType<Analysis['stdinOf']> }, cmd?: SimpleCommand, script?: ShellScript): Promise<void> {
    const where = origin ? `${origin}: ` : '';
    const whole = where + words.map((w) => w.raw).join(' ');
    let i = 0;
    // wrappers: env A=1 nice -n 5 timeout 3 bash x.sh
    while (i < words.length) {
      const w = words[i];
      if (!w.ok) break;
      const name = path.basename(w.value);
      const wrapper = WRAPPERS[name];
      if (!wrapper || (i === 0 && script?.functions.includes(name))) break;
      i++;
      let first = true;
      while (i < words.length) {
        const x = words[i];
        if (!x.ok) break;
        if (name === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(x.value)) i++;
        else if (x.value.startsWith('-') && x.value !== '-') i += wrapper.valued.test(x.value) ? 2 : 1;
        else if (first && wrapper.skipFirst?.test(x.value)) i++;
        else break;
        first = false;
      }
      if (name === 'xargs' || (name === 'command' && words.slice(1, i).some((x) => x.ok && /^-[vV]$/.test(x.value)))) {
        if (name === 'xargs' && i < words.length) this.uncover('dynamic-path', whole, 'xargs appends arguments read at run time, so the files this command runs are not known.');
        return;
      }
    }
    const program = words[i];
    if (!program) return;
    if (!program.ok) {
      if (script?.functions.length && program.raw.startsWith('$')) return this.unknownWord(program, whole, cwd);
      return this.unknownWord(program, whole, cwd);
    }
    const rest = words.slice(i + 1);
    const name = path.basename(program.value);
    if (i === 0 && script?.functions.includes(program.value)) return; // a function: its body is analysed with the text
    if (program.value.includes('/')) {
      const abs = this.resolve(program.value, cwd, whole, ctx?.why ?? null);
      if (abs === null) return;
      if (!isSystemPath(abs)) {
        const kind = await this.kindOf(abs);
        await this.cover(abs, program, kind, cwd, vars, depth, program.value);
        await this.interpreterArgs(rest, cwd, whole, ctx?.why ?? null);
        return;
      }
    }
    const runner = PACKAGE_RUNNERS.find((r) => r.program === name && (r.sub === undefined || (rest[0]?.ok && rest[0].value === r.sub)));
    if (runner) {
      const label = runner.sub ? `${runner.program} ${runner.sub}` : runner.program;
      const moving = movingSpec(runner.program, rest.slice(runner.sub ? 1 : 0));
      if (moving) this.uncover('moving-spec', whole, `${moving} is not pinned to a fixed version or digest, so what ${label} runs can change without any file here changing.`);
      this.uncover('package-runner', whole, `${label} runs code chosen at run time (a registry, a cache or an image), so the digest cannot cover it.`);
      return;
    }
    if (SHELLS.has(name) || name === 'source' || name === '.' || name === 'eval') return this.shellProgram(name, rest, cwd, vars, depth, whole, ctx, cmd);
    if (NODES.has(name) || name === 'deno') return this.nodeProgram(name, rest, cwd, vars, depth, whole, ctx);
    if (PYTHONS.test(name)) return this.pythonProgram(rest, cwd, vars, depth, whole, ctx);
    if (name === 'make' || name === 'gmake' || name === 'just') return this.makeProgram(name, rest, cwd, vars, depth, whole, ctx?.why ?? null);
    if (name === 'npm' || name === 'pnpm' || name === 'yarn' || name === 'bun') return this.packageScript(name, rest, cwd, vars, depth, whole, ctx?.why ?? null);
    if (OTHER_INTERPRETERS.has(name)) return this.otherInterpreter(name, rest, cwd, vars, depth, whole, ctx);
    if (origin?.startsWith('npm script') && cwd && !INERT.has(name)) {
      const bin = await findUp(cwd, path.join('node_modules', '.bin', name), this.ctx.projectDir);
      if (bin) this.uncover('module-resolution', whole, `${name} runs from node_modules/.bin, whose package code the digest does not cover.`);
    }
  }

  private unknownWord(w: ArgWord, whole: string, cwd: string | null): void {
    void cwd;
    if (w.ok) return;
    if (w.reason === 'split') this.uncover('word-split', whole, `${w.detail} is split or globbed by the shell at run time, so which files run is not known; quote the expansion ("$VAR").`);
    else this.uncover('dynamic-path', whole, `${w.raw} is decided at run time (${w.reason}), so the digest cannot cover what it runs.`);
  }

  /** An absolute path for a path word, or null (then an `uncovered` entry says why). */
  private resolve(value: string, cwd: string | null, whole: string, why: string | null): string | null {
    if (/^\/proc\/(self|thread-self)\/cwd(\/|$)/.test(value)) {
      if (cwd === null) {
        this.uncover('dynamic-path', whole, `${value} goes through the working directory, which is not known here (${why ?? 'unknown'}).`);
        return null;
      }
      return path.join(cwd, value.replace(/^\/proc\/(self|thread-self)\/cwd/, ''));
    }
    if (/^\/proc\/|^\/dev\/fd\/|^\/dev\/stdin/.test(value)) {
      this.uncover('dynamic-path', whole, `${value} is decided by the running process, so the digest cannot cover it.`);
      return null;
    }
    if (path.isAbsolute(value)) return path.normalize(value);
    if (cwd === null) {
      this.uncover('dynamic-path', whole, `${value} is relative to a working directory that is not known here (${why ?? 'unknown'}).`);
      return null;
    }
    return path.resolve(cwd, value);
  }

  /** Covers a file and follows what it runs. `invoked` is `$0` as the shell will see it. */
  private async cover(abs: string, w: ArgWord | null, kind: FileKind, cwd: string | null, vars: Map<string, string>, depth: number, invoked: string): Promise<void> {
    if (!this.add(abs)) return;
    if (w?.at) this.rewrites.push({ ...w.at, abs });
    if (this.analyzed.has(abs) || depth >= MAX_DEPTH) return;
    this.analyzed.add(abs);
    const text = await readHead(abs);
    if (text === null) return;
    const shown = this.shown(abs);
    // a binary file (or a sparse one) is hashed, not searched for the files it runs
    if (text.text.includes('\0')) {
      if (kind === 'shell' && text.truncated) this.uncover('size-cap', shown, `${shown} is larger than ${MAX_ANALYZED_BYTES / 1024} KiB and not text; it was not searched for the files it runs.`);
      return;
    }
    if (text.truncated && kind !== 'binary' && kind !== 'other') this.uncover('size-cap', shown, `${shown} is larger than ${MAX_ANALYZED_BYTES / 1024} KiB; only its first part was searched for the files it runs.`);
    if (selfLocating(text.text, kind)) this.coverFolder(abs);
    if (kind === 'shell') {
      const inner = new Map(this.vars);
      inner.set('0', invoked);
      inner.set('BASH_SOURCE', invoked);
      inner.set('BASH_SOURCE[0]', invoked);
      await this.shell(text.text, cwd, inner, depth + 1, shown);
    } else if (kind === 'node') await this.nodeImports(abs, text.text, depth + 1);
    else if (kind === 'python') await this.pythonImports(abs, text.text, depth + 1);
  }

  private coverFolder(abs: string): void {
    const dir = path.dirname(abs);
    // the workspace root or home itself is not a script's own folder
    if (dir === this.ctx.projectDir || dir === this.ctx.homeDir || dir === this.ctx.pluginRoot || dir === path.parse(dir).root) return;
    this.folders.add(dir);
  }

  private async kindOf(abs: string): Promise<FileKind> {
    const ext = path.extname(abs).toLowerCase();
    const head = await readHead(abs, 256);
    const first = head?.text.split('\n', 1)[0] ?? '';
    const shebang = /^#!\s*(\S+)(?:\s+(?:-\S+\s+)*(\S+))?/.exec(first);
    if (shebang) {
      const prog = path.basename(shebang[1]) === 'env' ? path.basename(shebang[2] ?? '') : path.basename(shebang[1]);
      if (SHELLS.has(prog)) return 'shell';
      if (NODES.has(prog) || prog === 'deno') return 'node';
      if (PYTHONS.test(prog)) return 'python';
      return 'other';
    }
    if (head && (/^\x7fELF|^MZ|^\xcf\xfa\xed\xfe/.test(head.text) || head.text.includes('\0'))) return 'binary';
    if (['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.jsx', '.tsx'].includes(ext)) return 'node';
    if (ext === '.py') return 'python';
    // a text file without a shebang that execve refuses is run by bash as a shell script
    return 'shell';
  }

  /** Non-option arguments of an interpreter that are existing files are hashed too (`bash run.sh check.py`). */
  private async interpreterArgs(rest: ArgWord[], cwd: string | null, _whole: string, _why: string | null): Promise<void> {
    for (const w of rest) {
      if (!w.ok || w.value.startsWith('-') || w.value === '' || cwd === null) continue;
      const abs = path.resolve(cwd, w.value);
      if (isSystemPath(abs) || !(await isFile(abs))) continue;
      this.add(abs);
    }
  }

  private async shellProgram(name: string, rest: ArgWord[], cwd: string | null, vars: Map<string, string>, depth: number, whole: string, ctx: { why: string | null; stdin: ReturnType<Analysis['stdinOf']> } | undefined, cmd?: SimpleCommand): Promise<void> {
    void cmd;
    if (name === 'eval') {
      if (rest.every((w) => w.ok)) await this.shell(rest.map((w) => (w as { value: string }).value).join(' '), cwd, vars, depth + 1, null);
      else this.uncover('interpreter-code', whole, 'eval runs text built at run time, so the digest cannot cover it.');
      return;
    }
    if (name === 'source' || name === '.') {
      const file = rest[0];
      if (!file) return;
      if (!file.ok) return this.unknownWord(file, whole, cwd);
      // bash looks a slash-less name up in PATH first, then the working directory
      const abs = this.resolve(file.value, cwd, whole, ctx?.why ?? null);
      if (abs && !isSystemPath(abs)) await this.cover(abs, file, 'shell', cwd, vars, depth, vars.get('0') ?? file.value);
      return;
    }
    let j = 0;
    let fromStdin = false;
    while (j < rest.length) {
      const w = rest[j];
      if (!w.ok) return this.unknownWord(w, whole, cwd);
      if (w.value === '-c') {
        const code = rest[j + 1];
        if (!code) return;
        if (!code.ok) return this.uncover('interpreter-code', whole, `${name} -c runs text decided at run time (${code.raw}), so the digest cannot cover it.`);
        await this.shell(code.value, cwd, new Map(this.vars), depth + 1, null);
        return;
      }
      if (w.value === '-s' || w.value === '-' || w.value === '--') {
        fromStdin = w.value !== '--';
        j++;
        if (w.value === '--') break;
        continue;
      }
      if (/^--(rcfile|init-file)$/.test(w.value) || /^[-+]o$/.test(w.value) || /^[-+]O$/.test(w.value)) {
        const v = rest[j + 1];
        if (/^--(rcfile|init-file)$/.test(w.value) && v?.ok) {
          const abs = this.resolve(v.value, cwd, whole, ctx?.why ?? null);
          if (abs) await this.cover(abs, v, 'shell', cwd, vars, depth, v.value);
        }
        j += 2;
        continue;
      }
      if (/^[-+]/.test(w.value)) {
        j++;
        continue;
      }
      break;
    }
    const file = fromStdin ? undefined : rest[j];
    if (file) {
      if (!file.ok) return this.unknownWord(file, whole, cwd);
      const abs = this.resolve(file.value, cwd, whole, ctx?.why ?? null);
      if (abs && !isSystemPath(abs)) await this.cover(abs, file, 'shell', cwd, vars, depth, file.value);
      await this.interpreterArgs(rest.slice(j + 1), cwd, whole, ctx?.why ?? null);
      return;
    }
    await this.stdinCode(name, 'shell', cwd, vars, depth, whole, ctx);
  }

  /** An interpreter that reads its program from stdin. */
  private async stdinCode(name: string, kind: FileKind, cwd: string | null, vars: Map<string, string>, depth: number, whole: string, ctx: { why: string | null; stdin: ReturnType<Analysis['stdinOf']> } | undefined): Promise<void> {
    const stdin = ctx?.stdin ?? null;
    if (stdin === null) {
      this.uncover('stdin-code', whole, `${name} reads its program from the hook's standard input, which the digest does not cover.`);
      return;
    }
    if ('text' in stdin) {
      if (kind === 'shell') await this.shell(stdin.text, cwd, new Map(this.vars), depth + 1, null);
      else if (codeLoads(stdin.text, kind)) this.uncover('interpreter-code', whole, `the ${name} code it reads loads other code, which the digest does not cover.`);
      return;
    }
    if ('unknown' in stdin) {
      this.uncover('stdin-code', whole, `${name} runs what ${oneLine(stdin.unknown)} produces at run time, so the digest cannot cover it.`);
      return;
    }
    for (const f of stdin.files) {
      if (!f.ok) {
        this.unknownWord(f, whole, cwd);
        continue;
      }
      const abs = this.resolve(f.value, cwd, whole, ctx?.why ?? null);
      if (abs && !isSystemPath(abs)) await this.cover(abs, f, kind, cwd, vars, depth, name);
    }
  }

  private async nodeProgram(name: string, rest: ArgWord[], cwd: string | null, vars: Map<string, string>, depth: number, whole: string, ctx: { why: string | null; stdin: ReturnType<Analysis['stdinOf']> } | undefined): Promise<void> {
    let j = 0;
    if (name === 'deno' || name === 'bun') {
      // deno run/bun run FILE; bun x/deno run URL are package runners (handled before)
      if (rest[0]?.ok && /^(run|test)$/.test(rest[0].value)) j = 1;
      if (name === 'bun' && rest[0]?.ok && rest[0].value === 'run') return this.packageScript('bun', rest, cwd, vars, depth, whole, ctx?.why ?? null);
    }
    while (j < rest.length) {
      const w = rest[j];
      if (!w.ok) return this.unknownWord(w, whole, cwd);
      if (/^(-e|--eval|-p|--print)$/.test(w.value) || /^--(eval|print)=/.test(w.value)) {
        const code = w.value.includes('=') ? { ...w, value: w.value.slice(w.value.indexOf('=') + 1) } : rest[j + 1];
        if (code && (!code.ok || codeLoads(code.value, 'node'))) this.uncover('interpreter-code', whole, `the inline ${name} code loads modules or files, which the digest does not cover.`);
        return;
      }
      if (/^(-r|--require|--import|--loader|--experimental-loader)$/.test(w.value) || /^--(require|import|loader)=/.test(w.value)) {
        const v = w.value.includes('=') ? { ...w, value: w.value.slice(w.value.indexOf('=') + 1) } : rest[j + 1];
        j += w.value.includes('=') ? 1 : 2;
        if (v?.ok && /^\.{0,2}\//.test(v.value) && cwd) {
          const abs = await resolveNode(path.resolve(cwd, v.value));
          if (abs) await this.cover(abs, null, 'node', cwd, vars, depth, v.value);
        } else if (v) this.uncover('module-resolution', whole, `${v.raw} is preloaded by module resolution (node_modules), which the digest does not cover.`);
        continue;
      }
      if (w.value === '-' ) break;
      if (w.value.startsWith('-')) {
        j += /^(--input-type|--conditions|-C|--title|--env-file|--max-old-space-size)$/.test(w.value) ? 2 : 1;
        continue;
      }
      break;
    }
    const file = rest[j];
    if (!file || (file.ok && file.value === '-')) return this.stdinCode(name, 'node', cwd, vars, depth, whole, ctx);
    if (!file.ok) return this.unknownWord(file, whole, cwd);
    if (/^(https?|npm|jsr):/.test(file.value)) return this.uncover('package-runner', whole, `${file.value} is fetched at run time, so the digest cannot cover it.`);
    const base = this.resolve(file.value, cwd, whole, ctx?.why ?? null);
    if (!base || isSystemPath(base)) return;
    const abs = (await resolveNode(base)) ?? base;
    await this.cover(abs, abs === base ? file : { ...file, at: null }, 'node', cwd, vars, depth, file.value);
    await this.interpreterArgs(rest.slice(j + 1), cwd, whole, ctx?.why ?? null);
  }

  private async pythonProgram(rest: ArgWord[], cwd: string | null, vars: Map<string, string>, depth: number, whole: string, ctx: { why: string | null; stdin: ReturnType<Analysis['stdinOf']> } | undefined): Promise<void> {
    let j = 0;
    while (j < rest.length) {
      const w = rest[j];
      if (!w.ok) return this.unknownWord(w, whole, cwd);
      if (w.value === '-c') {
        const code = rest[j + 1];
        if (code && (!code.ok || codeLoads(code.value, 'python'))) this.uncover('interpreter-code', whole, 'the inline python code imports or opens other code, which the digest does not cover.');
        return;
      }
      if (w.value === '-m') {
        const mod = rest[j + 1];
        if (!mod) return;
        if (!mod.ok) return this.unknownWord(mod, whole, cwd);
        // sys.path[0] is the working directory for -m
        const rel = mod.value.split('.').join(path.sep);
        const found = cwd ? ((await isFile(path.resolve(cwd, `${rel}.py`))) ? path.resolve(cwd, `${rel}.py`) : (await isFile(path.resolve(cwd, rel, '__main__.py'))) ? path.resolve(cwd, rel, '__main__.py') : null) : null;
        if (!found) return this.uncover('module-resolution', whole, `python -m ${mod.value} runs whatever module resolution finds (site-packages, PYTHONPATH), which the digest does not cover.`);
        await this.cover(found, null, 'python', cwd, vars, depth, found);
        if (found.endsWith('__main__.py')) {
          const init = path.join(path.dirname(found), '__init__.py');
          if (await isFile(init)) await this.cover(init, null, 'python', cwd, vars, depth, init);
        }
        return;
      }
      if (w.value === '-') break;
      if (w.value.startsWith('-')) {
        j += /^-(W|X|Q)$/.test(w.value) ? 2 : 1;
        continue;
      }
      break;
    }
    const file = rest[j];
    if (!file || (file.ok && file.value === '-')) return this.stdinCode('python', 'python', cwd, vars, depth, whole, ctx);
    if (!file.ok) return this.unknownWord(file, whole, cwd);
    const abs = this.resolve(file.value, cwd, whole, ctx?.why ?? null);
    if (!abs || isSystemPath(abs)) return;
    const main = (await isDir(abs)) ? path.join(abs, '__main__.py') : abs;
    await this.cover(main, main === abs ? file : { ...file, at: null }, 'python', cwd, vars, depth, file.value);
    await this.interpreterArgs(rest.slice(j + 1), cwd, whole, ctx?.why ?? null);
  }

  private async otherInterpreter(name: string, rest: ArgWord[], cwd: string | null, vars: Map<string, string>, depth: number, whole: string, ctx: { why: string | null; stdin: ReturnType<Analysis['stdinOf']> } | undefined): Promise<void> {
    let j = 0;
    while (j < rest.length) {
      const w = rest[j];
      if (!w.ok) return this.unknownWord(w, whole, cwd);
      if (/^(-e|-E|-r|--eval|-Command|-c|-f|-File)$/i.test(w.value)) {
        const v = rest[j + 1];
        if (/^-(f|File)$/i.test(w.value) && v?.ok && cwd) {
          const abs = path.resolve(cwd, v.value);
          if (!isSystemPath(abs)) await this.cover(abs, v, 'other', cwd, vars, depth, v.value);
          return;
        }
        if (/^-r$/.test(w.value) && name === 'ruby') {
          this.uncover('module-resolution', whole, `ruby -r loads a library by name, which the digest does not cover.`);
          j += 2;
          continue;
        }
        if (v && (!v.ok || codeLoads(v.value, 'other'))) this.uncover('interpreter-code', whole, `the inline ${name} code loads other code, which the digest does not cover.`);
        return;
      }
      if (/^-M/.test(w.value) && name === 'perl') this.uncover('module-resolution', whole, 'perl -M loads a module by name, which the digest does not cover.');
      if (!w.value.startsWith('-') || w.value === '-') break;
      j++;
    }
    const file = rest[j];
    if (!file || (file.ok && file.value === '-')) return this.stdinCode(name, 'other', cwd, vars, depth, whole, ctx);
    if (!file.ok) return this.unknownWord(file, whole, cwd);
    if (name === 'awk' || name === 'gawk') return; // an awk program text, not a file
    const abs = this.resolve(file.value, cwd, whole, ctx?.why ?? null);
    if (!abs || isSystemPath(abs)) return;
    await this.cover(abs, file, 'other', cwd, vars, depth, file.value);
    await this.interpreterArgs(rest.slice(j + 1), cwd, whole, ctx?.why ?? null);
  }

  private async makeProgram(name: string, rest: ArgWord[], cwd: string | null, vars: Map<string, string>, depth: number, whole: string, why: string | null): Promise<void> {
    let dir = cwd;
    let file: string | null = null;
    for (let j = 0; j < rest.length; j++) {
      const w = rest[j];
      if (!w.ok) return this.unknownWord(w, whole, cwd);
      const next = rest[j + 1];
      if ((w.value === '-C' || w.value === '--directory' || (name === 'just' && w.value === '-d')) && next?.ok) {
        dir = dir && path.resolve(dir, next.value);
        j++;
      } else if ((w.value === '-f' || w.value === '--file' || w.value === '--makefile' || (name === 'just' && w.value === '--justfile')) && next?.ok) {
        file = next.value;
        j++;
      } else if (/^-C./.test(w.value)) dir = dir && path.resolve(dir, w.value.slice(2));
      else if (/^-f./.test(w.value)) file = w.value.slice(2);
    }
    if (dir === null) return void this.uncover('dynamic-path', whole, `${name} reads its file from a working directory that is not known here (${why ?? 'unknown'}).`);
    const candidates = file ? [file] : name === 'just' ? ['justfile', 'Justfile', '.justfile'] : ['GNUmakefile', 'makefile', 'Makefile'];
    let found: string | null = null;
    for (const c of candidates) {
      const abs = path.resolve(dir, c);
      if (await isFile(abs)) {
        found = abs;
        break;
      }
    }
    if (!found) {
      // none yet: the first one a later write would create is what make reads; every candidate is watched by its absence
      return;
    }
    await this.makefile(found, dir, vars, depth + 1, name);
  }

  /** Covers a Makefile (or justfile), its literal `include`s, and what its recipe lines run. */
  private async makefile(abs: string, dir: string, vars: Map<string, string>, depth: number, tool: string): Promise<void> {
    if (!this.add(abs) || this.analyzed.has(abs) || depth > MAX_DEPTH) return;
    this.analyzed.add(abs);
    const text = await readHead(abs);
    if (!text) return;
    const shown = this.shown(abs);
    const lines = text.text.replace(/\\\n/g, ' ').split('\n');
    for (const line of lines) {
      const inc = /^\s*(-?include|sinclude|import)\s+(.+)$/.exec(line);
      if (inc && tool !== 'just') {
        for (const f of inc[2].trim().split(/\s+/)) {
          if (/[$*?[]/.test(f)) this.uncover('dynamic-path', `${shown}: ${line.trim()}`, `${shown} includes a file named at run time, which the digest cannot cover.`);
          else if (await isFile(path.resolve(dir, f))) await this.makefile(path.resolve(dir, f), dir, vars, depth + 1, tool);
        }
        continue;
      }
      const recipe = tool === 'just' ? /^[ \t]+(\S.*)$/.exec(line) : /^\t(.*)$/.exec(line);
      if (!recipe) continue;
      const body = recipe[1].replace(/^[@+-]+/, '').trim();
      if (!body || body.startsWith('#')) continue;
      if (/\$[({]|\{\{/.test(body.replace(/\$\$/g, ''))) {
        // a make variable: only the running make knows its value; say so only where it names what runs
        const program = body.split(/\s+/)[0];
        if (/\$[({]|\{\{/.test(program)) this.uncover('dynamic-path', `${shown}: ${body}`, `a recipe of ${shown} runs a program named by a ${tool} variable, which the digest cannot cover.`);
        await this.shell(body.replace(/\$\$/g, '$').replace(/\$\([^)]*\)|\$\{[^}]*\}|\{\{[^}]*\}\}/g, 'MAKEVAR'), dir, new Map(this.vars), depth + 1, shown);
        continue;
      }
      await this.shell(body.replace(/\$\$/g, '$'), dir, new Map(this.vars), depth + 1, shown);
    }
  }

  private async packageScript(tool: string, rest: ArgWord[], cwd: string | null, vars: Map<string, string>, depth: number, whole: string, why: string | null): Promise<void> {
    const sub = rest[0];
    if (!sub) return;
    if (!sub.ok) return this.unknownWord(sub, whole, cwd);
    if (INSTALLS.has(sub.value)) return void this.uncover('package-runner', whole, `${tool} ${sub.value} downloads packages and runs their install scripts, which the digest cannot cover.`);
    let script: string | null = null;
    if (['run', 'run-script', 'rum', 'urn'].includes(sub.value)) {
      const s = rest.slice(1).find((w) => !(w.ok && w.value.startsWith('-')));
      if (!s) return;
      if (!s.ok) return this.unknownWord(s, whole, cwd);
      script = s.value;
    } else if (['test', 't', 'start', 'stop', 'restart'].includes(sub.value)) script = sub.value === 't' ? 'test' : sub.value;
    else if (tool === 'yarn' || tool === 'pnpm' || tool === 'bun') script = sub.value.startsWith('-') ? null : sub.value;
    if (script === null) return;
    if (cwd === null) return void this.uncover('dynamic-path', whole, `${tool} reads package.json from a working directory that is not known here (${why ?? 'unknown'}).`);
    const pkgPath = await findUp(cwd, 'package.json', this.ctx.projectDir);
    if (!pkgPath) return;
    this.add(pkgPath);
    const text = await readHead(pkgPath);
    let scripts: Record<string, unknown> = {};
    try {
      const parsed = JSON.parse(text?.text ?? '') as { scripts?: Record<string, unknown> };
      scripts = parsed && typeof parsed.scripts === 'object' && parsed.scripts ? parsed.scripts : {};
    } catch {
      this.uncover('unparsed', this.shown(pkgPath), `${this.shown(pkgPath)} is not valid JSON, so the script ${tool} runs is not known.`);
      return;
    }
    const names = tool === 'npm' || tool === 'pnpm' ? [`pre${script}`, script, `post${script}`] : [script];
    const pkgDir = path.dirname(pkgPath);
    let any = false;
    for (const n of names) {
      const body = scripts[n];
      if (typeof body !== 'string') continue;
      any = true;
      await this.shell(body, pkgDir, new Map(this.vars), depth + 1, `npm script "${n}" of ${this.shown(pkgPath)}`);
    }
    if (!any && (tool === 'yarn' || tool === 'bun' || tool === 'pnpm')) {
      // `yarn x` without a script named x runs the bin x from node_modules, or a file (bun)
      const bin = await findUp(cwd, path.join('node_modules', '.bin', script), this.ctx.projectDir);
      if (bin) this.uncover('module-resolution', whole, `${tool} ${script} runs ${script} from node_modules/.bin, whose package code the digest does not cover.`);
      else if (tool === 'bun' && (await isFile(path.resolve(cwd, script)))) await this.cover(path.resolve(cwd, script), null, 'node', cwd, vars, depth, script);
    }
  }

  private async nodeImports(abs: string, text: string, depth: number): Promise<void> {
    const dir = path.dirname(abs);
    const shown = this.shown(abs);
    const specs = new Set<string>();
    const re = /\brequire\s*\(\s*(['"`])([^'"`]+)\1\s*\)|\bimport\s*\(\s*(['"`])([^'"`]+)\3\s*\)|\b(?:import|export)\s+(?:[^'"`;]*?\sfrom\s+)?(['"])([^'"]+)\5/g;
    for (let m = re.exec(text); m; m = re.exec(text)) specs.add(m[2] ?? m[4] ?? m[6]);
    if (/\brequire\s*\(\s*[^'"`\s)]|\bimport\s*\(\s*[^'"`\s)]/.test(text)) this.uncover('dynamic-path', shown, `${shown} requires or imports a module by a computed name, which the digest cannot cover.`);
    for (const spec of specs) {
      if (/^\.{1,2}(\/|$)/.test(spec) || spec.startsWith('/')) {
        const found = await resolveNode(path.resolve(dir, spec));
        if (found && !isSystemPath(found)) await this.cover(found, null, found.endsWith('.json') ? 'other' : 'node', dir, new Map(), depth, found);
      } else if (!spec.startsWith('node:') && !builtinModules.includes(spec.split('/')[0]) && !builtinModules.includes(spec)) {
        this.uncover('module-resolution', `${shown}: ${spec}`, `${shown} loads the package "${spec}" through module resolution (node_modules), which the digest does not cover.`);
      }
    }
  }

  private async pythonImports(abs: string, text: string, depth: number): Promise<void> {
    const dir = path.dirname(abs);
    const mods = new Set<string>();
    for (const line of text.split('\n')) {
      const from = /^\s*from\s+(\.*)([\w.]*)\s+import\s+(.+)$/.exec(line);
      if (from) {
        const up = Math.max(0, from[1].length - 1);
        const base = path.resolve(dir, ...Array(up).fill('..'));
        const names = from[2] ? [from[2].split('.').join(path.sep)] : from[3].replace(/[()]/g, '').split(',').map((s) => s.trim().split(/\s+/)[0]);
        for (const n of names) if (n && n !== '*') mods.add(path.join(from[1] ? base : dir, n));
        continue;
      }
      const imp = /^\s*import\s+([\w.,\s]+?)(?:\s+as\s+\w+)?\s*$/.exec(line);
      if (imp) for (const n of imp[1].split(',')) mods.add(path.join(dir, n.trim().split(/\s+/)[0].split('.').join(path.sep)));
    }
    for (const m of mods) {
      // sibling modules (sys.path[0] is the script's folder); anything else is an installed module
      for (const candidate of [`${m}.py`, path.join(m, '__init__.py')]) {
        if (await isFile(candidate)) {
          await this.cover(candidate, null, 'python', dir, new Map(), depth, candidate);
          break;
        }
      }
    }
  }
}

/**
 * The package or image spec a runner starts when it is not pinned (`pkg`, `pkg@latest`, `pkg@^1`,
 * `image`, `image:latest`, `image:1.2` (tags move); pinned are `pkg@1.2.3`, `pkg==1.2.3` and
 * `image@sha256:…`), else null. Unknown words are treated as moving.
 */
export function movingSpec(program: string, words: readonly ArgWord[]): string | null {
  const container = program === 'docker' || program === 'podman';
  const valued = container ? /^(-e|--env|-v|--volume|--name|-p|--publish|-w|--workdir|--entrypoint|--network|--net|-u|--user|--mount|--env-file|-l|--label|--platform|--pull|-h|--hostname|--add-host|--cpus|-m|--memory)$/ : /^(-p|--package|--from|--with|--python|-c|--call|--spec|--node-options)$/;
  let spec: string | null = null;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (!w.ok) return w.raw;
    if (w.value.startsWith('-')) {
      if (valued.test(w.value)) {
        const v = words[i + 1];
        if (!container && /^(-p|--package|--from)$/.test(w.value) && v) return v.ok && pinnedPackage(v.value) ? null : v.raw;
        i++;
      }
      continue;
    }
    spec = w.value;
    break;
  }
  if (spec === null) return null;
  if (container) return /@sha256:[0-9a-f]{64}$/.test(spec) ? null : spec;
  return pinnedPackage(spec) ? null : spec;
}

function pinnedPackage(spec: string): boolean {
  if (/==\d[\w.+-]*$/.test(spec)) return true;
  const at = spec.lastIndexOf('@');
  if (at <= 0) return false;
  return /^\d+\.\d+\.\d+([-+][\w.-]+)?$/.test(spec.slice(at + 1));
}

type FileKind = 'shell' | 'node' | 'python' | 'other' | 'binary';

/** A word's value with `$0`-style special handling kept to the expander. */
function quotedValue(w: Word, env: { lookup(n: string): string | undefined; substitute?(c: readonly SimpleCommand[]): string | undefined }): Expanded {
  const lit = literalText(w);
  if (lit !== null) return { ok: true, value: lit };
  return expandWord(w, env);
}

/** True when inline code loads other code (so covering its text is not enough). */
function codeLoads(code: string, kind: FileKind): boolean {
  if (kind === 'node') return /\b(require|import|eval|Function|child_process|spawn|exec|execSync|readFile|readFileSync|process\.binding|dlopen|vm|Worker|fetch)\b/.test(code);
  if (kind === 'python') return /\b(import|__import__|exec|eval|compile|open|runpy|subprocess|system|popen|execfile|importlib)\b/.test(code);
  return /\b(require|load|import|include|use|do|source|eval|exec|system|open|dofile|loadfile|Invoke-Expression|iex|\.\s)/.test(code) || /`/.test(code);
}

/** True when a script finds files by its own location (so its folder is covered and mirrored). */
function selfLocating(text: string, kind: FileKind): boolean {
  if (kind === 'shell') return /\$\{?0\b|BASH_SOURCE|\$\{?BASH_ARGV0/.test(text);
  if (kind === 'node') return /__dirname|__filename|import\.meta\.(url|dirname|filename)/.test(text);
  if (kind === 'python') return /__file__|sys\.argv\[0\]/.test(text);
  return false;
}

const SYSTEM_PREFIXES = ['/bin/', '/sbin/', '/usr/', '/lib/', '/lib32/', '/lib64/', '/etc/', '/System/', '/opt/homebrew/', '/nix/store/', '/dev/'];

/** Operating-system programs are not hashed: they change with OS updates, not with the repository. */
export function isSystemPath(abs: string): boolean {
  return SYSTEM_PREFIXES.some((p) => abs.startsWith(p));
}

async function isFile(abs: string): Promise<boolean> {
  try {
    return (await fs.stat(abs)).isFile();
  } catch {
    return false;
  }
}

async function isDir(abs: string): Promise<boolean> {
  try {
    return (await fs.stat(abs)).isDirectory();
  } catch {
    return false;
  }
}

/** Node's file resolution for a relative specifier (exact, extensions, package.json `main`, index). */
async function resolveNode(base: string): Promise<string | null> {
  if (await isFile(base)) return base;
  for (const ext of ['.js', '.mjs', '.cjs', '.json', '.ts', '.mts', '.cts', '.node']) if (await isFile(base + ext)) return base + ext;
  if (await isDir(base)) {
    const pkg = path.join(base, 'package.json');
    if (await isFile(pkg)) {
      try {
        const main = (JSON.parse((await readHead(pkg))?.text ?? '{}') as { main?: unknown }).main;
        if (typeof main === 'string') {
          const m = await resolveNode(path.resolve(base, main));
          if (m) return m;
        }
      } catch {
        // an invalid package.json: node falls back to index.js
      }
    }
    for (const ext of ['.js', '.mjs', '.cjs', '.json', '.node']) if (await isFile(path.join(base, `index${ext}`))) return path.join(base, `index${ext}`);
  }
  return null;
}

/** The nearest `rel` from `dir` upwards, not above `stop` (the project folder) unless dir is outside it. */
async function findUp(dir: string, rel: string, stop: string): Promise<string | null> {
  let d = dir;
  for (let i = 0; i < 64; i++) {
    const candidate = path.join(d, rel);
    if (await isFile(candidate)) return candidate;
    if (d === stop || path.dirname(d) === d) return null;
    d = path.dirname(d);
  }
  return null;
}

/** The first `max` bytes of a file as UTF-8 (never more, whatever its size), or null when unreadable. */
async function readHead(abs: string, max = MAX_ANALYZED_BYTES): Promise<{ text: string; truncated: boolean } | null> {
  let fh: fs.FileHandle | null = null;
  try {
    fh = await fs.open(abs, 'r');
    const st = await fh.stat();
    if (!st.isFile()) return null;
    const buf = Buffer.alloc(Math.min(max, st.size));
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return { text: buf.subarray(0, bytesRead).toString('utf8'), truncated: st.size > max };
  } catch {
    return null;
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

function oneLine(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > 200 ? `${t.slice(0, 199)}…` : t;
}

/**
 * Package runners in a command, from its `uncovered` analysis (kept for callers that only need
 * to know whether a command runs code chosen at run time). Never throws.
 */
export async function uncoveredOf(command: string | null | undefined, args: readonly string[] | null | undefined, ctx: CoverageContext): Promise<HookUncovered[]> {
  if (!command) return [];
  return (await analyzeCommand(command, args, ctx)).uncovered;
}
