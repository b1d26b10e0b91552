import { MessageSquarePlus } from 'lucide-react';
import { useApp } from '../../state/appStore';
import { EmptySessions } from './EmptySessions';
import { IdleShutdownSetting } from './IdleShutdownSetting';
import { useNewSession } from './newSessionStore';
import { SessionRows } from './SessionRows';
import { PickupButton } from './PickupDialog';
import { NeedsYouBadge } from './StateBadge';
import { needsYouCount, useSessionList } from './useSessionList';

/** The global sessions list (sidebar → Sessions): every workspace's sessions, most recent first. */
export function SessionsView() {
  const { sessions, error } = useSessionList(null);
  const openSession = useApp((s) => s.openSession);
  const show = useNewSession((s) => s.show);
  const hasWorkspaces = useApp((s) => s.workspaces.length > 0);
  return (
    <section className="workspace-view sess-global" aria-labelledby="sessions-title">
      <header className="workspace-header">
        <div className="workspace-title-block">
          <h1 id="sessions-title">Sessions</h1>
          <NeedsYouBadge count={needsYouCount(sessions)} />
        </div>
        <div className="toolbar">
          <IdleShutdownSetting />
          <PickupButton />
          <button className="button primary" onClick={() => show(null)} disabled={!hasWorkspaces} title={hasWorkspaces ? undefined : 'Add a workspace first'}>
            <MessageSquarePlus size={14} /> New session
          </button>
        </div>
      </header>
      <div className="tab-content">
        {error && !sessions && <div className="banner banner-error">Could not list sessions: {error}</div>}
        {!sessions && !error && <p className="muted">Loading sessions…</p>}
        {sessions?.length === 0 &&
          (hasWorkspaces ? (
            <EmptySessions workspaceId={null} />
          ) : (
            <div className="empty-inline sess-empty">
              <h2>No sessions yet</h2>
              <p className="muted">A session runs a coding agent in a workspace folder. Add a workspace first (+ in the sidebar), then start a session in it.</p>
            </div>
          ))}
        {sessions && sessions.length > 0 && <SessionRows sessions={sessions} showWorkspace label="All sessions" onOpen={(id) => openSession(id, { kind: 'sessions' })} />}
      </div>
    </section>
  );
}
