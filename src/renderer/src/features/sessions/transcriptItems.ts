import type { ItemAppend, TranscriptItem } from '../../../../shared/contract';

/**
 * Upserts `changed` into `items` (ascending by id) and returns a new array; items already present
 * are replaced, new ones inserted in id order (usually at the end, so this is cheap while streaming).
 */
export function upsertItems(items: readonly TranscriptItem[], changed: readonly TranscriptItem[]): TranscriptItem[] {
  const out = items.slice();
  for (const item of changed) {
    const last = out[out.length - 1];
    if (!last || last.id < item.id) {
      out.push(item);
      continue;
    }
    let lo = 0;
    let hi = out.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (out[mid].id < item.id) lo = mid + 1;
      else hi = mid - 1;
    }
    if (out[lo]?.id === item.id) out[lo] = item;
    else out.splice(lo, 0, item);
  }
  return out;
}

/** `snapshot` (fresh from the engine) wins over what events delivered before it; newer items stay. */
export function mergeSnapshot(items: readonly TranscriptItem[], snapshot: readonly TranscriptItem[], dropBelow: number | null): TranscriptItem[] {
  const merged = upsertItems(items, snapshot);
  return dropBelow === null ? merged : merged.filter((i) => i.id >= dropBelow);
}

/**
 * Applies one `sessionEvent` to the loaded items (ascending by id): `items` are upserted, each of
 * `appends` extends its item's text at `offset`. Items below `floor` (older than the loaded page;
 * null = everything is loaded) are ignored. An append whose item is not loaded, or whose offset is
 * beyond the loaded text, means an event was missed: its item id is returned in `refetch` (the
 * caller re-reads it) and nothing is guessed. An append at an offset the loaded text already
 * passed (a snapshot newer than the event) adds only the part not yet there.
 */
export function applySessionEvent(
  items: readonly TranscriptItem[],
  event: { items: readonly TranscriptItem[]; appends?: readonly ItemAppend[] },
  floor: number | null,
): { items: TranscriptItem[]; refetch: number[] } {
  const whole = floor === null ? event.items : event.items.filter((i) => i.id >= floor);
  let out = whole.length ? upsertItems(items, whole) : items.slice();
  const refetch: number[] = [];
  for (const a of event.appends ?? []) {
    if (floor !== null && a.itemId < floor) continue;
    const at = indexOf(out, a.itemId);
    const item = at < 0 ? null : out[at];
    if (!item || !('text' in item) || typeof item.text !== 'string' || a.offset > item.text.length) {
      if (!refetch.includes(a.itemId)) refetch.push(a.itemId);
      continue;
    }
    const have = item.text.length - a.offset;
    if (have >= a.text.length) continue;
    if (out === items) out = items.slice();
    out[at] = { ...item, text: item.text + a.text.slice(have), updatedAt: a.updatedAt } as TranscriptItem;
  }
  return { items: out, refetch };
}

/** Index of the item with `id` in `items` (ascending by id), or -1. The streamed item is usually last. */
function indexOf(items: readonly TranscriptItem[], id: number): number {
  const last = items.length - 1;
  if (last >= 0 && items[last].id === id) return last;
  let lo = 0;
  let hi = last;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (items[mid].id < id) lo = mid + 1;
    else if (items[mid].id > id) hi = mid - 1;
    else return mid;
  }
  return -1;
}

type ToolItem = Extract<TranscriptItem, { kind: 'tool_call' }>;

/**
 * One row of the transcript view: a single item, or a run of consecutive read/search tool calls
 * shown as one compact row (Zed groups an agent's exploring the same way), expandable.
 */
export type TranscriptRowModel = { type: 'item'; key: string; item: TranscriptItem } | { type: 'group'; key: string; items: ToolItem[] };

/** Whether a tool call is quiet exploration that reads well as part of a compact group. */
function isExploring(item: TranscriptItem): item is ToolItem {
  return item.kind === 'tool_call' && (item.toolKind === 'read' || item.toolKind === 'search') && item.status !== 'failed';
}

/**
 * Rows for `items` (ascending by id): runs of at least `minRun` (default 2) consecutive read/search
 * tool calls that did not fail become one group row; everything else is one row per item. A failed
 * read stays its own card (it is expanded by default and may explain what follows). Group keys
 * use the first item's id, so they stay stable while the run grows at its end.
 */
export function groupTranscriptRows(items: readonly TranscriptItem[], minRun = 2): TranscriptRowModel[] {
  const rows: TranscriptRowModel[] = [];
  let run: ToolItem[] = [];
  const flush = () => {
    if (run.length >= minRun) rows.push({ type: 'group', key: `g${run[0].id}`, items: run });
    else for (const item of run) rows.push({ type: 'item', key: String(item.id), item });
    run = [];
  };
  for (const item of items) {
    if (isExploring(item)) {
      run.push(item);
      continue;
    }
    flush();
    rows.push({ type: 'item', key: String(item.id), item });
  }
  flush();
  return rows;
}

/** "Read 3 files · searched 2 times": what a group of read/search calls did, counted by kind. */
export function groupSummary(items: readonly ToolItem[]): string {
  const reads = items.filter((i) => i.toolKind === 'read').length;
  const searches = items.length - reads;
  const parts: string[] = [];
  if (reads) parts.push(`Read ${reads} ${reads === 1 ? 'file' : 'files'}`);
  if (searches) parts.push(`${reads ? 'searched' : 'Searched'} ${searches} ${searches === 1 ? 'time' : 'times'}`);
  return parts.join(' · ');
}
