import { useEffect, useRef, useState } from 'react';
import { ChevronDown, ChevronUp, Loader2, X } from 'lucide-react';
import type { TranscriptSearchMatch } from '../../../../shared/contract';
import { useApp } from '../../state/appStore';

/** What the find bar reports to the session view: the query, the matching item ids and the current one. */
export interface FindState {
  query: string;
  ids: ReadonlySet<number>;
  current: number | null;
}

/** Wait after typing before asking the engine (ms). */
const DEBOUNCE_MS = 200;

/**
 * Find in transcript, like an editor's find bar: the engine searches every stored item
 * (`sessions.searchTranscript`), loaded or not, and the bar counts the matching items ("3 of 12")
 * and steps through them (Enter / Shift+Enter, or the arrows); `onGo(itemId)` pages the item in
 * and scrolls to it. The search runs again as the transcript grows (`version`). Esc closes it.
 */
export function TranscriptFind({
  sessionId,
  version,
  onGo,
  onChange,
  onClose,
}: {
  sessionId: string;
  /** Changes when the transcript changed (e.g. its item count), so the matches are refreshed. */
  version: number;
  onGo(itemId: number): void;
  onChange(state: FindState | null): void;
  onClose(): void;
}) {
  const client = useApp((s) => s.client);
  const input = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState('');
  const [result, setResult] = useState<{ query: string; matches: TranscriptSearchMatch[]; items: number; occurrences: number; truncated: boolean } | null>(null);
  const [index, setIndex] = useState(-1);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => input.current?.focus(), []);

  useEffect(() => {
    const q = query.trim();
    if (!client || !q) {
      setResult(null);
      setIndex(-1);
      setError(null);
      return;
    }
    let stale = false;
    const timer = setTimeout(() => {
      setBusy(true);
      client
        .request('sessions.searchTranscript', { sessionId, query: q, limit: 5000 })
        .then((r) => {
          if (stale) return;
          setError(null);
          // a new query starts at its last match (nearest the bottom, where the reader is); a refresh keeps the place
          const keep = shown.current.query === q ? shown.current.itemId : null;
          const kept = keep === null ? -1 : r.matches.findIndex((m) => m.itemId === keep);
          setResult({ query: q, ...r });
          setIndex(kept >= 0 ? kept : r.matches.length - 1);
        })
        .catch((e: Error) => !stale && setError(e.message))
        .finally(() => !stale && setBusy(false));
    }, DEBOUNCE_MS);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [client, sessionId, query, version]);

  const current = result && index >= 0 ? (result.matches[index] ?? null) : null;
  const shown = useRef<{ query: string | null; itemId: number | null }>({ query: null, itemId: null });
  shown.current = { query: result?.query ?? null, itemId: current?.itemId ?? null };
  const lastGone = useRef<number | null>(null);
  useEffect(() => {
    onChange(result ? { query: result.query, ids: new Set(result.matches.map((m) => m.itemId)), current: current?.itemId ?? null } : null);
    if (current && lastGone.current !== current.itemId) {
      lastGone.current = current.itemId;
      onGo(current.itemId);
    }
    // onChange/onGo are the view's setters; re-running on their identity would loop
  }, [result, current?.itemId]);
  useEffect(() => () => onChange(null), [onChange]);

  const step = (delta: number) => {
    if (!result || result.matches.length === 0) return;
    const n = result.matches.length;
    const next = (((index < 0 ? (delta > 0 ? -1 : 0) : index) + delta) % n + n) % n;
    setIndex(next);
    // stepping onto the same item again (one match) still scrolls back to it
    if (result.matches[next].itemId === current?.itemId) onGo(result.matches[next].itemId);
  };

  const count = !query.trim() ? '' : busy && !result ? 'Searching…' : error ? '' : result && result.items > 0 ? `${index + 1} of ${result.items}` : 'No matches';
  const detail = result && result.items > 0 ? `${result.occurrences} ${result.occurrences === 1 ? 'occurrence' : 'occurrences'} in ${result.items} ${result.items === 1 ? 'item' : 'items'}${result.truncated ? ` (first ${result.matches.length} listed)` : ''}` : undefined;

  return (
    <div className="sess-find" role="search" aria-label="Find in transcript">
      <input
        ref={input}
        className="input sess-find-input"
        type="search"
        placeholder="Find in transcript"
        aria-label="Find in transcript"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            step(e.shiftKey ? -1 : 1);
          } else if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            onClose();
          }
        }}
      />
      <span className="sess-find-count muted" role="status" aria-live="polite" title={detail} data-matches={result?.items ?? 0}>
        {busy && result ? <Loader2 size={12} className="spin" aria-hidden /> : null}
        {count}
      </span>
      {error && <span className="sess-find-error">{error}</span>}
      <button className="icon-button" aria-label="Previous match" title="Previous match (Shift+Enter)" disabled={!result?.items} onClick={() => step(-1)}>
        <ChevronUp size={14} />
      </button>
      <button className="icon-button" aria-label="Next match" title="Next match (Enter)" disabled={!result?.items} onClick={() => step(1)}>
        <ChevronDown size={14} />
      </button>
      <button className="icon-button" aria-label="Close find" title="Close (Esc)" onClick={onClose}>
        <X size={14} />
      </button>
    </div>
  );
}
