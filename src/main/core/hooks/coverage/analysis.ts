/**
 * The analysis proper: one {@link Analysis} per command follows its shell text the way bash will
 * run it (assignments, working-directory changes, `$(...)` that only compute paths, stdin sources,
 * wrappers) and dispatches each program to its follower (interpreters, build tools, package
 * scripts). It owns the covered set, the folders, the rewrites and the `uncovered` report.
 */
import path from 'node:path';
import type { Parser } from 'web-tree-sitter';
import type { HookUncovered } from '../../../../shared/contract';
import { expandWord, literalText, parseShellSync, type Expanded, type ShellScript, type SimpleCommand, type Word } from '../../formats/shell';
import { makeProgram, packageScript } from './buildTools';
import { findUp, isFile, oneLine, readHead } from './files';
import { nodeProgram, otherInterpreter, pythonProgram, shellProgram } from './interpreters';
import { INERT, NODES, OTHER_INTERPRETERS, PACKAGE_RUNNERS, PYTHONS, SHELLS, WRAPPERS, isSystemPath, movingSpec, selfLocating } from './programs';
import { nodeImports, pythonImports } from './sourceImports';
import { MAX_ANALYZED_BYTES, MAX_COVERED_FILES, MAX_DEPTH, type ArgWord, type CommandContext, type Coverage, type CoverageContext, type FileKind, type StdinSource, type Walker } from './types';

/** Names Atrium sets for a hook and their values, as the shell will see them. */
export function knownVariables(ctx: CoverageContext): Map<string, string> {
  const vars = new Map<string, string>();
  for (const [k, v] of Object.entries(ctx.env ?? {})) vars.set(k, v);
  for (const n of ['CLAUDE_PROJECT_DIR', 'GEMINI_PROJECT_DIR', 'BLADE_PROJECT_DIR', 'CODEX_PROJECT_DIR']) vars.set(n, ctx.projectDir);
  if (ctx.pluginRoot) for (const n of ['CLAUDE_PLUGIN_ROOT', 'BLADE_PLUGIN_ROOT']) vars.set(n, ctx.pluginRoot);
  vars.set('HOME', ctx.homeDir);
  return vars;
}

export class Analysis implements Walker {
  readonly files = new Set<string>();
  readonly folders = new Set<string>();
  readonly uncovered: HookUncovered[] = [];
  readonly rewrites: Coverage['rewrites'] = [];
  readonly vars: Map<string, string>;
  readonly analyzed = new Set<string>();

  constructor(private readonly parser: Parser | null, readonly ctx: CoverageContext) {
    this.vars = knownVariables(ctx);
  }

  uncover(code: string, text: string, message: string): void {
    const t = oneLine(text);
    if (!this.uncovered.some((u) => u.code === code && u.text === t)) this.uncovered.push({ code, text: t, message });
  }

  /** Adds a file to the covered set; false when the bound is reached (then it is reported). */
  add(abs: string): boolean {
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
  private stdinOf(cmd: SimpleCommand, script: ShellScript, cwd: string | null, vars: Map<string, string>): StdinSource {
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
  async exec(words: ArgWord[], cwd: string | null, vars: Map<string, string>, depth: number, origin: string | null, ctx?: CommandContext, cmd?: SimpleCommand, script?: ShellScript): Promise<void> {
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
    if (SHELLS.has(name) || name === 'source' || name === '.' || name === 'eval') return shellProgram(this, name, rest, cwd, vars, depth, whole, ctx, cmd);
    if (NODES.has(name) || name === 'deno') return nodeProgram(this, name, rest, cwd, vars, depth, whole, ctx);
    if (PYTHONS.test(name)) return pythonProgram(this, rest, cwd, vars, depth, whole, ctx);
    if (name === 'make' || name === 'gmake' || name === 'just') return makeProgram(this, name, rest, cwd, vars, depth, whole, ctx?.why ?? null);
    if (name === 'npm' || name === 'pnpm' || name === 'yarn' || name === 'bun') return packageScript(this, name, rest, cwd, vars, depth, whole, ctx?.why ?? null);
    if (OTHER_INTERPRETERS.has(name)) return otherInterpreter(this, name, rest, cwd, vars, depth, whole, ctx);
    if (origin?.startsWith('npm script') && cwd && !INERT.has(name)) {
      const bin = await findUp(cwd, path.join('node_modules', '.bin', name), this.ctx.projectDir);
      if (bin) this.uncover('module-resolution', whole, `${name} runs from node_modules/.bin, whose package code the digest does not cover.`);
    }
  }

  unknownWord(w: ArgWord, whole: string, cwd: string | null): void {
    void cwd;
    if (w.ok) return;
    if (w.reason === 'split') this.uncover('word-split', whole, `${w.detail} is split or globbed by the shell at run time, so which files run is not known; quote the expansion ("$VAR").`);
    else this.uncover('dynamic-path', whole, `${w.raw} is decided at run time (${w.reason}), so the digest cannot cover what it runs.`);
  }

  /** An absolute path for a path word, or null (then an `uncovered` entry says why). */
  resolve(value: string, cwd: string | null, whole: string, why: string | null): string | null {
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
  async cover(abs: string, w: ArgWord | null, kind: FileKind, cwd: string | null, vars: Map<string, string>, depth: number, invoked: string): Promise<void> {
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
    } else if (kind === 'node') await nodeImports(this, abs, text.text, depth + 1);
    else if (kind === 'python') await pythonImports(this, abs, text.text, depth + 1);
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
  async interpreterArgs(rest: ArgWord[], cwd: string | null, _whole: string, _why: string | null): Promise<void> {
    for (const w of rest) {
      if (!w.ok || w.value.startsWith('-') || w.value === '' || cwd === null) continue;
      const abs = path.resolve(cwd, w.value);
      if (isSystemPath(abs) || !(await isFile(abs))) continue;
      this.add(abs);
    }
  }

}

/** A word's value with `$0`-style special handling kept to the expander. */
function quotedValue(w: Word, env: { lookup(n: string): string | undefined; substitute?(c: readonly SimpleCommand[]): string | undefined }): Expanded {
  const lit = literalText(w);
  if (lit !== null) return { ok: true, value: lit };
  return expandWord(w, env);
}
