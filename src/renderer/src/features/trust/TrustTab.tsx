import { useState } from 'react';
import { errorToast } from '../../components/errorToast';
import { AlertDialog } from 'radix-ui';
import { toast } from 'sonner';
import type { AgentTrustNote, TrustChange, TrustReview, TrustStatus, Workspace } from '../../../../shared/contract';
import { useLive } from '../../api/useLive';
import { ConfirmActions } from '../../components/DialogActions';
import { displayPath } from '../../components/format';
import { useApp } from '../../state/appStore';
import { AgentTrustNotes } from './AgentTrustNotes';
import { SharedDecision } from './SharesTrust';
import { TrustBadge } from './TrustBadge';
import { count } from './RestrictedBanner';

/** A change to the decision a worktree shares with its main checkout, waiting for confirmation. */
type SharedChange = 'trusted' | 'untrusted' | 'clear';

/**
 * The workspace's trust: its state and where it comes from, the actions, what trusting lets each
 * agent load by itself, and the audit history.
 * In a linked worktree every action names the main checkout it changes, and asks first (the
 * decision is shared by the repository and all its worktrees).
 */
export function TrustTab({ workspace, review, agents, onReview }: { workspace: Workspace; review: TrustReview | null; agents: AgentTrustNote[] | null; onReview(): void }) {
  const client = useApp((s) => s.client);
  const home = useApp((s) => s.info?.homeDir);
  const workspaces = useApp((s) => s.workspaces);
  const showTrust = useApp((s) => s.showTrust);
  const status = useLive('trust.status', { workspaceId: workspace.id }, ['trustChanged']).data?.status;
  const history = useLive('trust.history', { workspaceId: workspace.id, limit: 200 }, ['trustChanged']).data?.entries ?? [];
  const [pending, setPending] = useState<SharedChange | null>(null);

  const run = async (what: () => Promise<unknown>, done: string) => {
    try {
      await what();
      toast(done);
    } catch (e) {
      errorToast((e as Error).message);
    }
  };
  const setState = (state: 'trusted' | 'untrusted') => client && run(() => client.request('trust.set', { workspaceId: workspace.id, state }), state === 'trusted' ? 'Trusted' : 'Marked untrusted');
  const clear = () => client && run(() => client.request('trust.clear', { workspaceId: workspace.id }), 'Decision cleared; the folder inherits again');

  if (!status) return <p className="muted">Loading…</p>;
  const main = status.worktreeOf ? displayPath(status.worktreeOf, home) : null;
  const apply = (change: SharedChange) => void (change === 'clear' ? clear() : setState(change));
  // from a worktree every change goes to the main checkout's shared decision: ask first
  const ask = (change: SharedChange) => (main ? setPending(change) : apply(change));
  const worktrees = status.worktreeOf ? workspaces.filter((w) => w.worktreeOf === status.worktreeOf).map((w) => w.path) : [];
  return (
    <div className="trust-tab">
      <dl className="facts">
        <dt>State</dt>
        <dd>
          <TrustBadge trust={workspace.trust} />
        </dd>
        <dt>Judged at</dt>
        <dd>
          <code>{displayPath(status.trustRoot, home)}</code>
          {status.worktreeOf && (
            <p className="hint">
              <SharedDecision workspace={status} home={home} />
            </p>
          )}
        </dd>
        <dt>Decided by</dt>
        <dd>
          {status.decidedBy ? (
            <>
              <code>{displayPath(status.decidedBy, home)}</code>
              {decidedByNote(status)}
              {status.decidedAt && <span className="muted"> on {new Date(status.decidedAt).toLocaleString()}</span>}
            </>
          ) : (
            'No decision yet: restricted mode'
          )}
        </dd>
        <dt>Carries</dt>
        <dd>{review ? `${count(review.items.length, 'item')}, ${review.executableCount} that ${review.executableCount === 1 ? 'runs' : 'run'} code` : '…'}</dd>
      </dl>
      <div className="toolbar trust-actions">
        <button className="button" onClick={onReview}>
          Review what this folder carries…
        </button>
        {status.state === 'trusted' ? (
          <button className="button danger-ghost" onClick={() => ask('untrusted')}>
            {main ? `Mark ${main} and its worktrees untrusted` : status.inherited ? 'Mark this folder untrusted' : 'Revoke trust'}
          </button>
        ) : (
          !status.trustRefused && (
            <button className="button" onClick={() => ask('trusted')}>
              {main ? `Trust ${main} and its worktrees` : 'Trust without reviewing'}
            </button>
          )
        )}
        {main
          ? status.trustRootDecision && (
              <button className="button" onClick={() => ask('clear')} title="Forget the main checkout's decision; a parent's decision applies again">
                Clear the decision of {main} (shared with its worktrees)
              </button>
            )
          : status.ownDecision && (
              <button className="button" onClick={() => void clear()} title="Forget this folder's own decision; a parent's decision applies again">
                Clear this folder's decision
              </button>
            )}
      </div>
      {main && (
        <ConfirmSharedChange
          change={pending}
          status={status}
          main={main}
          worktrees={worktrees}
          home={home}
          onCancel={() => setPending(null)}
          onConfirm={(change) => {
            setPending(null);
            apply(change);
          }}
        />
      )}
      {status.trustRefused && <p className="hint">{status.trustRefused}</p>}
      <p className="hint">
        <button className="link-button inline-link" onClick={() => showTrust()}>
          All trusted folders and what each decision covers →
        </button>
      </p>
      <AgentTrustNotes agents={agents} />
      <h2 className="section-title">History</h2>
      {history.length === 0 ? (
        <p className="muted">No trust decisions affect this folder yet.</p>
      ) : (
        <TrustHistoryTable entries={history} label="Trust history" home={home} />
      )}
    </div>
  );
}

