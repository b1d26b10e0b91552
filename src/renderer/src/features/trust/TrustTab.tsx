import { toast } from 'sonner';
import type { TrustReview, Workspace } from '../../../../shared/contract';
import { useLive } from '../../api/useLive';
import { displayPath } from '../../components/format';
import { useApp } from '../../state/appStore';
import { SharesTrust } from './SharesTrust';
import { TrustBadge } from './TrustBadge';

/** The workspace's trust: its state and where it comes from, the actions, and the audit history. */
export function TrustTab({ workspace, review, onReview }: { workspace: Workspace; review: TrustReview | null; onReview(): void }) {
  const client = useApp((s) => s.client);
  const home = useApp((s) => s.info?.homeDir);
  const status = useLive('trust.status', { workspaceId: workspace.id }, ['trustChanged']).data?.status;
  const history = useLive('trust.history', { workspaceId: workspace.id, limit: 200 }, ['trustChanged']).data?.entries ?? [];

  const run = async (what: () => Promise<unknown>, done: string) => {
    try {
      await what();
      toast(done);
    } catch (e) {
      toast.error((e as Error).message);
    }
  };
  const setState = (state: 'trusted' | 'untrusted') => client && run(() => client.request('trust.set', { workspaceId: workspace.id, state }), state === 'trusted' ? 'Trusted' : 'Marked untrusted');
  const clear = () => client && run(() => client.request('trust.clear', { workspaceId: workspace.id }), 'Decision cleared; the folder inherits again');

  if (!status) return <p className="muted">Loading…</p>;
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
          {workspace.worktreeOf && (
            <p className="hint">
              <SharesTrust workspace={workspace} home={home} lead="This folder " />
            </p>
          )}
        </dd>
        <dt>Decided by</dt>
        <dd>
          {status.decidedBy ? (
            <>
              <code>{displayPath(status.decidedBy, home)}</code>
              {status.inherited ? ' (a parent folder: applies to every folder below it)' : ' (this folder)'}
              {status.decidedAt && <span className="muted"> on {new Date(status.decidedAt).toLocaleString()}</span>}
            </>
          ) : (
            'No decision yet: restricted mode'
          )}
        </dd>
        <dt>Carries</dt>
        <dd>{review ? `${review.items.length} items, ${review.executableCount} that run code` : '…'}</dd>
      </dl>
      <div className="toolbar trust-actions">
        <button className="button" onClick={onReview}>
          Review what this folder carries…
        </button>
        {status.state === 'trusted' ? (
          <button className="button danger-ghost" onClick={() => void setState('untrusted')}>
            {status.inherited ? 'Mark this folder untrusted' : 'Revoke trust'}
          </button>
        ) : (
          !status.trustRefused && (
            <button className="button" onClick={() => void setState('trusted')}>
              Trust without reviewing
            </button>
          )
        )}
        {status.ownDecision && (
          <button className="button" onClick={() => void clear()} title="Forget this folder's own decision; a parent's decision applies again">
            Clear this folder's decision
          </button>
        )}
      </div>
      {status.trustRefused && <p className="hint">{status.trustRefused}</p>}
      <h2 className="section-title">History</h2>
      {history.length === 0 ? (
        <p className="muted">No trust decisions affect this folder yet.</p>
      ) : (
        <table className="table" aria-label="Trust history">
          <thead>
            <tr>
              <th>When</th>
              <th>Folder</th>
              <th>Change</th>
              <th>By</th>
            </tr>
          </thead>
          <tbody>
            {history.map((h) => (
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
      )}
    </div>
  );
}
