import { useEffect } from 'react';
import { MessagesSquare } from 'lucide-react';
import { useApp } from '../../state/appStore';
import { trackPermissionTargets } from './permissionRouting';
import { needsYouCount, useSessionList } from './useSessionList';

/**
 * The sidebar's "Sessions" entry (above the workspace list) with a "needs you" count. Always
 * mounted, so it also starts recording which surface each permission request is addressed to.
 */
export function SidebarSessionsEntry() {
  const client = useApp((s) => s.client);
  useEffect(() => {
    if (client) trackPermissionTargets(client);
  }, [client]);
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
