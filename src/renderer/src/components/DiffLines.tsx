import { diffLines } from 'diff';

/** One rendered line of a unified diff; `fold` stands for a run of unchanged lines left out. */
export type DiffRow = { kind: 'add' | 'del' | 'same' | 'fold'; text: string };

/**
 * Line rows of the change from `before` to `after` (the `diff` package). A run of more than
 * `foldAbove` unchanged lines keeps `context` lines at each end and folds the rest into one row.
 */
export function diffRows(before: string, after: string, context: number, foldAbove: number): DiffRow[] {
  const rows: DiffRow[] = [];
  for (const part of diffLines(before, after)) {
    const lines = part.value.replace(/\n$/, '').split('\n');
    const kind: DiffRow['kind'] = part.added ? 'add' : part.removed ? 'del' : 'same';
    if (kind === 'same' && lines.length > foldAbove) {
      rows.push(...lines.slice(0, context).map((text) => ({ kind, text })));
      rows.push({ kind: 'fold', text: `… ${lines.length - 2 * context} unchanged lines …` });
      rows.push(...lines.slice(-context).map((text) => ({ kind, text })));
    } else rows.push(...lines.map((text) => ({ kind, text })));
  }
  return rows;
}

/**
 * Rows as a `<pre>` with +/− gutters and screen-reader labels. `classPrefix` keeps each caller's
 * styling (`hook-diff` → `diff-line diff-add`, `sess-diff` → `sess-diff-line sess-diff-add`).
 */
export function DiffLines({ rows, label, className, linePrefix }: { rows: DiffRow[]; label: string; className: string; linePrefix: string }) {
  return (
    <pre className={className} aria-label={label}>
      {rows.map((r, i) => (
        <span key={i} className={`${linePrefix}-line ${linePrefix}-${r.kind}`}>
          <span className={`${linePrefix}-gutter`} aria-hidden>
            {r.kind === 'add' ? '+' : r.kind === 'del' ? '−' : ' '}
          </span>
          {r.kind === 'add' && <span className="sr-only">added: </span>}
          {r.kind === 'del' && <span className="sr-only">removed: </span>}
          {r.text}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}
