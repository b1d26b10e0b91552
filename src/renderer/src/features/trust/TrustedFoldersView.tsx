import { useMemo, useState } from 'react';
import { AlertDialog, Tabs } from 'radix-ui';
import { toast } from 'sonner';
import type { PermissionGrant, TrustDecision } from '../../../../shared/contract';
import { useLive } from '../../api/useLive';
import { ConfirmActions } from '../../components/DialogActions';
import { displayPath } from '../../components/format';
import { useApp } from '../../state/appStore';
import { count } from './RestrictedBanner';
import { TrustHistoryTable } from './TrustTab';
import { coveredWorkspaces, type CoveredWorkspace } from './trustCoverage';
import './trustViews.css';

/**
 * The global trust page (`#/trust`), like VS Code's workspace trust editor: every recorded trust
 * decision with what it covers (the listed workspaces it governs, and for a parent folder any
 * folder below it), revoke (clear) with a confirmation naming what changes, and the whole audit
 * history. Its second section (`#/trust/permissions`) lists the "Always allow" answers agents
 * were given, and closes the session holding one, the only revocation ACP allows.
 */
export function TrustedFoldersView() {
  const tab = useApp((s) => s.trustTab);
  const showTrust = useApp((s) => s.showTrust);
  return (
    <section className="workspace-view trust-page" aria-labelledby="trust-page-title">
      <header className="workspace-header">
        <div className="workspace-title-block">
          <h1 id="trust-page-title">Trusted folders</h1>
        </div>
      </header>
      <Tabs.Root className="tabs" value={tab} onValueChange={(v) => showTrust(v as 'folders' | 'permissions')}>
        <Tabs.List className="tab-list" aria-label="Trust sections">
          <Tabs.Trigger className="tab" value="folders">
            Folders
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="permissions">
            Permissions granted
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content className="tab-content" value="folders">
          <FolderDecisions />
        </Tabs.Content>
        <Tabs.Content className="tab-content" value="permissions">
          <PermissionsGranted />
        </Tabs.Content>
      </Tabs.Root>
    </section>
  );
}

