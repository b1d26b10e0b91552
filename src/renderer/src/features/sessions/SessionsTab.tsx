import { useState } from 'react';
import { Import, MessageSquarePlus } from 'lucide-react';
import type { Workspace } from '../../../../shared/contract';
import { useApp } from '../../state/appStore';
import { AdoptDialog } from './AdoptDialog';
import { EmptySessions } from './EmptySessions';
import { useNewSession } from './newSessionStore';
import { SessionRows } from './SessionRows';
import { NeedsYouBadge } from './StateBadge';
import { needsYouCount, useSessionList } from './useSessionList';

/** The Sessions tab of a workspace: its sessions (most recent first) and a New session button. */
export function SessionsTab({ workspace }: { workspace: Workspace }) {
  const { sessions, error } = useSessionList(workspace.id);
  const openSession = useApp((s) => s.openSession);
  const show = useNewSession((s) => s.show);
  const [adoptOpen, setAdoptOpen] = useState(false);
  const adopt = (
    <>
      <button className="button" onClick={() => setAdoptOpen(true)} disabled={workspace.missing} title="Adopt a session an agent started outside Atrium">
        <Import size={14} /> Adopt…
      </button>
      <AdoptDialog workspace={workspace} open={adoptOpen} onOpenChange={setAdoptOpen} />
    </>
  );
  if (error && !sessions) return <div className="banner banner-error">Could not list sessions: {error}</div>;
  if (!sessions) return <p className="muted">Loading sessions…</p>;
  if (sessions.length === 0) return <EmptySessions workspaceId={workspace.id} missing={workspace.missing} extra={adopt} />;
  return (
    <div className="sess-list-pane">
      <div className="sess-toolbar">
        <span className="muted">{sessions.length === 1 ? '1 session' : `${sessions.length} sessions`}</span>
        <NeedsYouBadge count={needsYouCount(sessions)} />
        <span className="spacer" />
        {adopt}
        <button className="button primary" onClick={() => show(workspace.id)} disabled={workspace.missing}>
          <MessageSquarePlus size={14} /> New session
        </button>
      </div>
      <SessionRows
        sessions={sessions}
        showWorkspace={false}
        label={`Sessions in ${workspace.name}`}
        onOpen={(id) => openSession(id, { kind: 'workspace', id: workspace.id, tab: 'sessions' })}
      />
    </div>
  );
}

/** The count shown on the Sessions tab: sessions that need a permission answer. */
export function SessionsTabBadge({ workspaceId }: { workspaceId: string }) {
  const { sessions } = useSessionList(workspaceId);
  const n = needsYouCount(sessions);
  if (!n) return null;
  return (
    <span className="badge sess-state-attention tab-badge" data-testid="sessions-tab-badge" title={`${n} waiting for your permission answer`}>
      {n}
    </span>
  );
}
