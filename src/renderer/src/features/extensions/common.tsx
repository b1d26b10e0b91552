import { createContext, useContext, useState, type ReactNode } from 'react';
import { ChevronRight } from 'lucide-react';
import type { ExtensionWarning } from '../../../../shared/contract';

const SOURCE_TITLE: Record<string, string> = {
  user: 'yours: from your home folder, active in every workspace',
  project: "the repository's: active once the folder is trusted",
  local: 'yours, for this folder only (a *.local.* file or ~/.claude.json)',
  builtin: 'built into Atrium',
};

/**
 * Where a resource comes from, as a small badge (user / project / local / plugin / built-in).
 * `from` prefixes the word ("from project") where another badge names a scope too (plugins: the
 * scope that enabled it), so the two are not confused.
 */
export function SourceBadge({ source, plugin, from = false }: { source: string; plugin?: string | null; from?: boolean }) {
  const word = source === 'plugin' && plugin ? `plugin ${plugin}` : source;
  return (
    <span className={`badge ext-source ext-source-${source}`} title={plugin ? `from plugin ${plugin}` : (SOURCE_TITLE[source] ?? `${source}-level`)}>
      {from ? `from ${word}` : word}
    </span>
  );
}

/** A status badge: active resources show nothing, others say why. */
export function StatusBadge({ status, title }: { status: string; title?: string }) {
  if (status === 'active' || status === 'enabled') return null;
  const cls = status === 'invalid' || status === 'error' ? 'badge-error' : status === 'overridden' || status === 'disabled' ? 'badge-muted' : 'badge-warn';
  return (
    <span className={`badge ${cls}`} title={title}>
      {status}
    </span>
  );
}

/** Parse warnings: file, line, message and fix. */
export function Warnings({ warnings }: { warnings: readonly ExtensionWarning[] }) {
  if (warnings.length === 0) return null;
  return (
    <ul className="finding-list ext-warnings" aria-label="Warnings">
      {warnings.map((w, i) => (
        <li key={i} className="finding finding-warning">
          <code className="ext-where">
            {w.path}
            {w.line ? `:${w.line}` : ''}
          </code>{' '}
          {w.message}
          {w.fix && <div className="finding-fix">Fix: {w.fix}</div>}
        </li>
      ))}
    </ul>
  );
}

/**
 * One expandable row of a section: a button (keyboard reachable, `aria-expanded`) with the name,
 * badges and a one-line summary; the detail renders only while open.
 */
export function Row({ name, badges, summary, path, warnings, children, testId }: { name: ReactNode; badges?: ReactNode; summary?: ReactNode; path: string; warnings: number; children: ReactNode; testId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <li className={`ext-row${open ? ' open' : ''}`} data-ext-id={testId}>
      <button className="ext-row-head" aria-expanded={open} onClick={() => setOpen(!open)}>
        <ChevronRight size={13} className={open ? 'rotated' : ''} aria-hidden />
        <span className="ext-name">{name}</span>
        {badges}
        {warnings > 0 && <span className="badge badge-warn">{warnings} warning{warnings === 1 ? '' : 's'}</span>}
        <span className="ext-summary">{summary}</span>
        <span className="ext-path">{path}</span>
      </button>
      {open && <div className="ext-detail">{children}</div>}
    </li>
  );
}

/**
 * The tab's filter as sections see it: the query and each kind's unfiltered count (the sections
 * receive the filtered lists), so a section says "3 of 40" and, when nothing matches, says that
 * instead of its empty state.
 */
export const ExtensionsFilter = createContext<{ query: string; totals: Readonly<Record<string, number>> }>({ query: '', totals: {} });

/**
 * A section per kind: heading with count, rows or an empty state that says where such files go.
 * While the tab's filter is set, the heading reads "shown of total" and an empty result says no
 * match rather than teaching where such files go.
 */
export function Section({ id, title, count, empty, children }: { id: string; title: string; count: number; empty: ReactNode; children: ReactNode }) {
  const filter = useContext(ExtensionsFilter);
  const total = filter.totals[id] ?? count;
  const filtering = filter.query.trim() !== '' && total > 0;
  return (
    <section className="ext-section" aria-labelledby={`ext-${id}`} id={`ext-section-${id}`}>
      <h2 id={`ext-${id}`} className="ext-section-title">
        {title} <span className="muted">{filtering ? `${count} of ${total}` : count}</span>
      </h2>
      {count === 0 ? filtering ? <p className="ext-empty muted">None of the {total} matches the filter.</p> : <p className="ext-empty muted">{empty}</p> : <ul className="ext-list">{children}</ul>}
    </section>
  );
}
