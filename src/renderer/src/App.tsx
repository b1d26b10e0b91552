import { useEffect, type CSSProperties } from 'react';
import { Toaster } from 'sonner';
import { Tooltip } from 'radix-ui';
import { ConnectionBanner, useActionsBlocked } from './components/ConnectionBanner';
import { LinkDialog } from './features/links/LinkDialog';
import { NewSessionDialog } from './features/sessions/NewSessionDialog';
import { SessionsView } from './features/sessions/SessionsView';
import { SessionView } from './features/sessions/SessionView';
import { SettingsView } from './features/settings/SettingsView';
import { TrustedFoldersView } from './features/trust/TrustedFoldersView';
import { AddWorkspaceDialog } from './features/workspaces/AddWorkspaceDialog';
import { RemoveWorkspaceDialog } from './features/workspaces/RemoveWorkspaceDialog';
import { RenameWorkspaceDialog } from './features/workspaces/RenameWorkspaceDialog';
import { Sidebar } from './features/workspaces/Sidebar';
import { WelcomeView } from './features/workspaces/WelcomeView';
import { WorkspaceView } from './features/workspaces/WorkspaceView';
import { useApp, useSelectedWorkspace } from './state/appStore';
import './styles/navigation.css';

/** The app shell: workspace sidebar on the left; the selected workspace, the sessions list or one session (or a welcome) on the right. */
export function App() {
  const selected = useSelectedWorkspace();
  const view = useApp((s) => s.view);
  const sessionId = useApp((s) => s.sessionId);
  const blocked = useActionsBlocked();
  useGlobalShortcuts();
  return (
    <Tooltip.Provider delayDuration={400}>
      {/* while the server is unreachable every control is disabled (a fieldset disables all of them at
          once), with the reason in the banner and as the controls' tooltip */}
      <fieldset className="app" role="presentation" disabled={blocked !== null} title={blocked ?? undefined} data-blocked={blocked !== null || undefined}>
        <Sidebar />
        <main className="main" aria-label="Workspace">
          <ConnectionBanner />
          {view === 'settings' ? (
            <SettingsView />
          ) : view === 'session' && sessionId ? (
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
      </fieldset>
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
      // no new dialog while the server is unreachable (the controls are disabled too)
      if (mod && !e.shiftKey && e.key.toLowerCase() === 'o' && useApp.getState().connection === 'open') {
        e.preventDefault();
        useApp.getState().openDialog({ kind: 'add' });
      }
      if (mod && !e.shiftKey && !e.altKey && e.key === ',') {
        e.preventDefault();
        useApp.getState().showSettings();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
