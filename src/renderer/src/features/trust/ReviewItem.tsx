import { useState, type ReactNode } from 'react';
import { AlertTriangle, ChevronRight, Terminal } from 'lucide-react';
import type { Hook, McpServer, TrustReviewItem } from '../../../../shared/contract';
import { useLive } from '../../api/useLive';
import { ScriptRow } from '../hooks/HookCard';
import { count } from './RestrictedBanner';
import { definitionSpan } from './definitionSpan';
import './trustViews.css';

/** Kinds whose item is one definition inside a larger settings file (shown as its own lines), not a whole file. */
const DEFINED_IN_FILE = new Set<TrustReviewItem['kind']>(['hook', 'mcpServer', 'lspServer', 'setting', 'env']);

/**
 * One item of the trust review: a head (runs-code mark, name, state, summary, file:line), the
 * literal command, what its digest does not cover and its warnings; expanded, the item's own
 * lines of its file (numbered, with "Show the whole file") and, for a hook, each script it runs
 * (kept current when the script changes on disk).
 */
export function ReviewItem({ item, workspaceId, listed, hookState, uncovered }: { item: TrustReviewItem; workspaceId: string; listed: Hook | McpServer | null; hookState?: ReactNode; uncovered?: ReactNode }) {
  const [open, setOpen] = useState(false);
  // `command` is already the whole literal command line (arguments included), exactly as configured.
  const literal = item.detail.command ?? item.detail.url;
  const scripts = listed && 'scripts' in listed ? listed.scripts : [];
  return (
    <li className={`review-item${item.executable ? ' executable' : ''}`} data-kind={item.kind} data-item-id={item.id}>
      <button className="review-item-head" aria-expanded={open} onClick={() => setOpen(!open)}>
        <ChevronRight size={14} className={open ? 'rotated' : ''} aria-hidden />
        {item.executable && (
          <span className="badge badge-error" title="Runs code or contacts a server when active">
            <Terminal size={11} aria-hidden /> runs code
          </span>
        )}
        <span className="review-item-name">{item.name}</span>
        {hookState}
        <span className="review-item-summary">{item.summary}</span>
        <span className="review-item-path">
          {item.path}
          {item.line ? `:${item.line}` : ''}
        </span>
        {item.warnings.length > 0 && <span className="badge badge-warn">{count(item.warnings.length, 'warning')}</span>}
      </button>
      {literal && (
        <pre className="literal-command" aria-label="Literal command">
          {literal}
        </pre>
      )}
      {uncovered && <div className="review-item-uncovered">{uncovered}</div>}
      {item.warnings.map((w, i) => (
        <p key={i} className="warning-line">
          <AlertTriangle size={13} /> {w.path}
          {w.line ? `:${w.line}` : ''}: {w.message} {w.fix && <em>{w.fix}</em>}
        </p>
      ))}
      {open && (
        <div className="review-item-detail">
          {item.detail.envNames && <p>Sets environment variables: {item.detail.envNames.join(', ')} (values not shown).</p>}
          {item.detail.variables && (
            <p>
              Reads from your environment when it starts: <code>{item.detail.variables.join(' ')}</code>
            </p>
          )}
          {item.detail.shellEmbeds && item.detail.shellEmbeds.length > 0 && <p>Runs through a shell when invoked: {item.detail.shellEmbeds.map((c) => <code key={c}>{c}</code>)}</p>}
          <ItemSource item={item} workspaceId={workspaceId} />
          {listed && scripts.length > 0 && (
            <ul className="hook-scripts" aria-label="Scripts it runs">
              {scripts.map((s) => (
                <ScriptRow key={s.path} workspaceId={workspaceId} hookId={listed.id} script={s} />
              ))}
            </ul>
          )}
        </div>
      )}
    </li>
  );
}

/**
 * The file behind an item, as `trust.readFile` returns it (secret values masked): for a
 * definition inside a settings file only its own lines, numbered as in the file, with a toggle to
 * the whole file; for a file that is the item (an instruction file, a skill) the whole file.
 * Re-read when hooks or trust change, so it follows the disk.
 */
function ItemSource({ item, workspaceId }: { item: TrustReviewItem; workspaceId: string }) {
  const [whole, setWhole] = useState(false);
  const file = useLive('trust.readFile', { workspaceId, path: item.path }, ['hooksChanged', 'trustChanged']);
  if (file.error) return <p className="field-error">{file.error}</p>;
  if (!file.data) return <p className="muted">Reading {item.path}…</p>;
  if (file.data.binary) return <p className="muted">Binary file ({file.data.size} bytes).</p>;
  const span = DEFINED_IN_FILE.has(item.kind) && item.line ? definitionSpan(file.data.content, item.line) : null;
  const lines = file.data.content.split('\n');
  const shown = span && !whole ? span : { start: 1, end: lines.length };
  const label = span && !whole ? `${item.path}, lines ${shown.start}–${shown.end}` : `Content of ${item.path}`;
  return (
    <div className="item-source">
      <div className="item-source-head">
        <span className="muted">{span && !whole ? `Lines ${shown.start}–${shown.end} of ${item.path}` : item.path}</span>
        {span && (
          <button className="link-button" aria-pressed={whole} onClick={() => setWhole(!whole)}>
            {whole ? `Show only lines ${span.start}–${span.end}` : 'Show the whole file'}
          </button>
        )}
      </div>
      <pre className="file-content numbered" aria-label={label}>
        {lines.slice(shown.start - 1, shown.end).map((text, i) => (
          <span key={i} className={`src-line${span && whole && shown.start + i >= span.start && shown.start + i <= span.end ? ' src-line-mark' : ''}`}>
            <span className="src-line-no" aria-hidden>
              {shown.start + i}
            </span>
            {text}
            {'\n'}
          </span>
        ))}
      </pre>
      {file.data.truncated && <p className="muted">Showing the first 1 MiB of {file.data.size} bytes.</p>}
    </div>
  );
}
