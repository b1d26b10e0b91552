import path from 'node:path';
import { minimatch } from 'minimatch';
import type { Parser } from 'web-tree-sitter';
import { bashRuleMatches } from './bashRule';

/**
 * Claude Code's matcher semantics (formats.md §2.5), used for Claude, Codex, Gemini and plugin
 * hooks: `*`, empty or omitted = all; only `[A-Za-z0-9_\- ,|]` = exact names separated by `|` or
 * `,` (whitespace-tolerant); anything else = an unanchored JavaScript RegExp.
 */
export type ClaudeMatcher = { kind: 'all' } | { kind: 'exact'; names: string[] } | { kind: 'regex'; regex: RegExp } | { kind: 'invalid'; error: string };

/** Classifies a Claude-style matcher string (see {@link ClaudeMatcher}). */
export function parseClaudeMatcher(matcher: string | undefined): ClaudeMatcher {
  if (matcher === undefined || matcher === '' || matcher === '*') return { kind: 'all' };
  if (/^[A-Za-z0-9_\- ,|]+$/.test(matcher)) {
    const names = matcher.split(/[|,]/).map((s) => s.trim()).filter(Boolean);
    return names.length ? { kind: 'exact', names } : { kind: 'all' };
  }
  try {
    return { kind: 'regex', regex: new RegExp(matcher) };
  } catch (error) {
    return { kind: 'invalid', error: (error as Error).message };
  }
}

/**
 * True when a Claude-style matcher matches `value`. `value` undefined = the event has no matcher
 * field (UserPromptSubmit, Stop): the matcher is ignored and everything matches.
 */
export function claudeMatcherMatches(matcher: ClaudeMatcher, value: string | undefined): boolean {
  if (value === undefined || matcher.kind === 'all') return true;
  if (matcher.kind === 'exact') return matcher.names.includes(value);
  if (matcher.kind === 'regex') return matcher.regex.test(value);
  return false;
}

/** The permission-rule form of a handler's `if` (`Bash(git commit *)`, `Edit(src/**)`, `WebFetch(domain:x.com)`, `Read`). */
export interface PermissionRule {
  tool: string;
  /** The part in parentheses with `\(`, `\)` and `\\` unescaped, or null for a bare tool name. */
  pattern: string | null;
}

/**
 * Parses a permission rule as Claude Code 2.1.318 does: `Tool` or `Tool(content)`, where the
 * content runs from the first unescaped `(` to an unescaped `)` that ends the rule, and `\(`,
 * `\)`, `\\` in it stand for `(`, `)`, `\`. Null when `text` is not one (a tool name with
 * parentheses, text after the closing one, an unclosed one).
 */
export function parsePermissionRule(text: string): PermissionRule | null {
  const t = text.trim();
  const open = unescapedIndex(t, '(', 'first');
  const close = unescapedIndex(t, ')', 'last');
  if (open === -1 && close === -1) return /^[A-Za-z_*][\w*.:@-]*$/.test(t) ? { tool: t, pattern: null } : null;
  if (open === -1 || close !== t.length - 1 || close < open) return null;
  const tool = t.slice(0, open).trimEnd();
  if (!/^[A-Za-z_*][\w*.:@-]*$/.test(tool)) return null;
  const content = t.slice(open + 1, close).replaceAll('\\(', '(').replaceAll('\\)', ')').replaceAll('\\\\', '\\');
  return { tool, pattern: content };
}

/** Index of the first or last `ch` not escaped by an odd number of backslashes, or -1. */
function unescapedIndex(s: string, ch: string, which: 'first' | 'last'): number {
  const escaped = (i: number) => {
    let n = 0;
    for (let j = i - 1; j >= 0 && s[j] === '\\'; j--) n++;
    return n % 2 === 1;
  };
  if (which === 'first') {
    for (let i = 0; i < s.length; i++) if (s[i] === ch && !escaped(i)) return i;
  } else {
    for (let i = s.length - 1; i >= 0; i--) if (s[i] === ch && !escaped(i)) return i;
  }
  return -1;
}

