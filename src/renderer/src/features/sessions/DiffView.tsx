import { memo, useMemo } from 'react';
import { DiffLines, diffRows } from '../../components/DiffLines';
import { OpenInEditor } from '../../components/OpenInEditor';

/** An ACP diff (a file's old and new text) as a unified line diff with +/− gutters. */
export const DiffView = memo(function DiffView({ path, oldText, newText, truncated }: { path: string; oldText: string | null; newText: string; truncated: boolean }) {
  const rows = useMemo(() => diffRows(oldText ?? '', newText, 3, 7), [oldText, newText]);
  const added = rows.filter((r) => r.kind === 'add').length;
  const removed = rows.filter((r) => r.kind === 'del').length;
  return (
    <figure className="sess-diff">
      <figcaption className="sess-diff-head">
        <code className="sess-path">{path}</code>
        {isAbsolutePath(path) && <OpenInEditor path={path} compact />}
        <span className="muted">
          {oldText === null ? 'new file' : 'changed'} · <span className="sess-add">+{added}</span> <span className="sess-del">−{removed}</span>
          {truncated && ' · truncated to 256 KiB'}
        </span>
      </figcaption>
      <DiffLines rows={rows} label={`Diff of ${path}`} className="sess-diff-body" linePrefix="sess-diff" />
    </figure>
  );
});

/** A POSIX (`/…`) or Windows (`C:\\…`, `C:/…`) absolute path: ACP sends absolute paths, but an agent may not. */
export function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p);
}
