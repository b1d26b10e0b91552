import path from 'node:path';
import ignore from 'ignore';
import YAML from 'yaml';

/**
 * How Claude Code 2.1.318 reads one memory file (CLAUDE.md, CLAUDE.local.md, `.claude/rules/*.md`,
 * an imported file), reproduced from its bundled source (`c4e`/`iWo`/`cWo`/`Rd` in
 * `@anthropic-ai/claude-agent-sdk-linux-x64/claude`): frontmatter, `paths`, block-level HTML
 * comments and the `@import` grammar. Kept apart from Atrium's own, more lenient, reader
 * (`rules/imports.ts`) so the Claude view and lint can say where the two differ.
 */

/** One file as Claude Code reads it. */
export interface ClaudeMemoryText {
  /** The text Claude sends: body after the frontmatter, block-level `<!-- -->` comments removed (not trimmed). */
  content: string;
  /** `paths` patterns after Claude's normalisation (one trailing `/**` stripped), or null = unconditional. */
  paths: string[] | null;
  /** True when the file starts with a `---` block that Claude's YAML reading gave up on (so no `paths`). */
  frontmatterUnparsed: boolean;
  /** True when the frontmatter names `paths` but none is usable (`[]`, `""`, only `**`): Claude loads it always. */
  emptyPaths: boolean;
}

