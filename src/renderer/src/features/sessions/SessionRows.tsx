import { useState, type KeyboardEvent } from 'react';
import type { Session } from '../../../../shared/contract';
import { useApp } from '../../state/appStore';
import { sessionTitle } from '../../../../shared/sessionTitle';
import { plural, relativeTime } from './format';
import { hostLabel } from './HostedElsewhere';
import { SessionStateBadge } from './StateBadge';
import { useNow } from './useNow';

/**
 * Sessions as dense rows: state, title, agent, (workspace), last activity. ↑/↓/Home/End move
 * between rows, Enter opens one. The list is one Tab stop (roving tabindex: the row last focused),
 * so Tab goes sidebar → header toolbar → list → on, not through every row.
 */
export function SessionRows({ sessions, showWorkspace, onOpen, label }: { sessions: Session[]; showWorkspace: boolean; onOpen(id: string): void; label: string }) {
  const workspaces = useApp((s) => s.workspaces);
  const now = useNow();
  const names = new Map(workspaces.map((w) => [w.id, w.name]));
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

  return (
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
  );
}
