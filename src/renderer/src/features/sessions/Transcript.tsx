import { forwardRef, useCallback, useEffect, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ChevronRight, FileSearch, Link2, Loader2 } from 'lucide-react';
import type { TranscriptItem } from '../../../../shared/contract';
import { useRouteParam } from '../../state/appStore';
import { formatRoute } from '../../state/route';
import { TranscriptRow } from './TranscriptRow';
import { ToolCallCard, type ToolPermission } from './ToolCallCard';
import { groupSummary, groupTranscriptRows, type TranscriptRowModel } from './transcriptItems';

/** Distance from the bottom (px) within which the view keeps following new output. */
const STICK_PX = 48;
/** Height of the "Load earlier items" row (px): a row of the list, so it never covers a card. */
const OLDER_ROW_PX = 30;

/** What the transcript highlights for find-in-transcript: matching item ids, the current one, and the text. */
export interface TranscriptHighlight {
  query: string;
  ids: ReadonlySet<number>;
  current: number | null;
}

/** Imperative handle of the transcript: scroll an item into view (expanding its group). */
export interface TranscriptHandle {
  /** Scrolls the item with this id to the middle of the view once it is loaded; expands a compact group holding it. */
  revealItem(id: number): void;
}

type Row = TranscriptRowModel;

/**
 * The virtualized transcript: rows are measured as they render, new output is followed while the
 * view is at the bottom, and scrolling near the top pages in older items (`onLoadOlder`). Rows
 * outside the viewport are not in the DOM, so a session with 10⁵ items scrolls like one with 10.
 * An item in the address (`#/sessions/<id>?item=<item id>`, each row's link icon) is paged in if
 * it is older than what is loaded, scrolled to and marked; following new output stops until the
 * user scrolls back to the bottom.
 * Runs of read/search tool calls show as one compact row (expandable); "Load earlier items" sits
 * above the list in the flow (the list's scroll margin), so it never covers a card. When older items are prepended the view keeps what was on screen in place
 * (the virtualizer's `anchorTo: 'end'` anchoring, which also corrects for the new rows' measured sizes).
 */
export const Transcript = forwardRef<
  TranscriptHandle,
  {
    sessionId: string;
    items: TranscriptItem[];
    hasBefore: boolean;
    loadingOlder: boolean;
    onLoadOlder(): void;
    footer?: React.ReactNode;
    highlight?: TranscriptHighlight | null;
  }
