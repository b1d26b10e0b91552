import type { TrustWarning } from '../../../shared/contract';
import { checkedText } from '../formats/checkedText';
import { parseJsonText } from '../formats/json';
import { parseTomlText } from '../formats/toml';
import { isRecord } from '../formats/text';
import { MAX_SOURCE_BYTES, type SourceFile } from './sources';
import { promises as fs } from 'node:fs';

/** A source file read and parsed (or why not). */
export interface LoadedSource {
  src: SourceFile;
  /** How the file is named in warnings and the UI: workspace-relative, or `~/…` for user files. */
  shownPath: string;
  exists: boolean;
  /** The top-level JSON object, or null when missing, unreadable or not an object. */
  root: Record<string, unknown> | null;
  lineOf(node: unknown): number | null;
  warnings: TrustWarning[];
}

/** `~/file` for user-scope sources, the relative path otherwise. */
export function shownPathOf(src: SourceFile): string {
  return src.scope === 'user' ? `~/${src.file}` : src.file;
}

/**
 * Reads and parses one source file: JSON, or JSON with comments for Gemini's `settings.json`. A
 * missing file is simply absent; an unreadable, oversized or unparseable one yields a warning
 * naming the file, line and column and how to fix it (its hooks can then not run). Never throws.
 */
export async function loadSource(src: SourceFile): Promise<LoadedSource> {
  const shownPath = shownPathOf(src);
  const base: LoadedSource = { src, shownPath, exists: false, root: null, lineOf: () => null, warnings: [] };
  let text: string;
  try {
    const st = await fs.stat(src.abs);
    if (!st.isFile()) return base;
    base.exists = true;
    if (st.size > MAX_SOURCE_BYTES) {
      base.warnings.push({ path: shownPath, line: null, message: `is larger than ${MAX_SOURCE_BYTES / 1048576} MiB and was not read; its hooks cannot run`, fix: 'Shrink the file.' });
      return base;
    }
    const checked = checkedText(await fs.readFile(src.abs), src.kind === 'codexConfig' ? 'toml' : src.format === 'gemini' ? 'jsonc' : 'json');
    text = checked.text;
    base.warnings.push(...checked.warnings.map((w) => ({ path: shownPath, ...w })));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return base;
    base.exists = true;
    base.warnings.push({ path: shownPath, line: null, message: `could not be read (${code ?? 'error'}); its hooks cannot run`, fix: 'Check the file permissions.' });
    return base;
  }
  if (src.kind === 'codexConfig') return parseCodexConfig(base, text);
  const parsed = parseJsonText(text, { jsonc: src.format === 'gemini' });
  if (!parsed.ok) {
    base.warnings.push({ path: shownPath, line: parsed.line, message: `invalid JSON at line ${parsed.line}, column ${parsed.column}: ${parsed.message}; none of its hooks can run`, fix: parsed.fix });
    return base;
  }
  if (!isRecord(parsed.value)) {
    base.warnings.push({ path: shownPath, line: 1, message: 'is not a JSON object; it is ignored', fix: 'Wrap the content in { }.' });
    return base;
  }
  return { ...base, root: parsed.value, lineOf: parsed.lineOf };
}

/**
 * Codex `config.toml`: only its inline `[hooks]` tables matter here. A TOML error names the line;
 * line numbers of individual hooks are found by their event header (`[[hooks.PreToolUse]]`).
 */
function parseCodexConfig(base: LoadedSource, text: string): LoadedSource {
  const parsed = parseTomlText(text);
  if (!parsed.ok) {
    const line = parsed.line;
    base.warnings.push({ path: base.shownPath, line, message: `invalid TOML${line ? ` at line ${line}` : ''}: ${parsed.message}; none of its inline [hooks] can run`, fix: 'Fix the TOML syntax (Codex itself refuses to start with this file).' });
    return base;
  }
  const root: unknown = parsed.value;
  if (!isRecord(root)) return base;
  const lines = codexHookLines(root, text);
  const lineOf = (node: unknown): number | null => lines.get(node) ?? null;
  return { ...base, root, lineOf };
}

/**
 * Lines of Codex's array-of-tables hook headers: the k-th `[[hooks.<Event>]]` is the k-th group of
 * that event, and each following `[[hooks.<Event>.hooks]]` is the next handler of that group.
 * Inline-table forms get no line (warnings then fall back to the file).
 */
function codexHookLines(root: Record<string, unknown>, text: string): Map<unknown, number> {
  const out = new Map<unknown, number>();
  const hooks = root.hooks;
  if (!isRecord(hooks)) return out;
  const groupsSeen = new Map<string, number>();
  const handlersSeen = new Map<string, number>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const m = /^\s*\[\[\s*hooks\.([A-Za-z]+)(\.hooks)?\s*\]\]/.exec(raw);
    if (!m) return;
    const groups = hooks[m[1]];
    if (!Array.isArray(groups)) return;
    if (!m[2]) {
      const k = groupsSeen.get(m[1]) ?? 0;
      groupsSeen.set(m[1], k + 1);
      handlersSeen.set(m[1], 0);
      if (groups[k] !== undefined) out.set(groups[k], i + 1);
      return;
    }
    const group = groups[(groupsSeen.get(m[1]) ?? 1) - 1];
    const j = handlersSeen.get(m[1]) ?? 0;
    handlersSeen.set(m[1], j + 1);
    if (isRecord(group) && Array.isArray(group.hooks) && group.hooks[j] !== undefined) out.set(group.hooks[j], i + 1);
  });
  return out;
}

/** The hooks object of a loaded source: `hooks` of a settings file or manifest, or a hooks file's `hooks` (a bare event map is accepted). */
export function hooksObjectOf(loaded: LoadedSource): unknown {
  const root = loaded.root;
  if (!root) return undefined;
  if (loaded.src.kind === 'hooksFile') {
    if (root.hooks !== undefined) return root.hooks;
    const bare = Object.fromEntries(Object.entries(root).filter(([k]) => k !== 'description' && k !== '$schema'));
    return Object.keys(bare).length ? bare : undefined;
  }
  if (loaded.src.kind === 'codexConfig') {
    // `[hooks.state."<key>"] trusted_hash = …` is Codex's own trust record, not a hook
    if (!isRecord(root.hooks)) return root.hooks;
    const events = Object.fromEntries(Object.entries(root.hooks).filter(([k]) => k !== 'state'));
    return Object.keys(events).length ? events : undefined;
  }
  if (loaded.src.kind === 'pluginManifest') {
    const h = root.hooks;
    return isRecord(h) && isRecord(h.hooks) ? h.hooks : h;
  }
  return root.hooks;
}
