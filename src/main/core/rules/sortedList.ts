import { compareCodePoints } from '../files/listWorkspaceFiles';

/** First index in code-point sorted `list` whose value is ≥ `value` (binary search). */
export function lowerBound(list: readonly string[], value: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareCodePoints(list[mid], value) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
