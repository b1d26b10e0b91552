import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Link2, Loader2 } from 'lucide-react';
import type { TranscriptItem } from '../../../../shared/contract';
import { TranscriptRow } from './TranscriptRow';
import { useRouteParam } from '../../state/appStore';
import { formatRoute } from '../../state/route';

/** Distance from the bottom (px) within which the view keeps following new output. */
const STICK_PX = 48;

/**
 * The virtualized transcript: rows are measured as they render, new output is followed while the
 * view is at the bottom, and scrolling near the top pages in older items (`onLoadOlder`). Rows
 * outside the viewport are not in the DOM, so a session with 10⁵ items scrolls like one with 10.
 * An item in the address (`#/sessions/<id>?item=<item id>`, each row's link icon) is paged in if
 * it is older than what is loaded, scrolled to and marked; following new output stops until the
 * user scrolls back to the bottom.
 */
export function Transcript({
  sessionId,
  items,
  hasBefore,
  loadingOlder,
  onLoadOlder,
  footer,
}: {
  sessionId: string;
  items: TranscriptItem[];
  hasBefore: boolean;
  loadingOlder: boolean;
  onLoadOlder(): void;
  footer?: React.ReactNode;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 64,
    overscan: 6,
    getItemKey: (i) => items[i].id,
  });
  const total = virtualizer.getTotalSize();

  const itemParam = useRouteParam('item');
  const targetId = itemParam !== null && /^\d+$/.test(itemParam) ? Number(itemParam) : null;
  const targetIndex = targetId === null ? -1 : items.findIndex((i) => i.id === targetId);
  const reached = useRef<number | null>(null);
  useEffect(() => {
    if (targetId === null) {
      reached.current = null;
      return;
    }
    if (reached.current === targetId) return;
    if (targetIndex >= 0) {
      atBottom.current = false;
      reached.current = targetId;
      virtualizer.scrollToIndex(targetIndex, { align: 'start' });
      return;
    }
    // older than the loaded page: page in until it is there (or nothing is left before it)
    if (hasBefore && !loadingOlder && items.length > 0 && items[0].id > targetId) {
      atBottom.current = false;
      onLoadOlder();
    }
  }, [targetId, targetIndex, hasBefore, loadingOlder, items, onLoadOlder, virtualizer]);

  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
    if (el.scrollTop < 400 && hasBefore && !loadingOlder) onLoadOlder();
  }, [hasBefore, loadingOlder, onLoadOlder]);

  // follow new output while at the bottom; keep the view still when older items are prepended
  const prev = useRef<{ firstId: number | null; scrollHeight: number }>({ firstId: null, scrollHeight: 0 });
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const firstId = items[0]?.id ?? null;
    if (atBottom.current) el.scrollTop = el.scrollHeight;
    else if (firstId !== null && prev.current.firstId !== null && firstId < prev.current.firstId) el.scrollTop += el.scrollHeight - prev.current.scrollHeight;
    prev.current = { firstId, scrollHeight: el.scrollHeight };
  });

  // a short first page may not fill the view: load more until it scrolls
  useEffect(() => {
    const el = scrollRef.current;
    if (el && hasBefore && !loadingOlder && el.scrollHeight <= el.clientHeight + 400) onLoadOlder();
  }, [items.length, hasBefore, loadingOlder, onLoadOlder]);

  return (
    <div className="sess-transcript" ref={scrollRef} onScroll={onScroll} role="log" aria-label="Transcript" aria-live="off" tabIndex={0}>
      {hasBefore && (
        <div className="sess-older muted">
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
          const item = items[v.index];
          return (
            <div
              key={v.key}
              className={`sess-item${item.id === targetId ? ' sess-item-targeted' : ''}`}
              data-index={v.index}
              data-item-id={item.id}
              data-kind={item.kind}
              aria-current={item.id === targetId ? 'location' : undefined}
              ref={virtualizer.measureElement}
              style={{ transform: `translateY(${v.start}px)` }}
            >
              <a className="sess-item-link" href={formatRoute({ kind: 'session', id: sessionId, params: { item: String(item.id) } })} aria-label="Link to this item" title="Link to this item (its address; copy it to come back here)">
                <Link2 size={11} aria-hidden />
              </a>
              <TranscriptRow sessionId={sessionId} item={item} />
            </div>
          );
        })}
      </div>
      {footer}
    </div>
  );
}