>(function Transcript({ sessionId, items, hasBefore, loadingOlder, onLoadOlder, footer, highlight = null }, ref) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const [openGroups, setOpenGroups] = useState<ReadonlySet<string>>(new Set());
  const [reveal, setReveal] = useState<{ id: number; nonce: number } | null>(null);
  const rows = useMemo<Row[]>(() => groupTranscriptRows(items), [items]);
  // tool calls a permission request is about: asking (the card below shows its diff) or rejected
  const permissionOf = useMemo(() => {
    const map = new Map<string, ToolPermission>();
    for (const i of items) {
      if (i.kind !== 'permission' || !i.toolCallId) continue;
      if (i.state === 'pending') map.set(i.toolCallId, 'asking');
      else if (i.state === 'selected' && i.options.find((o) => o.optionId === i.optionId)?.kind.startsWith('reject')) map.set(i.toolCallId, 'rejected');
      else map.delete(i.toolCallId);
    }
    return map;
  }, [items]);
  const toolPermission = (item: TranscriptItem): ToolPermission => (item.kind === 'tool_call' ? (permissionOf.get(item.toolCallId) ?? null) : null);
  // "Load earlier items" sits above the list in the flow (never over a card); the list starts below it
  const margin = hasBefore ? OLDER_ROW_PX : 0;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (rows[i].type === 'group' ? 36 : 64),
    scrollMargin: margin,
    overscan: 6,
    getItemKey: (i) => rows[i].key,
    // rows prepended above (older pages) keep the row being read where it is, measured sizes included
    anchorTo: 'end',
  });
  const total = virtualizer.getTotalSize();

  useImperativeHandle(ref, () => ({ revealItem: (id) => setReveal((r) => ({ id, nonce: (r?.nonce ?? 0) + 1 })) }), []);

  // the item in the address (`?item=<id>`): paged in if it is older than what is loaded, then revealed
  // (its group opened, scrolled to); following new output stops until the user scrolls to the bottom
  const itemParam = useRouteParam('item');
  const targetId = itemParam !== null && /^\d+$/.test(itemParam) ? Number(itemParam) : null;
  const targetLoaded = targetId !== null && items.some((i) => i.id === targetId);
  const reached = useRef<number | null>(null);
  useEffect(() => {
    if (targetId === null) {
      reached.current = null;
      return;
    }
    if (reached.current === targetId) return;
    if (targetLoaded) {
      atBottom.current = false;
      reached.current = targetId;
      setReveal((r) => ({ id: targetId, nonce: (r?.nonce ?? 0) + 1 }));
      return;
    }
    // older than the loaded page: page in until it is there (or nothing is left before it)
    if (hasBefore && !loadingOlder && items.length > 0 && items[0].id > targetId) {
      atBottom.current = false;
      onLoadOlder();
    }
  }, [targetId, targetLoaded, hasBefore, loadingOlder, items, onLoadOlder]);

  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
    if (el.scrollTop < 400 && hasBefore && !loadingOlder) onLoadOlder();
  }, [hasBefore, loadingOlder, onLoadOlder]);

  // follow new output while at the bottom (a prepended older page keeps the view still: anchorTo above)
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el && atBottom.current && !reveal) el.scrollTop = el.scrollHeight;
  });

  // a short first page may not fill the view: load more until it scrolls
  useEffect(() => {
    const el = scrollRef.current;
    if (el && hasBefore && !loadingOlder && el.scrollHeight <= el.clientHeight + 400) onLoadOlder();
  }, [items.length, hasBefore, loadingOlder, onLoadOlder]);

  // reveal an item once it is loaded: open its group, then scroll it to the middle
  useEffect(() => {
    if (!reveal) return;
    const index = rows.findIndex((r) => (r.type === 'item' ? r.item.id === reveal.id : r.type === 'group' && r.items.some((i) => i.id === reveal.id)));
    if (index < 0) return;
    const row = rows[index];
    if (row.type === 'group' && !openGroups.has(row.key)) {
      setOpenGroups((s) => new Set(s).add(row.key));
      return;
    }
    atBottom.current = false;
    virtualizer.scrollToIndex(index, { align: 'center' });
    // the row's height may change as it renders: center the item itself once it is in the DOM
    const raf = requestAnimationFrame(() => {
      const el = scrollRef.current?.querySelector<HTMLElement>(`[data-item-id="${reveal.id}"]`);
      el?.scrollIntoView({ block: 'center' });
      setReveal(null);
    });
    return () => cancelAnimationFrame(raf);
  }, [reveal, rows, openGroups, virtualizer]);

  // find-in-transcript: paint the query's occurrences in the rendered rows (CSS Custom Highlight API)
  useLayoutEffect(() => {
    const registry = typeof CSS !== 'undefined' && 'highlights' in CSS ? CSS.highlights : null;
    if (!registry) return;
    const root = scrollRef.current;
    const needle = highlight?.query.trim().toLowerCase() ?? '';
    if (!root || !needle) {
      registry.delete('transcript-find');
      registry.delete('transcript-find-current');
      return;
    }
    const all = new Highlight();
    const current = new Highlight();
    for (const row of root.querySelectorAll<HTMLElement>('[data-item-id]')) {
      const id = Number(row.dataset.itemId);
      if (!highlight?.ids.has(id)) continue;
      const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = (node.nodeValue ?? '').toLowerCase();
        for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
          const range = new Range();
          range.setStart(node, at);
          range.setEnd(node, at + needle.length);
          (id === highlight.current ? current : all).add(range);
        }
      }
    }
    registry.set('transcript-find', all);
    registry.set('transcript-find-current', current);
  });
  useEffect(
    () => () => {
      if (typeof CSS !== 'undefined' && 'highlights' in CSS) {
        CSS.highlights.delete('transcript-find');
        CSS.highlights.delete('transcript-find-current');
      }
    },
    [],
  );

  const toggleGroup = (key: string) =>
    setOpenGroups((s) => {
      const next = new Set(s);
      if (!next.delete(key)) next.add(key);
      return next;
    });

  const matchClass = (id: number) => (highlight?.ids.has(id) ? (highlight.current === id ? ' sess-item-match sess-item-current' : ' sess-item-match') : '');

  return (
    <div className="sess-transcript" ref={scrollRef} onScroll={onScroll} role="log" aria-label="Transcript" aria-live="off" tabIndex={0}>
      {hasBefore && (
        <div className="sess-older muted" style={{ height: OLDER_ROW_PX }}>
          {loadingOlder ? (
            <>
              <Loader2 size={13} className="spin" aria-hidden /> Loading earlier items…
            </>
          ) : (
            <button className="link-button" onClick={onLoadOlder}>
              Load earlier items
            </button>
          )}
        </div>
      )}
      <div className="sess-virtual" style={{ height: total }}>
        {virtualizer.getVirtualItems().map((v) => {
          const row = rows[v.index];
          const style = { transform: `translateY(${v.start - margin}px)` };
          if (row.type === 'group') {
            const open = openGroups.has(row.key);
            const running = row.items.some((i) => i.status === 'in_progress' || i.status === 'pending');
            const anyMatch = row.items.some((i) => highlight?.ids.has(i.id));
            return (
              <div key={v.key} className={`sess-item sess-group${anyMatch ? ' sess-item-match' : ''}`} data-index={v.index} data-kind="tool_group" data-group-size={row.items.length} ref={virtualizer.measureElement} style={style}>
                <button className="sess-group-head" aria-expanded={open} onClick={() => toggleGroup(row.key)}>
                  <ChevronRight size={13} className={open ? 'rotated' : ''} aria-hidden />
                  <FileSearch size={13} aria-hidden />
                  <span className="sess-group-summary">{groupSummary(row.items)}</span>
                  {!open && <span className="sess-group-preview muted">{row.items.map((i) => i.locations[0]?.path.split('/').pop() || i.title).join(', ')}</span>}
                  {running && <Loader2 size={12} className="spin" aria-label="running" />}
                </button>
                {open && (
                  <div className="sess-group-body">
                    {row.items.map((item) => (
                      <div key={item.id} className={`sess-group-item${matchClass(item.id)}${item.id === targetId ? ' sess-item-targeted' : ''}`} data-item-id={item.id} data-kind={item.kind} aria-current={item.id === targetId ? 'location' : undefined}>
                        <ToolCallCard sessionId={sessionId} item={item} permission={toolPermission(item)} />
                      </div>
                    ))}
                  </div>
                )}
              </div>
            );
          }
          const item = row.item;
          return (
            <div
              key={v.key}
              className={`sess-item${matchClass(item.id)}${item.id === targetId ? ' sess-item-targeted' : ''}`}
              data-index={v.index}
              data-item-id={item.id}
              data-kind={item.kind}
              aria-current={item.id === targetId ? 'location' : undefined}
              ref={virtualizer.measureElement}
              style={style}
            >
              <a className="sess-item-link" href={formatRoute({ kind: 'session', id: sessionId, params: { item: String(item.id) } })} aria-label="Link to this item" title="Link to this item (its address; copy it to come back here)">
                <Link2 size={11} aria-hidden />
              </a>
              <TranscriptRow sessionId={sessionId} item={item} permission={toolPermission(item)} />
            </div>
          );
        })}
      </div>
      {footer}
    </div>
  );
});
