import { memo, useMemo } from 'react';
import { diffLines } from 'diff';

type Row = { kind: 'add' | 'del' | 'same' | 'fold'; text: string };

/** Line rows of the change from `oldText` (null = new file) to `newText`; long unchanged runs are folded. */
export function diffRows(oldText: string | null, newText: string): Row[] {
  const rows: Row[] = [];
  for (const part of diffLines(oldText ?? '', newText)) {
    const lines = part.value.replace(/\n$/, '').split('\n');
    const kind: Row['kind'] = part.added ? 'add' : part.removed ? 'del' : 'same';
    if (kind === 'same' && lines.length > 7) {
      rows.push(...lines.slice(0, 3).map((text) => ({ kind, text })));
      rows.push({ kind: 'fold', text: `… ${lines.length - 6} unchanged lines …` });
      rows.push(...lines.slice(-3).map((text) => ({ kind, text })));
    } else rows.push(...lines.map((text) => ({ kind, text })));
  }
  return rows;
}

/** An ACP diff (a file's old and new text) as a unified line diff with +/− gutters. */
export const DiffView = memo(function DiffView({ path, oldText, newText, truncated }: { path: string; oldText: string | null; newText: string; truncated: boolean }) {
  const rows = useMemo(() => diffRows(oldText, newText), [oldText, newText]);
  const added = rows.filter((r) => r.kind === 'add').length;
  const removed = rows.filter((r) => r.kind === 'del').length;
  return (
    <figure className="sess-diff">
      <figcaption className="sess-diff-head">
        <code className="sess-path">{path}</code>
        <span className="muted">
          {oldText === null ? 'new file' : 'changed'} · <span className="sess-add">+{added}</span> <span className="sess-del">−{removed}</span>
          {truncated && ' · truncated to 256 KiB'}
        </span>
      </figcaption>
      <pre className="sess-diff-body" aria-label={`Diff of ${path}`}>
        {rows.map((r, i) => (
          <span key={i} className={`sess-diff-line sess-diff-${r.kind}`}>
            <span className="sess-diff-gutter" aria-hidden>
              {r.kind === 'add' ? '+' : r.kind === 'del' ? '−' : ' '}
            </span>
            {r.kind === 'add' && <span className="sr-only">added: </span>}
            {r.kind === 'del' && <span className="sr-only">removed: </span>}
            {r.text}
            {'\n'}
          </span>
        ))}
      </pre>
    </figure>
  );
});