/** What an `if` rule is checked against: the tool call and the folders paths are relative to. */
export interface ToolCallContext {
  toolName: string | undefined;
  toolInput: Record<string, unknown>;
  projectDir: string;
  homeDir: string;
  /**
   * The bash parser (`bashParser()`) for `Bash(...)` rules; null or omitted = none loaded, and a
   * Bash rule with a pattern then matches every command (fails open, a guard still runs).
   */
  shellParser?: Parser | null;
}

const PATH_TOOLS = new Set(['Read', 'Edit', 'MultiEdit', 'Write', 'NotebookEdit', 'NotebookRead', 'Glob', 'Grep', 'LS', 'ApplyPatch']);

/**
 * Claude Code's handler `if` (formats.md §2.5): one permission rule, for tool events only. The tool
 * part must name the tool (`*` wildcards allowed, e.g. `mcp__github__*`); `Tool`, `Tool()` and
 * `Tool(*)` match every call. For Bash the pattern is checked against every command the text runs
 * (see {@link bashRuleMatches}: Claude Code's `prefix:*`, `cmd *` and exact forms, per part of a
 * compound command, after `NAME=value` prefixes and process wrappers; unparseable text fails
 * open). For file tools the pattern is a glob (gitignore style, relative to the project folder;
 * `//abs`, `~/x`) against the affected path. `WebFetch(domain:x)` matches the URL's host as a
 * WebFetch permission rule does (see {@link domainRuleMatches}); Claude Code 2.1.318's own hook
 * `if` never matches a WebFetch rule with content (its WebFetch tool has no rule matcher), so a
 * guard written for it there never runs, while Atrium applies the documented meaning.
 */
export function ifRuleMatches(rule: PermissionRule, call: ToolCallContext): boolean {
  if (!call.toolName || !wildcard(rule.tool).test(call.toolName)) return false;
  if (rule.pattern === null || rule.pattern === '' || rule.pattern === '*') return true;
  const input = call.toolInput;
  if (call.toolName === 'Bash') {
    const command = typeof input.command === 'string' ? input.command : '';
    return bashRuleMatches(rule.pattern, command, call.shellParser ?? null);
  }
  if (PATH_TOOLS.has(call.toolName)) {
    const paths = affectedPaths(input);
    return paths.some((p) => pathRuleMatches(rule.pattern!, p, call.projectDir, call.homeDir));
  }
  if (call.toolName === 'WebFetch' && rule.pattern.startsWith('domain:')) {
    const host = hostOf(typeof input.url === 'string' ? input.url : '');
    return host !== null && domainRuleMatches(rule.pattern.slice('domain:'.length), host);
  }
  const values = ['command', 'file_path', 'path', 'url', 'pattern', 'query'].map((k) => input[k]).filter((v): v is string => typeof v === 'string');
  const test = wildcard(rule.pattern);
  return values.some((v) => test.test(v));
}

/** Anchored RegExp where `*` matches any text (including spaces and slashes) and everything else is literal. */
function wildcard(pattern: string): RegExp {
  return new RegExp(`^${pattern.split('*').map(escapeRegex).join('[\\s\\S]*')}$`);
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Paths a tool call affects: `file_path`, `path`, `filePath`, `notebook_path`, `source`, `target`, and ApplyPatch file lines. */
export function affectedPaths(input: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const key of ['file_path', 'path', 'filePath', 'notebook_path', 'source', 'target']) {
    if (typeof input[key] === 'string' && input[key]) out.push(input[key] as string);
  }
  for (const key of ['patch', 'input']) {
    const text = input[key];
    if (typeof text !== 'string') continue;
    for (const m of text.matchAll(/^\*\*\* (?:Add|Delete|Update) File: (.+)$|^\*\*\* Move to: (.+)$/gm)) out.push((m[1] ?? m[2]).trim());
  }
  return out;
}

/**
 * A file rule's pattern against a path, gitignore style as Claude Code 2.1.318 reads it: `//x` is
 * absolute, `~/x` in the home folder, `/x` and `x/y` anchored at the project folder, and a name
 * without a slash (after a leading `./`, so `./x.txt` too) matches at any depth.
 */
