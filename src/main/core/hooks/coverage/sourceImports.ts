/**
 * What a covered script loads by itself: a Node file's relative `require`/`import`s (followed) and
 * package imports (reported as module resolution), a Python file's sibling modules (followed).
 */
import { builtinModules } from 'node:module';
import path from 'node:path';
import { isFile, resolveNode } from './files';
import { isSystemPath } from './programs';
import type { Walker } from './types';

export async function nodeImports(a: Walker, abs: string, text: string, depth: number): Promise<void> {
  const dir = path.dirname(abs);
  const shown = a.shown(abs);
  const specs = new Set<string>();
  const re = /\brequire\s*\(\s*(['"`])([^'"`]+)\1\s*\)|\bimport\s*\(\s*(['"`])([^'"`]+)\3\s*\)|\b(?:import|export)\s+(?:[^'"`;]*?\sfrom\s+)?(['"])([^'"]+)\5/g;
  for (let m = re.exec(text); m; m = re.exec(text)) specs.add(m[2] ?? m[4] ?? m[6]);
  if (/\brequire\s*\(\s*[^'"`\s)]|\bimport\s*\(\s*[^'"`\s)]/.test(text)) a.uncover('dynamic-path', shown, `${shown} requires or imports a module by a computed name, which the digest cannot cover.`);
  for (const spec of specs) {
    if (/^\.{1,2}(\/|$)/.test(spec) || spec.startsWith('/')) {
      const found = await resolveNode(path.resolve(dir, spec));
      if (found && !isSystemPath(found)) await a.cover(found, null, found.endsWith('.json') ? 'other' : 'node', dir, new Map(), depth, found);
    } else if (!spec.startsWith('node:') && !builtinModules.includes(spec.split('/')[0]) && !builtinModules.includes(spec)) {
      a.uncover('module-resolution', `${shown}: ${spec}`, `${shown} loads the package "${spec}" through module resolution (node_modules), which the digest does not cover.`);
    }
  }
}

export async function pythonImports(a: Walker, abs: string, text: string, depth: number): Promise<void> {
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
        await a.cover(candidate, null, 'python', dir, new Map(), depth, candidate);
        break;
      }
    }
  }
}
