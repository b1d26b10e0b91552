import { MessagesSquare } from 'lucide-react';
import { useApp } from '../../state/appStore';
import { needsYouCount, useSessionList } from './useSessionList';

/**
 * The sidebar's "Sessions" entry (above the workspace list) with a "needs you" count.
 */
export function SidebarSessionsEntry() {
  const view = useApp((s) => s.view);
  const showSessions = useApp((s) => s.showSessions);
  const { sessions } = useSessionList(null);
  const n = needsYouCount(sessions);
  const active = view === 'sessions' || view === 'session';
  return (
    <div className="sess-sidebar-entry">
      <button className={`workspace-item${active ? ' selected' : ''}`} aria-current={active ? 'page' : undefined} onClick={showSessions}>
        <MessagesSquare size={15} />
        <span className="workspace-name">Sessions</span>
        {n > 0 && (
          <span className="badge sess-state-attention" data-testid="sidebar-needs-you" title={`${n} session${n === 1 ? '' : 's'} waiting for your permission answer`}>
            {n}
          </span>
        )}
      </button>
    </div>
  );
}
