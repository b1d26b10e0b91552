/**
 * Followers for build tools that run recipes from a file: make/gmake/just (the Makefile or justfile
 * they read, its literal includes, each recipe line as shell) and npm/pnpm/yarn/bun scripts (the
 * nearest package.json, its pre/post scripts, a bin from node_modules/.bin). Installs are reported
 * as package runners.
 */
import path from 'node:path';
import { findUp, isFile, readHead } from './files';
import { INSTALLS } from './programs';
import { MAX_DEPTH, type ArgWord, type Walker } from './types';

export async function makeProgram(a: Walker, name: string, rest: ArgWord[], cwd: string | null, vars: Map<string, string>, depth: number, whole: string, why: string | null): Promise<void> {
  let dir = cwd;
  let file: string | null = null;
  for (let j = 0; j < rest.length; j++) {
    const w = rest[j];
    if (!w.ok) return a.unknownWord(w, whole, cwd);
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
  if (dir === null) return void a.uncover('dynamic-path', whole, `${name} reads its file from a working directory that is not known here (${why ?? 'unknown'}).`);
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
  await makefile(a, found, dir, vars, depth + 1, name);
}

/** Covers a Makefile (or justfile), its literal `include`s, and what its recipe lines run. */
export async function makefile(a: Walker, abs: string, dir: string, vars: Map<string, string>, depth: number, tool: string): Promise<void> {
  if (!a.add(abs) || a.analyzed.has(abs) || depth > MAX_DEPTH) return;
  a.analyzed.add(abs);
  const text = await readHead(abs);
  if (!text) return;
  const shown = a.shown(abs);
  const lines = text.text.replace(/\\\n/g, ' ').split('\n');
  for (const line of lines) {
    const inc = /^\s*(-?include|sinclude|import)\s+(.+)$/.exec(line);
    if (inc && tool !== 'just') {
      for (const f of inc[2].trim().split(/\s+/)) {
        if (/[$*?[]/.test(f)) a.uncover('dynamic-path', `${shown}: ${line.trim()}`, `${shown} includes a file named at run time, which the digest cannot cover.`);
        else if (await isFile(path.resolve(dir, f))) await makefile(a, path.resolve(dir, f), dir, vars, depth + 1, tool);
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
      if (/\$[({]|\{\{/.test(program)) a.uncover('dynamic-path', `${shown}: ${body}`, `a recipe of ${shown} runs a program named by a ${tool} variable, which the digest cannot cover.`);
      await a.shell(body.replace(/\$\$/g, '$').replace(/\$\([^)]*\)|\$\{[^}]*\}|\{\{[^}]*\}\}/g, 'MAKEVAR'), dir, new Map(a.vars), depth + 1, shown);
      continue;
    }
    await a.shell(body.replace(/\$\$/g, '$'), dir, new Map(a.vars), depth + 1, shown);
  }
}

export async function packageScript(a: Walker, tool: string, rest: ArgWord[], cwd: string | null, vars: Map<string, string>, depth: number, whole: string, why: string | null): Promise<void> {
  const sub = rest[0];
  if (!sub) return;
  if (!sub.ok) return a.unknownWord(sub, whole, cwd);
  if (INSTALLS.has(sub.value)) return void a.uncover('package-runner', whole, `${tool} ${sub.value} downloads packages and runs their install scripts, which the digest cannot cover.`);
  let script: string | null = null;
  if (['run', 'run-script', 'rum', 'urn'].includes(sub.value)) {
    const s = rest.slice(1).find((w) => !(w.ok && w.value.startsWith('-')));
    if (!s) return;
    if (!s.ok) return a.unknownWord(s, whole, cwd);
    script = s.value;
  } else if (['test', 't', 'start', 'stop', 'restart'].includes(sub.value)) script = sub.value === 't' ? 'test' : sub.value;
  else if (tool === 'yarn' || tool === 'pnpm' || tool === 'bun') script = sub.value.startsWith('-') ? null : sub.value;
  if (script === null) return;
  if (cwd === null) return void a.uncover('dynamic-path', whole, `${tool} reads package.json from a working directory that is not known here (${why ?? 'unknown'}).`);
  const pkgPath = await findUp(cwd, 'package.json', a.ctx.projectDir);
  if (!pkgPath) return;
  a.add(pkgPath);
  const text = await readHead(pkgPath);
  let scripts: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(text?.text ?? '') as { scripts?: Record<string, unknown> };
    scripts = parsed && typeof parsed.scripts === 'object' && parsed.scripts ? parsed.scripts : {};
  } catch {
    a.uncover('unparsed', a.shown(pkgPath), `${a.shown(pkgPath)} is not valid JSON, so the script ${tool} runs is not known.`);
    return;
  }
  const names = tool === 'npm' || tool === 'pnpm' ? [`pre${script}`, script, `post${script}`] : [script];
  const pkgDir = path.dirname(pkgPath);
  let any = false;
  for (const n of names) {
    const body = scripts[n];
    if (typeof body !== 'string') continue;
    any = true;
    await a.shell(body, pkgDir, new Map(a.vars), depth + 1, `npm script "${n}" of ${a.shown(pkgPath)}`);
  }
  if (!any && (tool === 'yarn' || tool === 'bun' || tool === 'pnpm')) {
    // `yarn x` without a script named x runs the bin x from node_modules, or a file (bun)
    const bin = await findUp(cwd, path.join('node_modules', '.bin', script), a.ctx.projectDir);
    if (bin) a.uncover('module-resolution', whole, `${tool} ${script} runs ${script} from node_modules/.bin, whose package code the digest does not cover.`);
    else if (tool === 'bun' && (await isFile(path.resolve(cwd, script)))) await a.cover(path.resolve(cwd, script), null, 'node', cwd, vars, depth, script);
  }
}
