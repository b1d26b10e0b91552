/**
 * Followers for interpreters: shells (`bash x.sh`, `source`, `eval`, `-c`), Node (`node`, `tsx`,
 * `deno run`, preloads), Python (`python x.py`, `-m`), other interpreters (ruby, perl, ...), and an
 * interpreter that reads its program from stdin. Each finds the file it runs and covers it through
 * the {@link Walker}, or reports why it cannot.
 */
import path from 'node:path';
import type { SimpleCommand } from '../../formats/shell';
import { packageScript } from './buildTools';
import { isDir, isFile, oneLine, resolveNode } from './files';
import { codeLoads, isSystemPath } from './programs';
import type { ArgWord, CommandContext, FileKind, Walker } from './types';

export async function shellProgram(a: Walker, name: string, rest: ArgWord[], cwd: string | null, vars: Map<string, string>, depth: number, whole: string, ctx: Pick<CommandContext, 'why' | 'stdin'> | undefined, cmd?: SimpleCommand): Promise<void> {
  void cmd;
  if (name === 'eval') {
    if (rest.every((w) => w.ok)) await a.shell(rest.map((w) => (w as { value: string }).value).join(' '), cwd, vars, depth + 1, null);
    else a.uncover('interpreter-code', whole, 'eval runs text built at run time, so the digest cannot cover it.');
    return;
  }
  if (name === 'source' || name === '.') {
    const file = rest[0];
    if (!file) return;
    if (!file.ok) return a.unknownWord(file, whole, cwd);
    // bash looks a slash-less name up in PATH first, then the working directory
    const abs = a.resolve(file.value, cwd, whole, ctx?.why ?? null);
    if (abs && !isSystemPath(abs)) await a.cover(abs, file, 'shell', cwd, vars, depth, vars.get('0') ?? file.value);
    return;
  }
  let j = 0;
  let fromStdin = false;
  while (j < rest.length) {
    const w = rest[j];
    if (!w.ok) return a.unknownWord(w, whole, cwd);
    if (w.value === '-c') {
      const code = rest[j + 1];
      if (!code) return;
      if (!code.ok) return a.uncover('interpreter-code', whole, `${name} -c runs text decided at run time (${code.raw}), so the digest cannot cover it.`);
      await a.shell(code.value, cwd, new Map(a.vars), depth + 1, null);
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
        const abs = a.resolve(v.value, cwd, whole, ctx?.why ?? null);
        if (abs) await a.cover(abs, v, 'shell', cwd, vars, depth, v.value);
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
    if (!file.ok) return a.unknownWord(file, whole, cwd);
    const abs = a.resolve(file.value, cwd, whole, ctx?.why ?? null);
    if (abs && !isSystemPath(abs)) await a.cover(abs, file, 'shell', cwd, vars, depth, file.value);
    await a.interpreterArgs(rest.slice(j + 1), cwd, whole, ctx?.why ?? null);
    return;
  }
  await stdinCode(a, name, 'shell', cwd, vars, depth, whole, ctx);
}

/** An interpreter that reads its program from stdin. */
export async function stdinCode(a: Walker, name: string, kind: FileKind, cwd: string | null, vars: Map<string, string>, depth: number, whole: string, ctx: Pick<CommandContext, 'why' | 'stdin'> | undefined): Promise<void> {
  const stdin = ctx?.stdin ?? null;
  if (stdin === null) {
    a.uncover('stdin-code', whole, `${name} reads its program from the hook's standard input, which the digest does not cover.`);
    return;
  }
  if ('text' in stdin) {
    if (kind === 'shell') await a.shell(stdin.text, cwd, new Map(a.vars), depth + 1, null);
    else if (codeLoads(stdin.text, kind)) a.uncover('interpreter-code', whole, `the ${name} code it reads loads other code, which the digest does not cover.`);
    return;
  }
  if ('unknown' in stdin) {
    a.uncover('stdin-code', whole, `${name} runs what ${oneLine(stdin.unknown)} produces at run time, so the digest cannot cover it.`);
    return;
  }
  for (const f of stdin.files) {
    if (!f.ok) {
      a.unknownWord(f, whole, cwd);
      continue;
    }
    const abs = a.resolve(f.value, cwd, whole, ctx?.why ?? null);
    if (abs && !isSystemPath(abs)) await a.cover(abs, f, kind, cwd, vars, depth, name);
  }
}

export async function nodeProgram(a: Walker, name: string, rest: ArgWord[], cwd: string | null, vars: Map<string, string>, depth: number, whole: string, ctx: Pick<CommandContext, 'why' | 'stdin'> | undefined): Promise<void> {
  let j = 0;
  if (name === 'deno' || name === 'bun') {
    // deno run/bun run FILE; bun x/deno run URL are package runners (handled before)
    if (rest[0]?.ok && /^(run|test)$/.test(rest[0].value)) j = 1;
    if (name === 'bun' && rest[0]?.ok && rest[0].value === 'run') return packageScript(a, 'bun', rest, cwd, vars, depth, whole, ctx?.why ?? null);
  }
  while (j < rest.length) {
    const w = rest[j];
    if (!w.ok) return a.unknownWord(w, whole, cwd);
    if (/^(-e|--eval|-p|--print)$/.test(w.value) || /^--(eval|print)=/.test(w.value)) {
      const code = w.value.includes('=') ? { ...w, value: w.value.slice(w.value.indexOf('=') + 1) } : rest[j + 1];
      if (code && (!code.ok || codeLoads(code.value, 'node'))) a.uncover('interpreter-code', whole, `the inline ${name} code loads modules or files, which the digest does not cover.`);
      return;
    }
    if (/^(-r|--require|--import|--loader|--experimental-loader)$/.test(w.value) || /^--(require|import|loader)=/.test(w.value)) {
      const v = w.value.includes('=') ? { ...w, value: w.value.slice(w.value.indexOf('=') + 1) } : rest[j + 1];
      j += w.value.includes('=') ? 1 : 2;
      if (v?.ok && /^\.{0,2}\//.test(v.value) && cwd) {
        const abs = await resolveNode(path.resolve(cwd, v.value));
        if (abs) await a.cover(abs, null, 'node', cwd, vars, depth, v.value);
      } else if (v) a.uncover('module-resolution', whole, `${v.raw} is preloaded by module resolution (node_modules), which the digest does not cover.`);
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
  if (!file || (file.ok && file.value === '-')) return stdinCode(a, name, 'node', cwd, vars, depth, whole, ctx);
  if (!file.ok) return a.unknownWord(file, whole, cwd);
  if (/^(https?|npm|jsr):/.test(file.value)) return a.uncover('package-runner', whole, `${file.value} is fetched at run time, so the digest cannot cover it.`);
  const base = a.resolve(file.value, cwd, whole, ctx?.why ?? null);
  if (!base || isSystemPath(base)) return;
  const abs = (await resolveNode(base)) ?? base;
  await a.cover(abs, abs === base ? file : { ...file, at: null }, 'node', cwd, vars, depth, file.value);
  await a.interpreterArgs(rest.slice(j + 1), cwd, whole, ctx?.why ?? null);
}

export async function pythonProgram(a: Walker, rest: ArgWord[], cwd: string | null, vars: Map<string, string>, depth: number, whole: string, ctx: Pick<CommandContext, 'why' | 'stdin'> | undefined): Promise<void> {
  let j = 0;
  while (j < rest.length) {
    const w = rest[j];
    if (!w.ok) return a.unknownWord(w, whole, cwd);
    if (w.value === '-c') {
      const code = rest[j + 1];
      if (code && (!code.ok || codeLoads(code.value, 'python'))) a.uncover('interpreter-code', whole, 'the inline python code imports or opens other code, which the digest does not cover.');
      return;
    }
    if (w.value === '-m') {
      const mod = rest[j + 1];
      if (!mod) return;
      if (!mod.ok) return a.unknownWord(mod, whole, cwd);
      // sys.path[0] is the working directory for -m
      const rel = mod.value.split('.').join(path.sep);
      const found = cwd ? ((await isFile(path.resolve(cwd, `${rel}.py`))) ? path.resolve(cwd, `${rel}.py`) : (await isFile(path.resolve(cwd, rel, '__main__.py'))) ? path.resolve(cwd, rel, '__main__.py') : null) : null;
      if (!found) return a.uncover('module-resolution', whole, `python -m ${mod.value} runs whatever module resolution finds (site-packages, PYTHONPATH), which the digest does not cover.`);
      await a.cover(found, null, 'python', cwd, vars, depth, found);
      if (found.endsWith('__main__.py')) {
        const init = path.join(path.dirname(found), '__init__.py');
        if (await isFile(init)) await a.cover(init, null, 'python', cwd, vars, depth, init);
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
  if (!file || (file.ok && file.value === '-')) return stdinCode(a, 'python', 'python', cwd, vars, depth, whole, ctx);
  if (!file.ok) return a.unknownWord(file, whole, cwd);
  const abs = a.resolve(file.value, cwd, whole, ctx?.why ?? null);
  if (!abs || isSystemPath(abs)) return;
  const main = (await isDir(abs)) ? path.join(abs, '__main__.py') : abs;
  await a.cover(main, main === abs ? file : { ...file, at: null }, 'python', cwd, vars, depth, file.value);
  await a.interpreterArgs(rest.slice(j + 1), cwd, whole, ctx?.why ?? null);
}

export async function otherInterpreter(a: Walker, name: string, rest: ArgWord[], cwd: string | null, vars: Map<string, string>, depth: number, whole: string, ctx: Pick<CommandContext, 'why' | 'stdin'> | undefined): Promise<void> {
  let j = 0;
  while (j < rest.length) {
    const w = rest[j];
    if (!w.ok) return a.unknownWord(w, whole, cwd);
    if (/^(-e|-E|-r|--eval|-Command|-c|-f|-File)$/i.test(w.value)) {
      const v = rest[j + 1];
      if (/^-(f|File)$/i.test(w.value) && v?.ok && cwd) {
        const abs = path.resolve(cwd, v.value);
        if (!isSystemPath(abs)) await a.cover(abs, v, 'other', cwd, vars, depth, v.value);
        return;
      }
      if (/^-r$/.test(w.value) && name === 'ruby') {
        a.uncover('module-resolution', whole, `ruby -r loads a library by name, which the digest does not cover.`);
        j += 2;
        continue;
      }
      if (v && (!v.ok || codeLoads(v.value, 'other'))) a.uncover('interpreter-code', whole, `the inline ${name} code loads other code, which the digest does not cover.`);
      return;
    }
    if (/^-M/.test(w.value) && name === 'perl') a.uncover('module-resolution', whole, 'perl -M loads a module by name, which the digest does not cover.');
    if (!w.value.startsWith('-') || w.value === '-') break;
    j++;
  }
  const file = rest[j];
  if (!file || (file.ok && file.value === '-')) return stdinCode(a, name, 'other', cwd, vars, depth, whole, ctx);
  if (!file.ok) return a.unknownWord(file, whole, cwd);
  if (name === 'awk' || name === 'gawk') return; // an awk program text, not a file
  const abs = a.resolve(file.value, cwd, whole, ctx?.why ?? null);
  if (!abs || isSystemPath(abs)) return;
  await a.cover(abs, file, 'other', cwd, vars, depth, file.value);
  await a.interpreterArgs(rest.slice(j + 1), cwd, whole, ctx?.why ?? null);
}
