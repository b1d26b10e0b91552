import { useRef, useState, type KeyboardEvent } from 'react';
import { useFilterShortcut } from '../../components/FilterBox';
import { Search, X } from 'lucide-react';
import type { Session } from '../../../../shared/contract';
import { useApp } from '../../state/appStore';
import { sessionTitle } from '../../../../shared/sessionTitle';
import { plural, relativeTime } from './format';
import { hostLabel } from './HostedElsewhere';
import { SessionStateBadge, sessionStateLabel } from './StateBadge';
import { useNow } from './useNow';

/**
 * Sessions that match `query` (case-insensitive words, all of which must appear) in their title,
 * agent, workspace name, folder or state (its badge's words, "needs you", as well as its state
 * name); an empty query keeps them all.
 */
export function filterSessions(sessions: readonly Session[], query: string, workspaceName: (id: string | null) => string | null): Session[] {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return sessions.slice();
  return sessions.filter((s) => {
    const hay = [sessionTitle(s, workspaceName(s.workspaceId)), s.agentId, s.agentVersion ?? '', workspaceName(s.workspaceId) ?? '', s.cwd, s.state, sessionStateLabel(s), s.id].join('\n').toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}

/**
 * Sessions as dense rows: state, title, agent, (workspace), last activity. ↑/↓/Home/End move
 * between rows, Enter opens one. The list is one Tab stop (roving tabindex: the row last focused),
 * so Tab goes sidebar → header toolbar → list → on, not through every row.
 */
export function SessionRows({ sessions: all, showWorkspace, onOpen, label }: { sessions: Session[]; showWorkspace: boolean; onOpen(id: string): void; label: string }) {
  const workspaces = useApp((s) => s.workspaces);
  const now = useNow();
  const names = new Map(workspaces.map((w) => [w.id, w.name]));
  const [query, setQuery] = useState('');
  const filterInput = useRef<HTMLInputElement>(null);
  useFilterShortcut(filterInput);
  const sessions = filterSessions(all, query, (id) => (id ? (names.get(id) ?? null) : null));
  const [current, setCurrent] = useState<string | null>(null);
  const tabStop = sessions.some((s) => s.id === current) ? current : (sessions[0]?.id ?? null);

  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Home' && e.key !== 'End') return;
    e.preventDefault();
    const rows = [...(e.currentTarget.closest('.sess-rows')?.querySelectorAll<HTMLButtonElement>('.sess-row') ?? [])];
    const i = rows.indexOf(e.currentTarget);
    const next = e.key === 'Home' ? 0 : e.key === 'End' ? rows.length - 1 : i + (e.key === 'ArrowDown' ? 1 : -1);
    rows[Math.max(0, Math.min(rows.length - 1, next))]?.focus();
  };

  const filtering = query.trim() !== '';
  return (
    <>
      <div className="sess-filter" role="search" aria-label={`Filter ${label}`}>
        <Search size={13} aria-hidden className="muted" />
        <input
          ref={filterInput}
          className="input sess-filter-input"
          type="search"
          placeholder="Filter by title, agent, workspace, folder or state"
          aria-label="Filter sessions"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && query) {
              e.preventDefault();
              e.stopPropagation();
              setQuery('');
            } else if (e.key === 'ArrowDown') {
              e.preventDefault();
              e.currentTarget.closest('.sess-filter')?.nextElementSibling?.querySelector<HTMLButtonElement>('.sess-row')?.focus();
            }
          }}
        />
        <span className="muted sess-filter-count" role="status" aria-live="polite">
          {filtering ? `${sessions.length} of ${all.length}` : ''}
        </span>
      </div>
      {filtering && sessions.length === 0 && (
        <div className="empty-inline sess-filter-empty">
          <p className="muted">No session matches “{query.trim()}”. Every word must appear in the title, agent, workspace, folder or state.</p>
          <button className="button" onClick={() => setQuery('')}>
            <X size={13} aria-hidden /> Clear the filter
          </button>
        </div>
      )}
    <ul className="sess-rows" aria-label={label}>
      {sessions.map((s) => (
        <li key={s.id}>
          <button className={`sess-row${s.pendingPermissions > 0 ? ' attention' : ''}`} data-session-id={s.id} tabIndex={s.id === tabStop ? 0 : -1} onFocus={() => setCurrent(s.id)} onClick={() => onOpen(s.id)} onKeyDown={onKeyDown}>
            <span className="sess-row-state">
              <SessionStateBadge session={s} />
              {s.hostedElsewhere && (
                <span className="sess-row-host muted" title={`Runs in ${s.hostedElsewhere.description}`}>
                  {hostLabel(s.hostedElsewhere)}
                </span>
              )}
            </span>
            <span className="sess-row-title">{sessionTitle(s, s.workspaceId ? names.get(s.workspaceId) : null)}</span>
            <span className="sess-row-meta">
              <span className="sess-agent" title={s.agentVersion ? `${s.agentId} ${s.agentVersion}` : s.agentId}>
                {s.agentId}
                {s.agentVersion && <span className="muted">@{s.agentVersion}</span>}
              </span>
              {showWorkspace && <span className="sess-row-ws">{s.workspaceId ? (names.get(s.workspaceId) ?? 'removed workspace') : s.cwd}</span>}
              {s.queue.length > 0 && <span className="badge badge-muted">{plural(s.queue.length, 'queued prompt')}</span>}
            </span>
            <time className="sess-row-time" dateTime={s.updatedAt} title={new Date(s.updatedAt).toLocaleString()}>
              {relativeTime(s.updatedAt, now)}
            </time>
          </button>
        </li>
      ))}
    </ul>
    </>
  );
}
