import path from 'node:path';
import type { RuleCatalog } from './catalog';
import { findGeminiImports, geminiCodeRegions } from './agentViews/geminiImports';
import { findImportTokens } from './imports';
import type { RuleFile, RuleWarning } from './types';
import { warning } from './warnings';

/** Absolute path of a catalog display path (root-relative, `~/…` or absolute). */
function absoluteOf(catalog: RuleCatalog, display: string): string {
  if (display === '~' || display.startsWith('~/')) return path.join(catalog.homeDir, display.slice(1));
  if (path.isAbsolute(display)) return display;
  return path.join(catalog.root, display);
}

function inside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return !rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel);
}

/**
 * Imports Atrium's lenient catalog expands in a file Gemini CLI reads (`GEMINI.md`) but Gemini CLI
 * 0.61.0 does not (its grammar: `./agentViews/geminiImports.ts`): an `@path` after `(` or `[`, one
 * with trailing punctuation (Gemini keeps `notes.md:` as the path, finds no such file and puts an
 * "Import failed" comment in its place), a `~/` path, one inside a backtick region spanning lines,
 * or a target outside the project. One `gemini-skips-import` warning per such import, at its line.
 */
export function geminiImportWarnings(catalog: RuleCatalog, file: RuleFile): RuleWarning[] {
  if (file.format !== 'gemini' || !file.body || file.imports.length === 0) return [];
  const body = file.body;
  const lines = body.split('\n');
  const lineStarts: number[] = [];
  let at = 0;
  for (const l of lines) {
    lineStarts.push(at);
    at += l.length + 1;
  }
  const dir = path.dirname(file.absolutePath);
  const regions = geminiCodeRegions(body);
  const gemini = findGeminiImports(body)
    .filter((t) => !regions.some(([s, e]) => t.start >= s && t.start < e))
    .map((t) => path.resolve(dir, t.path));
  const lenient = findImportTokens(body);
  const out: RuleWarning[] = [];
  for (const imp of file.imports) {
    if (imp.depth !== 1 || imp.from !== file.relativePath) continue;
    const target = absoluteOf(catalog, imp.path);
    if (gemini.includes(target) && inside(catalog.root, target)) continue;
    const lineIndex = imp.line - file.bodyLine;
    const token = lenient.find((t) => t.line === lineIndex && absoluteOf(catalog, resolveLenient(t.token, file.absolutePath, catalog.homeDir)) === target)?.token;
    const lineText = lines[lineIndex] ?? '';
    const col = token ? lineText.indexOf(`@${token}`) : -1;
    const offset = col >= 0 ? (lineStarts[lineIndex] ?? 0) + col : -1;
    const written = col >= 0 ? (/^@\S*/.exec(lineText.slice(col))?.[0] ?? `@${token}`) : `@${token ?? imp.path}`;
    const before = col > 0 ? lineText[col - 1] : '';
    let why: string;
    let fix: string;
    if (token && (token === '~' || token.startsWith('~/'))) {
      why = `Gemini CLI does not expand ~ in imports, so it sends "${written}" as text.`;
      fix = 'Import the file with a path relative to this file, or copy it into the repository.';
    } else if (before && before !== ' ' && before !== '\t') {
      why = `Gemini CLI imports only an @path that follows a space or a line start, so it sends "${before}${written}" as text.`;
      fix = `Put a space before ${written}.`;
    } else if (token && written !== `@${token}`) {
      why = `Gemini CLI reads the path as "${written.slice(1)}" (it keeps trailing punctuation), finds no such file and puts an "Import failed" comment in its place.`;
      fix = `Put a space or a line break after @${token}.`;
    } else if (offset >= 0 && regions.some(([s, e]) => offset >= s && offset < e)) {
      why = 'Gemini CLI treats this @path as code: it stands between backticks (Gemini pairs backtick runs across lines).';
      fix = 'Check the backticks around this line; an unpaired backtick earlier in the file hides the import from Gemini.';
    } else if (!inside(catalog.root, target)) {
      why = 'Gemini CLI imports only files inside the project (its git root) and puts an "Import failed … Path traversal attempt" comment in its place.';
      fix = 'Copy the file into the repository and import it from there.';
    } else {
      why = 'Gemini CLI does not read this @path as an import.';
      fix = `Write the import as @${imp.path} after a space, with nothing attached after it.`;
    }
    out.push(warning('gemini-skips-import', 'warning', `Gemini CLI skips this import of ${imp.path}: ${why}`, imp.line, fix));
  }
  return out;
}

function resolveLenient(token: string, fileAbsolute: string, homeDir: string): string {
  if (token === '~' || token.startsWith('~/')) return path.join(homeDir, token.slice(1));
  if (path.isAbsolute(token)) return path.normalize(token);
  return path.resolve(path.dirname(fileAbsolute), token);
}
