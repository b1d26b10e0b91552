import { useState } from 'react';
import { ExtensionsTab } from '../extensions/ExtensionsTab';
import { HooksTab } from '../hooks/HooksTab';
import { HooksTabBadge } from '../hooks/HooksTabBadge';
import { AgentSettings } from '../providers/AgentSettings';
import { RulesTab } from '../rules/RulesTab';
import { SessionsTab, SessionsTabBadge } from '../sessions/SessionsTab';
import { RestrictedBanner } from '../trust/RestrictedBanner';
import { SharesTrust } from '../trust/SharesTrust';
import { TrustBadge } from '../trust/TrustBadge';
import { TrustReviewDialog } from '../trust/TrustReviewDialog';
import { TrustTab } from '../trust/TrustTab';
import { useTrustReview } from '../trust/useTrustReview';
import { FolderSearch, Pencil, Trash2 } from 'lucide-react';
import { Tabs } from 'radix-ui';
import type { Workspace } from '../../../../shared/contract';
import { useApp } from '../../state/appStore';
import { LocateWorkspaceDialog } from './LocateWorkspaceDialog';
import { Overview } from './OverviewTab';

/** The selected workspace: header with actions, then tabs (Overview now; capabilities add theirs). */
export function WorkspaceView({ workspace }: { workspace: Workspace }) {
  const openDialog = useApp((s) => s.openDialog);
  const home = useApp((s) => s.info?.homeDir);
  const [reviewOpen, setReviewOpen] = useState(false);
  const [locateOpen, setLocateOpen] = useState(false);
  const tab = useApp((s) => s.workspaceTab);
  const select = useApp((s) => s.select);
  const setTab = (t: string) => select(workspace.id, t);
  const reviewed = useTrustReview(workspace.missing ? null : workspace.id).data;
  const review = reviewed?.review ?? null;
  const agentNotes = reviewed?.agents ?? null;
  return (
    <section className="workspace-view" aria-labelledby="workspace-title">
      <header className="workspace-header">
        <div className="workspace-title-block">
          <h1 id="workspace-title">{workspace.name}</h1>
          <TrustBadge trust={workspace.trust} />
          <SharesTrust workspace={workspace} home={home} />
          {workspace.missing && <span className="badge badge-warn">missing</span>}
        </div>
        <div className="toolbar">
          {workspace.missing && (
            <button className="button primary" onClick={() => setLocateOpen(true)} title="Point this workspace at the folder's new place">
              <FolderSearch size={14} /> Locate…
            </button>
          )}
          <button className="button" onClick={() => openDialog({ kind: 'rename', id: workspace.id })} title="Rename (F2 in the list)">
            <Pencil size={14} /> Rename
          </button>
          <button className="button danger-ghost" onClick={() => openDialog({ kind: 'remove', id: workspace.id })} title="Remove from Atrium (Delete in the list)">
            <Trash2 size={14} /> Remove
          </button>
        </div>
      </header>
      {workspace.missing && (
        <div className="banner banner-warn missing-banner" role="status" aria-label="Folder missing">
          <span>
            <strong>The folder is missing.</strong> Nothing is at <code>{workspace.path}</code> any more. If you moved or renamed it, locate it to keep this
            workspace and its sessions; Atrium never deletes files.
          </span>
          <button className="button" onClick={() => setLocateOpen(true)}>
            Locate…
          </button>
        </div>
      )}
      <RestrictedBanner workspace={workspace} review={review} onReview={() => setReviewOpen(true)} />
      <Tabs.Root className="tabs" value={tab} onValueChange={setTab}>
        <Tabs.List className="tab-list" aria-label="Workspace sections">
          <Tabs.Trigger className="tab" value="overview">
            Overview
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="sessions">
            Sessions <SessionsTabBadge workspaceId={workspace.id} />
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="rules">
            Rules
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="trust">
            Trust
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="extensions">
            Extensions
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="hooks">
            Hooks {!workspace.missing && <HooksTabBadge workspaceId={workspace.id} name={workspace.name} />}
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="agent-settings">
            Agent settings
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content className="tab-content" value="overview">
          <Overview workspace={workspace} review={review} onOpenTab={setTab} onReview={() => setReviewOpen(true)} />
        </Tabs.Content>
        <Tabs.Content className="tab-content" value="sessions">
          <SessionsTab workspace={workspace} />
        </Tabs.Content>
        <Tabs.Content className="tab-content" value="rules">
          {workspace.missing ? <p className="muted">The folder is missing: locate it (above) to see its rules.</p> : <RulesTab workspace={workspace} onReview={() => setReviewOpen(true)} />}
        </Tabs.Content>
        <Tabs.Content className="tab-content" value="trust">
          <TrustTab workspace={workspace} review={review} agents={agentNotes} onReview={() => setReviewOpen(true)} />
        </Tabs.Content>
        <Tabs.Content className="tab-content" value="extensions">
          {workspace.missing ? <p className="muted">The folder is missing: locate it (above) to see its extensions.</p> : <ExtensionsTab workspace={workspace} onReview={() => setReviewOpen(true)} />}
        </Tabs.Content>
        <Tabs.Content className="tab-content" value="hooks">
          <HooksTab workspace={workspace} />
        </Tabs.Content>
        <Tabs.Content className="tab-content" value="agent-settings">
          <AgentSettings workspace={workspace} />
        </Tabs.Content>
      </Tabs.Root>
      <TrustReviewDialog workspace={workspace} review={review} agents={agentNotes} open={reviewOpen} onOpenChange={setReviewOpen} onOpenTab={setTab} />
      <LocateWorkspaceDialog workspace={workspace} open={locateOpen} onOpenChange={setLocateOpen} />
    </section>
  );
}