function FolderDecisions() {
  const client = useApp((s) => s.client);
  const home = useApp((s) => s.info?.homeDir);
  const workspaces = useApp((s) => s.workspaces);
  const select = useApp((s) => s.select);
  const decisions = useLive('trust.list', {}, ['trustChanged']);
  const history = useLive('trust.history', { limit: 500 }, ['trustChanged']).data?.entries ?? [];
  const [revoking, setRevoking] = useState<TrustDecision | null>(null);
  const list = useMemo(() => decisions.data?.decisions ?? [], [decisions.data]);
  const undecided = workspaces.filter((w) => w.trust.state === 'undecided' && !w.missing);

  const clear = async (d: TrustDecision) => {
    if (!client) return;
    try {
      await client.request('trust.clear', { path: d.path });
      toast(`Removed the decision for ${displayPath(d.path, home)}`);
    } catch (e) {
      toast.error((e as Error).message);
    }
  };

  return (
    <div className="trust-page-body">
      <p className="hint">
        A decision applies to its folder and every folder below it, unless a deeper folder has its own. Removing one puts what it covered back under the next decision above, or
        in restricted mode.
      </p>
      {decisions.error && <div className="banner banner-error">{decisions.error}</div>}
      {decisions.data && list.length === 0 ? (
        <p className="muted trust-empty">No trust decisions yet: every folder is in restricted mode. Trust a workspace from its restricted-mode banner or its Trust tab.</p>
      ) : (
        <table className="table trust-decisions" aria-label="Trust decisions">
          <thead>
            <tr>
              <th>Folder</th>
              <th>Decision</th>
              <th>Covers</th>
              <th>Decided</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {list.map((d) => {
              const covered = coveredWorkspaces(d.path, workspaces, list);
              return (
                <tr key={d.path} data-path={d.path}>
                  <td>
                    <code className="selectable">{displayPath(d.path, home)}</code>
                  </td>
                  <td>
                    <span className={`badge ${d.state === 'trusted' ? 'badge-ok' : 'badge-warn'}`}>{d.state}</span>
                  </td>
                  <td>
                    <Covers decision={d} covered={covered} onOpen={(id) => select(id, 'trust')} home={home} />
                  </td>
                  <td>
                    {new Date(d.decidedAt).toLocaleString()}
                    {d.source !== 'user' && <span className="muted"> · imported from {d.source.slice('import:'.length)}</span>}
                  </td>
                  <td>
                    <button className="button danger-ghost" onClick={() => setRevoking(d)} aria-label={`${d.state === 'trusted' ? 'Revoke' : 'Remove'} the decision for ${displayPath(d.path, home)}`}>
                      {d.state === 'trusted' ? 'Revoke…' : 'Remove…'}
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {undecided.length > 0 && (
        <p className="hint" data-testid="undecided-workspaces">
          In restricted mode with no decision: {undecided.map((w) => w.name).join(', ')}.
        </p>
      )}
      <h2 className="section-title">History</h2>
      {history.length === 0 ? (
        <p className="muted">No trust decision was recorded or removed yet.</p>
      ) : (
        <TrustHistoryTable entries={history} label="All trust history" home={home} />
      )}
      <ConfirmRevoke
        decision={revoking}
        covered={revoking ? coveredWorkspaces(revoking.path, workspaces, list) : []}
        home={home}
        onCancel={() => setRevoking(null)}
        onConfirm={(d) => {
          setRevoking(null);
          void clear(d);
        }}
      />
    </div>
  );
}

/** What a decision covers: the listed workspaces it governs (links), those a deeper decision overrides, and for a folder above workspaces, every folder below it. */
function Covers({ decision, covered, onOpen, home }: { decision: TrustDecision; covered: CoveredWorkspace[]; onOpen(id: string): void; home: string | undefined }) {
  const following = covered.filter((c) => c.effect === 'follows');
  const overridden = covered.filter((c) => c.effect === 'overridden');
  const isParent = following.length !== 1 || following[0].workspace.trustRoot !== decision.path;
  return (
    <div className="trust-covers">
      {following.length > 0 ? (
        <span>
          {following.map((c, i) => (
            <span key={c.workspace.id}>
              {i > 0 && ', '}
              <button className="link-button" onClick={() => onOpen(c.workspace.id)} title={c.workspace.path}>
                {c.workspace.name}
              </button>
            </span>
          ))}
        </span>
      ) : (
        <span className="muted">no listed workspace</span>
      )}
      {isParent && <span className="muted"> · and any folder below {displayPath(decision.path, home)}</span>}
      {overridden.length > 0 && (
        <span className="muted">
          {' '}
          · not {overridden.map((c) => c.workspace.name).join(', ')} (a deeper decision)
        </span>
      )}
    </div>
  );
}

/** Confirms removing a decision, naming the listed workspaces whose state changes. */
function ConfirmRevoke({ decision, covered, home, onCancel, onConfirm }: { decision: TrustDecision | null; covered: CoveredWorkspace[]; home: string | undefined; onCancel(): void; onConfirm(d: TrustDecision): void }) {
  const following = covered.filter((c) => c.effect === 'follows');
  const shown = decision ? displayPath(decision.path, home) : '';
  return (
    <AlertDialog.Root open={decision !== null} onOpenChange={(open) => !open && onCancel()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog dialog-medium">
          <AlertDialog.Title className="dialog-title">
            {decision?.state === 'trusted' ? 'Revoke trust in' : 'Remove the untrusted decision for'} {shown}?
          </AlertDialog.Title>
          <AlertDialog.Description className="dialog-text">
            {decision?.state === 'trusted'
              ? 'Its decision is removed. What it covered falls back to a decision above it, or restricted mode: project hooks, servers and instruction files stop loading in new sessions.'
              : 'Its decision is removed. What it covered falls back to a decision above it, or stays in restricted mode with no decision.'}
          </AlertDialog.Description>
          {following.length > 0 && (
            <ul className="dialog-list" aria-label="Workspaces this changes">
              {following.map((c) => (
                <li key={c.workspace.id}>
                  <code>{displayPath(c.workspace.path, home)}</code>
                </li>
              ))}
            </ul>
          )}
          <ConfirmActions label={decision?.state === 'trusted' ? 'Revoke trust' : 'Remove the decision'} tone="danger" onConfirm={() => decision && onConfirm(decision)} />
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

function PermissionsGranted() {
  const client = useApp((s) => s.client);
  const home = useApp((s) => s.info?.homeDir);
  const workspaces = useApp((s) => s.workspaces);
  const openSession = useApp((s) => s.openSession);
  const grants = useLive('sessions.permissionsGranted', {}, ['sessionUpdated']);
  const [closing, setClosing] = useState<PermissionGrant | null>(null);
  const list = grants.data?.grants ?? [];
  const nameOf = (id: string | null) => workspaces.find((w) => w.id === id)?.name ?? null;

  const close = async (g: PermissionGrant) => {
    if (!client) return;
    try {
      await client.request('sessions.close', { sessionId: g.sessionId });
      toast('Session closed: its agent stopped, and with it the grants it held');
    } catch (e) {
      toast.error((e as Error).message);
    }
  };

  return (
    <div className="trust-page-body">
      <p className="hint" data-testid="grants-explained">
        Each row is an “Always allow” answer an agent was given. The agent keeps it by itself for the rest of its session; ACP has no request to withdraw it, so Atrium cannot
        revoke one in place. Closing the session stops the agent process and drops what it held in memory. An agent that also saved the rule to its own settings (for example a
        permissions list in its settings file) keeps it there: remove it from that file.
      </p>
      {grants.error && <div className="banner banner-error">{grants.error}</div>}
      {grants.data && list.length === 0 ? (
        <p className="muted trust-empty">No agent was given an “Always allow” yet. When you answer a permission request with one, it is listed here with its session.</p>
      ) : (
        <table className="table" aria-label="Permissions granted">
          <thead>
            <tr>
              <th>When</th>
              <th>Allowed</th>
              <th>Session</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            {list.map((g) => (
              <tr key={`${g.sessionId}:${g.itemId}`} data-session-id={g.sessionId}>
                <td>{new Date(g.answeredAt).toLocaleString()}</td>
                <td>
                  <strong>{g.optionName}</strong> <span className="muted">for</span> {g.title}
                  {g.paths.length > 0 && (
                    <div className="muted grant-paths">
                      {g.paths.map((p) => (
                        <code key={p}>{displayPath(p, home)}</code>
                      ))}
                    </div>
                  )}
                  {g.answeredBy && <div className="muted">answered by {g.answeredBy === 'user' ? 'you' : g.answeredBy === 'hook' ? 'a hook' : 'Atrium’s policy'}</div>}
                </td>
                <td>
                  <button className="link-button" onClick={() => openSession(g.sessionId)}>
                    {g.sessionTitle?.trim() || `${g.agentId} session`}
                  </button>
                  <div className="muted">
                    {g.agentId}
                    {nameOf(g.workspaceId) ? ` · ${nameOf(g.workspaceId)}` : ''}
                  </div>
                </td>
                <td>
                  {g.sessionState === 'closed' ? (
                    <span className="muted">Ended with its session</span>
                  ) : !g.agentRunning ? (
                    <span className="muted" title="A resume may or may not restore it: that depends on whether the agent saved it.">
                      Not held by any running agent now ({g.sessionState}); a resume may or may not restore it, depending on the agent
                    </span>
                  ) : (
                    <>
                      <span>Held by the running agent</span>{' '}
                      <button className="button danger-ghost" onClick={() => setClosing(g)}>
                        Close session…
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <AlertDialog.Root open={closing !== null} onOpenChange={(open) => !open && setClosing(null)}>
        <AlertDialog.Portal>
          <AlertDialog.Overlay className="dialog-overlay" />
          <AlertDialog.Content className="dialog dialog-medium">
            <AlertDialog.Title className="dialog-title">Close the session to drop its grants?</AlertDialog.Title>
            <AlertDialog.Description className="dialog-text">
              {closing && (
                <>
                  “{closing.sessionTitle?.trim() || `${closing.agentId} session`}” holds{' '}
                  {count(list.filter((g) => g.sessionId === closing.sessionId).length, '“Always allow” answer')}. Closing it stops the agent; its transcript stays. A rule the agent saved to
                  its own settings stays there.
                </>
              )}
            </AlertDialog.Description>
            <ConfirmActions
              label="Close session"
              tone="danger"
              onConfirm={() => {
                if (closing) void close(closing);
                setClosing(null);
              }}
            />
          </AlertDialog.Content>
        </AlertDialog.Portal>
      </AlertDialog.Root>
    </div>
  );
}
