import type { TranscriptItem } from '../../../../shared/contract';

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