/** Claude reads `---\n…---` lazily up to the first `---` (its `ok` regex), after dropping one BOM. */
const FRONTMATTER = /^---\s*\n([\s\S]*?)---\s*\n?/;
/** Values Claude re-quotes before its second YAML attempt (`jm` in the bundle). */
const NEEDS_QUOTES = /[{}[\]*&#!|>%@`]|: /;

/**
 * Reads `raw` (the file as on disk) the way Claude Code 2.1.318 does: one leading BOM is dropped
 * before looking for `---`; the frontmatter is YAML, retried once with `key: value` lines whose
 * value holds YAML specials quoted (so `paths: **\/*.ts` works but a `- **\/*.ts` list item does
 * not); a failed parse means no `paths`, so the rule always loads. `paths` is a string or list;
 * strings split on commas outside braces, braces expand, one trailing `/**` is stripped, and a
 * list of only `**` means unconditional. Block-level HTML comments are removed from the body.
 */
export function readClaudeMemory(raw: string): ClaudeMemoryText {
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  const match = text.indexOf('---', 3) < 0 ? null : FRONTMATTER.exec(text);
  let body = raw;
  let paths: string[] | null = null;
  let frontmatterUnparsed = false;
  let emptyPaths = false;
  if (match) {
    body = text.slice(match[0].length);
    const data = parseYaml(match[1] ?? '');
    if (data === undefined) frontmatterUnparsed = (match[1] ?? '').trim() !== '';
    else if (data && typeof data === 'object' && !Array.isArray(data)) {
      const value = (data as Record<string, unknown>).paths;
      emptyPaths = value !== undefined && value !== null;
      if (value) {
        const list = splitPatterns(value)
          .map((p) => (p.endsWith('/**') ? p.slice(0, -3) : p))
          .filter((p) => p.length > 0);
        if (list.length > 0 && !list.every((p) => p === '**')) paths = list;
      }
      if (paths) emptyPaths = false;
    }
  }
  return { content: body.includes('<!--') ? stripBlockComments(body) : body, paths, frontmatterUnparsed, emptyPaths };
}

function parseYaml(source: string): unknown {
  try {
    return YAML.parse(source) ?? {};
  } catch {
    try {
      const quoted = source
        .split('\n')
        .map((line) => {
          const m = /^([a-zA-Z_-]+):\s+(\S.*)$/.exec(line);
          if (!m) return line;
          const value = m[2];
          if ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'"))) return line;
          if (!NEEDS_QUOTES.test(value)) return line;
          return `${m[1]}: "${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
        })
        .join('\n')
        .replace(/^\t+/gm, (tabs) => '  '.repeat(tabs.length));
      return YAML.parse(quoted) ?? {};
    } catch {
      return undefined;
    }
  }
}

function splitPatterns(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(splitPatterns);
  if (typeof value !== 'string') return [];
  const out: string[] = [];
  let current = '';
  let depth = 0;
  for (const ch of value) {
    if (ch === '{') depth++;
    else if (ch === '}') depth--;
    if (ch === ',' && depth === 0) {
      if (current.trim()) out.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (current.trim()) out.push(current.trim());
  return out.flatMap(expandBraces);
}

function expandBraces(pattern: string): string[] {
  const out: string[] = [];
  const stack = [pattern];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const m = /^([^{]*)\{([^}]+)\}(.*)$/.exec(next);
    if (!m || out.length + stack.length > 1000) {
      out.push(next);
      continue;
    }
    const parts = m[2].split(',').map((s) => s.trim());
    for (let i = parts.length - 1; i >= 0; i--) stack.push(m[1] + parts[i] + m[3]);
  }
  return out;
}

/**
 * True when Claude Code 2.1.318 attaches a rule with these `paths` for `relPath` (POSIX, relative
 * to the folder holding `.claude/`, or to the start folder for `~/.claude/rules`): Claude matches
 * with the `ignore` package (gitignore semantics), so `apps/**` also matches
 * `packages/x/apps/a.ts` and `*.ts` matches at any depth. Paths outside (`..`) never match.
 */
export function claudePathsMatch(paths: readonly string[], relPath: string): boolean {
  if (!relPath || relPath.startsWith('..') || path.isAbsolute(relPath)) return false;
  try {
    return ignore().add([...paths]).ignores(relPath);
  } catch {
    return false;
  }
}

/** The first `paths` pattern that matches `relPath` under {@link claudePathsMatch}, or null. */
export function claudeMatchingPattern(paths: readonly string[], relPath: string): string | null {
  return paths.find((p) => claudePathsMatch([p], relPath)) ?? null;
}

/** Extensions Claude Code 2.1.318 imports (`sWo`); a file without extension is imported too. */
const TEXT_EXTENSIONS = new Set(
  (
    '.md .txt .text .json .yaml .yml .toml .xml .csv .html .htm .css .scss .sass .less .js .ts .tsx .jsx .mjs .cjs .mts .cts .py .pyi .pyw .rb .erb .rake .go .rs .java .kt .kts .scala .c .cpp .cc .cxx .h .hpp .hxx .cs .swift .sh .bash .zsh .fish .ps1 .bat .cmd .env .ini .cfg .conf .config .properties .sql .graphql .gql .proto .vue .svelte .astro .ejs .hbs .pug .jade .php .pl .pm .lua .r .dart .ex .exs .erl .hrl .clj .cljs .cljc .edn .hs .lhs .elm .ml .mli .f .f90 .f95 .for .cmake .make .makefile .gradle .sbt .rst .adoc .asciidoc .org .tex .latex .lock .log .diff .patch'
  ).split(' '),
);

/** True when Claude Code imports a file with this name (text extension or none). */
export function claudeImportsExtension(file: string): boolean {
  const ext = path.extname(file).toLowerCase();
  return !ext || TEXT_EXTENSIONS.has(ext);
}

/** An `@path` Claude Code would follow: the token as written and the absolute path it resolves to. */
export interface ClaudeImportToken {
  token: string;
  absolute: string;
  /** 0-based line in the scanned text. */
  line: number;
}

/**
 * The `@path` imports Claude Code 2.1.318 follows in `content` (`cWo`): `(?:^|\s)@((?:[^\s\\]|\\ )+)`
 * in text only, so an `@` must follow line start or whitespace (or a markup boundary such as `**`),
 * trailing punctuation stays part of the path (`@notes.md:` names `notes.md:`), `#fragment` is cut
 * and `\ ` is a space; code spans, fenced and indented code and HTML blocks are skipped (table
 * rows are read as text, as Claude does)
 * (block comments are removed first, so line numbers count from the text without them). Accepted tokens start with `./`, `~/`, `/` or
 * `[A-Za-z0-9._-]`; relative ones resolve against `fileAbsolute`'s folder, `~/` against `homeDir`.
 * Limits: a line-based reading of Markdown (not Claude's `marked` lexer), so rare constructs
 * (lazy continuation lines, HTML inside lists) may differ.
 */
export function claudeImportTokens(content: string, fileAbsolute: string, homeDir: string): ClaudeImportToken[] {
  const out: ClaudeImportToken[] = [];
  const seen = new Set<string>();
  for (const { text, line } of textRuns(content.includes('<!--') ? stripBlockComments(content) : content)) {
    for (const m of text.matchAll(/(?:^|\s)@((?:[^\s\\]|\\ )+)/g)) {
      let token = m[1];
      const hash = token.indexOf('#');
      if (hash !== -1) token = token.slice(0, hash);
      token = token.replaceAll('\\ ', ' ');
      if (!token) continue;
      const ok = token.startsWith('./') || token.startsWith('~/') || (token.startsWith('/') && token !== '/') || (!token.startsWith('@') && !/^[#%^&*()]+/.test(token) && /^[a-zA-Z0-9._-]/.test(token));
      if (!ok) continue;
      const absolute = token.startsWith('~/') ? path.join(homeDir, token.slice(2)) : path.resolve(path.dirname(fileAbsolute), token);
      if (seen.has(absolute)) continue;
      seen.add(absolute);
      out.push({ token, absolute, line: line + text.slice(0, m.index).split('\n').length - 1 });
    }
  }
  return out;
}

/** Removes block-level `<!-- … -->` comments the way Claude does before sending a file (`jYe`). */
function stripBlockComments(content: string): string {
  const lines = content.split('\n');
  const out: string[] = [];
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      out.push(line);
      if (f && f[1][0] === fence[0] && f[1].length >= fence.length && line.trim() === f[1]) fence = null;
      continue;
    }
    if (f) {
      fence = f[1];
      out.push(line);
      continue;
    }
    if (/^ {0,3}<!--/.test(line)) {
      let end = i;
      while (end < lines.length && !lines[end].includes('-->')) end++;
      if (end >= lines.length) {
        out.push(line);
        continue;
      }
      let next = end + 1;
      while (next < lines.length && lines[next].trim() === '') next++;
      const raw = lines.slice(i, end + 1).join('\n');
      const rest = raw.replace(/<!--[\s\S]*?-->/g, '');
      if (rest.trim().length > 0) out.push(rest, ...lines.slice(end + 1, next));
      i = next - 1;
      continue;
    }
    out.push(line);
  }
  return out.join('\n');
}

/** Text Claude scans for imports, with its 0-based first line: paragraphs, headings, lists, quotes, table rows. */
function textRuns(content: string): Array<{ text: string; line: number }> {
  const lines = content.split('\n');
  const runs: Array<{ text: string; line: number }> = [];
  let fence: string | null = null;
  let html = false;
  let prevBlank = true;
  let inList = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const blank = line.trim() === '';
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line.replace(/^\s*(?:>\s?)+/, ''));
    if (fence) {
      if (f && f[1][0] === fence[0] && f[1].length >= fence.length && line.replace(/^\s*(?:>\s?)+/, '').trim() === f[1]) fence = null;
      prevBlank = false;
      continue;
    }
    if (html) {
      if (blank) html = false;
      prevBlank = blank;
      continue;
    }
    if (blank) {
      prevBlank = true;
      continue;
    }
    if (f) {
      fence = f[1];
      prevBlank = false;
      continue;
    }
    const listItem = /^ {0,3}(?:[*+-]|\d{1,9}[.)])(?:\s|$)/.test(line);
    if (listItem) inList = true;
    else if (prevBlank && !/^\s/.test(line)) inList = false;
    if (!inList && prevBlank && /^(?: {4}|\t)/.test(line)) {
      // Indented code block: its lines (and blank lines between them) are code.
      prevBlank = false;
      while (i + 1 < lines.length && (/^(?: {4}|\t)/.test(lines[i + 1]) || (lines[i + 1].trim() === '' && i + 2 < lines.length && /^(?: {4}|\t)/.test(lines[i + 2])))) i++;
      continue;
    }
    if (/^ {0,3}<(?:[a-zA-Z/]|!--)/.test(line) && (prevBlank || /^ {0,3}<(?:!--|\/?(?:div|p|pre|table|details|summary|section|script|style|ul|ol|li|h[1-6]|blockquote))\b/i.test(line))) {
      html = true;
      prevBlank = false;
      continue;
    }
    prevBlank = false;
    const body = line.replace(/^\s*(?:>\s?)+/, '').replace(/^ {0,3}#{1,6}\s+/, '').replace(/^\s*(?:[*+-]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/, '');
    runs.push({ text: inlineText(body), line: i });
    // marked hands list items' raw text to the scanner too, code spans included.
    if (inList) runs.push({ text: body, line: i });
  }
  return runs;
}

/** Inline text as Claude scans it: code spans become gaps, markup boundaries start a new text run. */
function inlineText(line: string): string {
  return line
    .replace(/(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, ' ')
    .replace(/\\[!-/:-@[-`{-~]/g, ' ')
    .replace(/[*_~]{1,3}(?=@)/g, ' ')
    .replace(/\[(?=@)/g, ' ');
}
