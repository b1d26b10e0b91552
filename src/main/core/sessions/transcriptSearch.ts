/**
 * Search inside one session's transcript, over every stored item (not only the page a view has
 * loaded): the text a reader sees of each item, case-insensitive, as plain substring (no regular
 * expressions, so any typed text is safe). Like an editor's find: matches are counted and listed in
 * transcript order, so a view can step next/previous and page in the item it lands on.
 */
import type { TranscriptItem, TranscriptSearchMatch } from '../../../shared/contract';
import type { SessionTables } from './tables';

/** Characters of context kept on each side of the first occurrence in a match's snippet. */
const SNIPPET_CONTEXT = 60;
/** Matches returned by default (the count covers all of them). */
export const DEFAULT_SEARCH_LIMIT = 500;

/**
 * The text of an item a search looks at, in reading order: messages and thoughts by their text;
 * tool calls by title, file paths, text output and diff text; permission requests by title, paths
 * and option names; plans by their entries; notices by title and detail; stops by their error.
 * Raw JSON input/output is left out: it is collapsed by default and repeats the title.
 */
export function searchableText(item: TranscriptItem): string {
  switch (item.kind) {
    case 'user_message':
    case 'agent_message':
    case 'agent_thought':
      return [item.text, ...item.blocks.map((b) => b.text ?? b.name ?? b.uri ?? '')].filter(Boolean).join('\n');
    case 'tool_call':
    case 'permission': {
      const parts = [item.title, ...item.locations.map((l) => l.path)];
      for (const c of item.content) {
        if (c.type === 'content' && c.content.text) parts.push(c.content.text);
        else if (c.type === 'diff') parts.push(c.path, c.newText);
      }
      if (item.kind === 'permission') parts.push(...item.options.map((o) => o.name));
      return parts.filter(Boolean).join('\n');
    }
    case 'plan':
      return item.entries.map((e) => e.content).join('\n');
    case 'notice':
      return [item.title, item.detail ?? ''].filter(Boolean).join('\n');
    case 'stop':
      return item.error ?? '';
  }
}

/** How often `needle` (lower-cased) occurs in `haystack` (lower-cased), without overlaps, and where first. */
function occurrences(haystack: string, needle: string): { count: number; first: number } {
  let count = 0;
  let first = -1;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) {
    if (first < 0) first = at;
    count++;
  }
  return { count, first };
}

/** One line of context around `at` (whitespace collapsed), with … where it was cut. */
function snippetAround(text: string, at: number, length: number): string {
  const start = Math.max(0, at - SNIPPET_CONTEXT);
  const end = Math.min(text.length, at + length + SNIPPET_CONTEXT);
  return `${start > 0 ? '…' : ''}${text.slice(start, end).replace(/\s+/g, ' ')}${end < text.length ? '…' : ''}`;
}

/**
 * Searches every item of `sessionId` for `query` (trimmed; case-insensitive substring). Returns
 * the matching items in transcript order (at most `limit`, default {@link DEFAULT_SEARCH_LIMIT}),
 * each with its occurrence count and a one-line snippet around the first occurrence, plus the
 * totals over all matches (`items`, `occurrences`) and whether the list was cut (`truncated`).
 * An empty query matches nothing. Reads the stored projection: the caller flushes a live
 * session's journal first.
 */
export function searchTranscript(
  tables: SessionTables,
  sessionId: string,
  query: string,
  limit = DEFAULT_SEARCH_LIMIT,
): { matches: TranscriptSearchMatch[]; items: number; occurrences: number; truncated: boolean } {
  const needle = query.trim().toLowerCase();
  const out = { matches: [] as TranscriptSearchMatch[], items: 0, occurrences: 0, truncated: false };
  if (!needle) return out;
  // the stored JSON escapes quotes, backslashes and control characters, and SQLite folds case of ASCII only
  const prefilter = /^[\x20-\x7e]+$/.test(needle) && !/["\\]/.test(needle) ? needle : null;
  for (const item of tables.scan(sessionId, prefilter)) {
    const text = searchableText(item);
    const { count, first } = occurrences(text.toLowerCase(), needle);
    if (count === 0) continue;
    out.items++;
    out.occurrences += count;
    if (out.matches.length < limit) out.matches.push({ itemId: item.id, kind: item.kind, count, snippet: snippetAround(text, first, needle.length) });
    else out.truncated = true;
  }
  return out;
}
