import { useRef, useState, type KeyboardEvent } from 'react';
import { Download, FolderGit2, FolderOpen, FolderX, Plus, Settings } from 'lucide-react';
import { SidebarSessionsEntry } from '../sessions/SidebarSessionsEntry';
import { SidebarTrustEntry } from '../trust/SidebarTrustEntry';
import { UpdateStatus } from '../updates/UpdateStatus';
import { ImportTrustDialog } from '../trust/ImportTrustDialog';
import { sharesTrustText } from '../trust/SharesTrust';
import { TrustBadge } from '../trust/TrustBadge';
import { Tooltip } from 'radix-ui';
import { shortcut } from '../../components/format';
import type { Workspace } from '../../../../shared/contract';
import { useApp } from '../../state/appStore';

/**
 * A sidebar row's tooltip: the full name first (the row may cut it with an ellipsis), then the
 * folder, whether it is missing, and what it shares trust with.
 */
export function workspaceTooltip(w: Workspace, home: string | undefined): string {
  const shares = sharesTrustText(w, home);
  return [w.name, w.missing ? `${w.path} (folder missing: select it to locate it)` : w.path, shares].filter(Boolean).join('\n');
}

/**
 * The workspace list. Keyboard: ↑/↓/Home/End move and open that workspace, Enter/Space open the
 * focused one, F2 rename, Delete remove; Ctrl/⌘+O adds a workspace from anywhere. Focus alone (Tab
 * into the list) never switches the view: the trial lost the Sessions view by tabbing past it.
 */
export function Sidebar() {
  const workspaces = useApp((s) => s.workspaces);
  const loaded = useApp((s) => s.workspacesLoaded);
  const home = useApp((s) => s.info?.homeDir);
  const selectedId = useApp((s) => s.selectedId);
  const select = useApp((s) => s.select);
  const openDialog = useApp((s) => s.openDialog);
  const showSettings = useApp((s) => s.showSettings);
  const inSettings = useApp((s) => s.view === 'settings');
  const listRef = useRef<HTMLUListElement>(null);
  const [importOpen, setImportOpen] = useState(false);

  /** Moves focus to item `i` (clamped) and opens that workspace (arrow navigation selects). */
  const focusIndex = (i: number) => {
    const items = listRef.current?.querySelectorAll<HTMLButtonElement>('[data-workspace-id]');
    const item = items?.[Math.max(0, Math.min(i, items.length - 1))];
    item?.focus();
    if (item?.dataset.workspaceId) select(item.dataset.workspaceId);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>, index: number, id: string) => {
    const actions: Record<string, () => void> = {
      ArrowDown: () => focusIndex(index + 1),
      ArrowUp: () => focusIndex(index - 1),
      Home: () => focusIndex(0),
      End: () => focusIndex(workspaces.length - 1),
      F2: () => openDialog({ kind: 'rename', id }),
      Delete: () => openDialog({ kind: 'remove', id }),
      Backspace: () => openDialog({ kind: 'remove', id }),
    };
    const action = actions[e.key];
    if (!action) return;
    e.preventDefault();
    action();
  };

  return (
    <nav className="sidebar" aria-label="Workspaces">
      <header className="sidebar-header">
        <span className="brand">Atrium</span>
        <Tooltip.Root>
          <Tooltip.Trigger asChild>
            <button className="icon-button" aria-label="Add workspace" onClick={() => openDialog({ kind: 'add' })}>
              <Plus size={16} />
            </button>
          </Tooltip.Trigger>
          <Tooltip.Portal>
            <Tooltip.Content className="tooltip" side="bottom">
              Add workspace ({shortcut('O')})
            </Tooltip.Content>
          </Tooltip.Portal>
        </Tooltip.Root>
      </header>
      <SidebarSessionsEntry />
      <SidebarTrustEntry />
      <div className="sidebar-section-title">Workspaces</div>
      {workspaces.length === 0 ? (
        // not loaded yet (or never, without a valid token): say nothing rather than "none"
        loaded && <p className="sidebar-empty">No workspaces yet.</p>
      ) : (
        <ul className="workspace-list" ref={listRef} role="listbox" aria-label="Workspaces">
          {workspaces.map((w, i) => (
            <li key={w.id} role="presentation">
              <button
                role="option"
                aria-selected={w.id === selectedId}
                className={`workspace-item${w.id === selectedId ? ' selected' : ''}`}
                data-workspace-id={w.id}
                title={workspaceTooltip(w, home)}
                tabIndex={w.id === selectedId || (!selectedId && i === 0) ? 0 : -1}
                onClick={() => select(w.id)}
                onKeyDown={(e) => onKeyDown(e, i, w.id)}
              >
                {w.missing ? <FolderX size={15} className="muted" /> : w.worktreeOf ? <FolderGit2 size={15} /> : <FolderOpen size={15} />}
                <span className="workspace-name">{w.name}</span>
                {w.missing ? <span className="badge badge-warn" data-testid="workspace-missing">missing</span> : <TrustBadge trust={w.trust} compact sharesTrust={sharesTrustText(w, home)} />}
              </button>
            </li>
          ))}
        </ul>
      )}
      <footer className="sidebar-footer">
        <UpdateStatus />
        <button className={`link-button sidebar-settings${inSettings ? ' active' : ''}`} aria-current={inSettings ? 'page' : undefined} onClick={() => showSettings()} title={`Settings (${shortcut(',')})`}>
          <Settings size={13} /> Settings
        </button>
        <button className="link-button" onClick={() => setImportOpen(true)} title="Suggestions from Claude Code, Codex and Gemini CLI; you confirm each">
          <Download size={13} /> Import trust decisions…
        </button>
      </footer>
      <ImportTrustDialog open={importOpen} onOpenChange={setImportOpen} />
    </nav>
  );
}
