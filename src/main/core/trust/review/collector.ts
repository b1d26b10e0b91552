import { TrustItemKind, type TrustItemCounts, type TrustItemDetail, type TrustReviewItem, type TrustWarning } from '../../../../shared/contract';
import { compareCodePoints } from '../../files/listWorkspaceFiles';

/** An item before it gets its id; `warnings` and `detail` may be omitted. */
export interface DraftItem {
  kind: TrustReviewItem['kind'];
  path: string;
  line?: number | null;
  name: string;
  summary: string;
  executable: boolean;
  tool: string;
  warnings?: TrustWarning[];
  detail?: TrustItemDetail;
}

/**
 * Gathers review items and review-level warnings from the per-format readers, then hands them
 * out sorted (executable first, then kind order, path, line) with stable ids.
 */
export class ReviewCollector {
  private readonly items: DraftItem[] = [];
  readonly warnings: TrustWarning[] = [];

  add(item: DraftItem): void {
    this.items.push(item);
  }

  warn(warning: TrustWarning): void {
    this.warnings.push(warning);
  }

  /** The items added so far, unsorted and without ids (for a caller that post-processes them). */
  drafts(): readonly DraftItem[] {
    return this.items;
  }

  /** Sorted items with ids `kind:path:line:n` (n counts duplicates). */
  finish(): { items: TrustReviewItem[]; counts: TrustItemCounts; executableCount: number } {
    const order = new Map(TrustItemKind.options.map((k, i) => [k, i]));
    const sorted = [...this.items].sort(
      (a, b) =>
        Number(b.executable) - Number(a.executable) ||
        order.get(a.kind)! - order.get(b.kind)! ||
        compareCodePoints(a.path, b.path) ||
        (a.line ?? 0) - (b.line ?? 0),
    );
    const seen = new Map<string, number>();
    const items = sorted.map((d): TrustReviewItem => {
      const base = `${d.kind}:${d.path}:${d.line ?? 0}`;
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      return {
        id: `${base}:${n}`,
        kind: d.kind,
        path: d.path,
        line: d.line ?? null,
        name: d.name,
        summary: d.summary,
        executable: d.executable,
        tool: d.tool,
        warnings: d.warnings ?? [],
        uncovered: [],
        detail: d.detail ?? {},
      };
    });
    const counts = Object.fromEntries(TrustItemKind.options.map((k) => [k, 0])) as TrustItemCounts;
    for (const item of items) counts[item.kind]++;
    return { items, counts, executableCount: items.filter((i) => i.executable).length };
  }
}
