import { useEffect, type CSSProperties } from 'react';
import { Toaster } from 'sonner';
import { Tooltip } from 'radix-ui';
import { ConnectionBanner } from './components/ConnectionBanner';
import { LinkDialog } from './features/links/LinkDialog';
import { NewSessionDialog } from './features/sessions/NewSessionDialog';
import { SessionsView } from './features/sessions/SessionsView';
import { SessionView } from './features/sessions/SessionView';
import { TrustedFoldersView } from './features/trust/TrustedFoldersView';
import { AddWorkspaceDialog } from './features/workspaces/AddWorkspaceDialog';
import { RemoveWorkspaceDialog } from './features/workspaces/RemoveWorkspaceDialog';
import { RenameWorkspaceDialog } from './features/workspaces/RenameWorkspaceDialog';
import { Sidebar } from './features/workspaces/Sidebar';
import { WelcomeView } from './features/workspaces/WelcomeView';
import { WorkspaceView } from './features/workspaces/WorkspaceView';
import { useApp, useSelectedWorkspace } from './state/appStore';

/** The app shell: workspace sidebar on the left; the selected workspace, the sessions list or one session (or a welcome) on the right. */
export function App() {
  const selected = useSelectedWorkspace();
  const view = useApp((s) => s.view);
  const sessionId = useApp((s) => s.sessionId);
  useGlobalShortcuts();
  return (
    <Tooltip.Provider delayDuration={400}>
      <div className="app">
        <Sidebar />
        <main className="main" aria-label="Workspace">
          <ConnectionBanner />
          {view === 'session' && sessionId ? (
            <SessionView key={sessionId} sessionId={sessionId} />
          ) : view === 'sessions' ? (
            <SessionsView />
          ) : view === 'trust' ? (
            <TrustedFoldersView />
          ) : selected ? (
            <WorkspaceView key={selected.id} workspace={selected} />
          ) : (
            <WelcomeView />
          )}
        </main>
      </div>
      <AddWorkspaceDialog />
      <RenameWorkspaceDialog />
      <RemoveWorkspaceDialog />
      <NewSessionDialog />
      <LinkDialog />
      {/* bottom-left, inside the sidebar and above its footer: the one spot where a toast covers no
          action of the main pane (Send, Start session, Revoke right after Approve stay clickable) */}
      <Toaster theme="system" position="bottom-left" offset={TOAST_OFFSET} style={TOAST_STYLE} closeButton />
    </Tooltip.Provider>
  );
}

/** Toasts sit over the sidebar (240 px wide, see `.app`), above its footer. */
const TOAST_OFFSET = { left: 10, bottom: 52 };
const TOAST_STYLE = { '--width': '220px' } as CSSProperties;

function useGlobalShortcuts() {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.metaKey || e.ctrlKey;
      if (mod && !e.shiftKey && e.key.toLowerCase() === 'o') {
        e.preventDefault();
        useApp.getState().openDialog({ kind: 'add' });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
