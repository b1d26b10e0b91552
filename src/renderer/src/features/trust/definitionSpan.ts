/** A range of 1-based lines, both ends included. */
export interface LineSpan {
  start: number;
  end: number;
}

/** Longest span shown for a definition whose end cannot be found (TOML tables, unbalanced JSON). */
const FALLBACK_LINES = 20;

/**
 * The lines of `content` that define an item starting at 1-based `line`: for JSON (and JSONC) the
 * object or array that opens on that line, through its matching close (brackets inside strings and
 * comments are skipped); for a TOML table (`[x]` / `[[x]]` on that line), up to the line before the
 * next table header; otherwise up to the next blank line. Never more than the file, and at most
 * {@link FALLBACK_LINES} lines when no end is found. Returns null when `line` is outside the file.
 */
export function definitionSpan(content: string, line: number): LineSpan | null {
  const lines = content.split('\n');
  if (!Number.isInteger(line) || line < 1 || line > lines.length) return null;
  const startText = lines[line - 1] ?? '';
  const fallback = (): LineSpan => ({ start: line, end: Math.min(lines.length, line + FALLBACK_LINES - 1) });
  if (/^\s*\[\[?[^\]]+\]\]?\s*(#.*)?$/.test(startText)) {
    for (let i = line; i < lines.length; i++) if (/^\s*\[/.test(lines[i] ?? '')) return { start: line, end: trimBlank(lines, line, i) };
    return { start: line, end: trimBlank(lines, line, lines.length) };
  }
  const open = firstOpen(startText);
  if (open < 0) {
    for (let i = line; i < lines.length; i++) if ((lines[i] ?? '').trim() === '') return { start: line, end: Math.max(line, i) };
    return fallback();
  }
  const end = matchingCloseLine(lines, line - 1, open);
  return end === null ? fallback() : { start: line, end };
}

/** Column of the first `{` or `[` on a line outside strings and comments, or -1. */
function firstOpen(text: string): number {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '/' && text[i + 1] === '/') return -1;
    else if (c === '{' || c === '[') return i;
  }
  return -1;
}

/** 1-based line of the bracket closing the one at (`row`, `col`), or null when it never closes. */
function matchingCloseLine(lines: string[], row: number, col: number): number | null {
  let depth = 0;
  let inString = false;
  let inBlock = false;
  for (let r = row; r < lines.length; r++) {
    const text = lines[r] ?? '';
    for (let i = r === row ? col : 0; i < text.length; i++) {
      const c = text[i];
      if (inBlock) {
        if (c === '*' && text[i + 1] === '/') {
          inBlock = false;
          i++;
        }
      } else if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '/' && text[i + 1] === '/') break;
      else if (c === '/' && text[i + 1] === '*') {
        inBlock = true;
        i++;
      } else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        depth--;
        if (depth === 0) return r + 1;
      }
    }
    // a JSON string never spans lines: an unterminated one ends with its line
    inString = false;
  }
  return null;
}

/** The last non-blank line in [start, before) (1-based `start`, 0-based exclusive `before`), at least `start`. */
function trimBlank(lines: string[], start: number, before: number): number {
  let end = before;
  while (end > start && (lines[end - 1] ?? '').trim() === '') end--;
  return Math.max(start, end);
}