function pathRuleMatches(pattern: string, filePath: string, projectDir: string, homeDir: string): boolean {
  const abs = path.resolve(projectDir, filePath);
  const relative = pattern.startsWith('./') ? pattern.slice(2) : pattern;
  let absPattern: string;
  if (pattern.startsWith('//')) absPattern = pattern.slice(1);
  else if (pattern.startsWith('~/')) absPattern = path.posix.join(homeDir, pattern.slice(2));
  else if (!relative.includes('/')) absPattern = path.posix.join(projectDir, '**', relative);
  else absPattern = path.posix.join(projectDir, relative.replace(/^\//, ''));
  return minimatch(abs, absPattern, { dot: true });
}

/**
 * A WebFetch `domain:` rule against a host, as Claude Code 2.1.318's permission check reads it
 * (both lower-cased, trailing dots ignored): `example.com` is that host only (not its
 * subdomains), `*.example.com` any subdomain at any depth but not `example.com` itself, `*` every
 * host, and another `*` any text within one label.
 */
export function domainRuleMatches(domain: string, host: string): boolean {
  const norm = (d: string) => d.toLowerCase().replace(/(?<=[^*.])\.+(?=(:\d+)?$)/, '');
  const rule = norm(domain);
  const h = norm(host);
  if (rule === '*') return true;
  if (!rule.includes('*')) return rule === h;
  const label = (glob: string) => glob.split('*').map(escapeRegex).join('[^.:]*');
  if (rule.startsWith('*.')) return new RegExp(`^(?!\\.)(?!.*\\.\\.)[^:]+\\.${label(rule.slice(2))}$`).test(h);
  return new RegExp(`^${label(rule)}$`).test(h);
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Blade's object matcher (seed-behaviour §9.3): `tools` (string or array, any element: `*`, exact,
 * `A|B` alternatives, other regex metacharacters → unanchored RegExp with an invalid one compared
 * exactly, or `Tool(argGlob)`), `paths` (globs, any element, any affected path; no path → fails),
 * `commands` (regex-ish, checked only when the call has a Bash command). No matcher → matches.
 */
export function bladeMatcherMatches(matcher: unknown, call: ToolCallContext): boolean {
  if (matcher === undefined || matcher === null || typeof matcher !== 'object' || Array.isArray(matcher)) return true;
  const m = matcher as Record<string, unknown>;
  const list = (v: unknown) => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const command = call.toolName === 'Bash' && typeof call.toolInput.command === 'string' ? call.toolInput.command : undefined;
  const paths = affectedPaths(call.toolInput);
  if (m.tools !== undefined) {
    const ok = list(m.tools).some((t) => {
      const rule = /^[^()]+\(.*\)$/s.test(t) ? parsePermissionRule(t) : null;
      if (rule && rule.pattern !== null) {
        if (!bladeToolMatches(rule.tool, call.toolName)) return false;
        const values = command !== undefined ? [command] : paths;
        if (values.length === 0) return false;
        return values.some((v) => bladeArgMatches(rule.pattern!, v, call.projectDir));
      }
      return bladeToolMatches(t, call.toolName);
    });
    if (!ok) return false;
  }
  if (m.paths !== undefined) {
    if (paths.length === 0) return false;
    const globs = list(m.paths);
    const ok = paths.some((p) => globs.some((g) => minimatch(path.relative(call.projectDir, path.resolve(call.projectDir, p)), g, { dot: true })));
    if (!ok) return false;
  }
  if (m.commands !== undefined && command !== undefined) {
    if (!list(m.commands).some((c) => bladeToolMatches(c, command))) return false;
  }
  return true;
}

function bladeToolMatches(pattern: string, value: string | undefined): boolean {
  if (value === undefined) return false;
  if (pattern === '*') return true;
  if (/^[\w-]+(\|[\w-]+)*$/.test(pattern)) return pattern.split('|').includes(value);
  try {
    return new RegExp(pattern).test(value);
  } catch {
    return pattern === value;
  }
}

function bladeArgMatches(pattern: string, value: string, projectDir: string): boolean {
  if (/[*?[\]{}]/.test(pattern.replace(/\*$/, ''))) {
    const rel = path.isAbsolute(value) ? path.relative(projectDir, value) : value;
    return minimatch(rel, pattern, { dot: true }) || minimatch(value, pattern, { dot: true });
  }
  if (pattern.endsWith('*')) return value.startsWith(pattern.slice(0, -1));
  return value === pattern;
}