/** What "Decided by" adds after the deciding folder: whose decision it is and what it covers. */
function decidedByNote(status: TrustStatus): string {
  if (status.worktreeOf) {
    return status.decidedBy === status.trustRoot
      ? ' (the main checkout: its decision is shared by all its worktrees)'
      : ' (a parent folder of the main checkout: applies to every folder below it, the repository and all its worktrees)';
  }
  return status.inherited ? ' (a parent folder: applies to every folder below it)' : ' (this folder)';
}

const CHANGE_LABEL: Record<SharedChange, { title: string; confirm: string }> = {
  trusted: { title: 'Trust', confirm: 'Trust them' },
  untrusted: { title: 'Mark untrusted', confirm: 'Mark them untrusted' },
  clear: { title: 'Clear the decision of', confirm: 'Clear the shared decision' },
};

/**
 * Confirms a change made from a worktree to the decision it shares with its main checkout: names
 * the main checkout and the worktrees listed in Atrium, and says that git's other worktrees of the
 * repository follow too (they share the same decision whether listed or not).
 */
function ConfirmSharedChange({
  change,
  status,
  main,
  worktrees,
  home,
  onCancel,
  onConfirm,
}: {
  change: SharedChange | null;
  status: TrustStatus;
  main: string;
  /** Listed workspaces that are worktrees of the main checkout (absolute paths). */
  worktrees: string[];
  home: string | undefined;
  onCancel(): void;
  onConfirm(change: SharedChange): void;
}) {
  const label = change ? CHANGE_LABEL[change] : CHANGE_LABEL.trusted;
  const effect =
    change === 'clear'
      ? `Its recorded decision (${status.trustRootDecision ?? 'none'}) is removed; then a parent folder's decision applies, or none (restricted mode).`
      : change === 'trusted'
        ? 'Their project hooks, servers and rules may be activated.'
        : 'They go into restricted mode: project hooks, servers and rules are inactive.';
  return (
    <AlertDialog.Root open={change !== null} onOpenChange={(open) => !open && onCancel()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog">
          <AlertDialog.Title className="dialog-title">
            {label.title} {main} and its worktrees?
          </AlertDialog.Title>
          <AlertDialog.Description className="dialog-text">
            This folder has no trust decision of its own: the decision belongs to the main checkout <code>{main}</code> and is shared by every worktree of it.
            The change applies to all of them. {effect}
          </AlertDialog.Description>
          <ul className="dialog-list" aria-label="Folders this changes">
            <li>
              <code>{main}</code> <span className="muted">(main checkout)</span>
            </li>
            {worktrees.map((w) => (
              <li key={w}>
                <code>{displayPath(w, home)}</code> <span className="muted">(worktree{w === status.path ? ', this folder' : ''})</span>
              </li>
            ))}
            <li className="muted">and any other worktree git lists for it</li>
          </ul>
          <ConfirmActions label={label.confirm} tone={change === 'trusted' ? 'primary' : 'danger'} onConfirm={() => change && onConfirm(change)} />
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

/** Trust decisions as a table (when, folder, old → new state, who), newest first as given; one place for the Trust tab and the Trusted folders page. */
export function TrustHistoryTable({ entries, label, home }: { entries: readonly TrustChange[]; label: string; home: string | undefined }) {
  return (
    <table className="table" aria-label={label}>
      <thead>
        <tr>
          <th>When</th>
          <th>Folder</th>
          <th>Change</th>
          <th>By</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((h) => (
          <tr key={h.id}>
            <td>{new Date(h.changedAt).toLocaleString()}</td>
            <td>
              <code>{displayPath(h.path, home)}</code>
            </td>
            <td>
              {h.oldState ?? 'no decision'} → <strong>{h.newState ?? 'no decision'}</strong>
            </td>
            <td>{h.source === 'user' ? 'you' : `you, imported from ${h.source.slice('import:'.length)}`}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
