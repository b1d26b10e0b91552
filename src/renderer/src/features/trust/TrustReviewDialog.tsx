import { useMemo, useState, type ReactNode } from 'react';
import { errorToast } from '../../components/errorToast';
import { AlertTriangle, ChevronRight, Terminal } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { toast } from 'sonner';
import type { AgentTrustNote, TrustItemKind, TrustReview, TrustReviewItem, TrustStatus, Workspace } from '../../../../shared/contract';
import { useApp } from '../../state/appStore';
import { useLive } from '../../api/useLive';
import { displayPath } from '../../components/format';
import { ReviewHookState, ReviewUncovered, useReviewHookStates } from '../hooks/ReviewHookState';
import { AgentTrustNotes } from './AgentTrustNotes';
import { count } from './RestrictedBanner';
import { SharedDecision } from './SharesTrust';

const KIND_LABEL: Record<TrustItemKind, string> = {
  hook: 'Hooks',
  mcpServer: 'MCP servers',
  lspServer: 'LSP servers',
  command: 'Custom commands',
  setting: 'Settings',
  env: 'Environment variables',
  plugin: 'Plugins',
  skill: 'Skills',
  subagent: 'Subagents',
  outputStyle: 'Output styles',
  instruction: 'Instruction files',
};

/**
 * The trust review: everything trusting this folder would activate, executable items first and
 * emphasised, each expandable to the literal command and the file's content, then what trusting
 * lets each agent load by itself when Atrium launches it. Decides in one place:
 * trust this folder, trust the parent folder, or keep restricted.
 */
export function TrustReviewDialog({ workspace, review, agents, open, onOpenChange }: { workspace: Workspace; review: TrustReview | null; agents: AgentTrustNote[] | null; open: boolean; onOpenChange(open: boolean): void }) {
  const client = useApp((s) => s.client);
  const home = useApp((s) => s.info?.homeDir);
  const status = useLive('trust.status', open ? { workspaceId: workspace.id } : null, ['trustChanged']).data?.status ?? null;
  const [busy, setBusy] = useState(false);
  const hookStates = useReviewHookStates(open ? workspace.id : null);

  const groups = useMemo(() => groupItems(review?.items ?? []), [review]);
  const decide = async (state: 'trusted' | 'untrusted', parent = false) => {
    if (!client) return;
    setBusy(true);
    try {
      const { status: s } = await client.request('trust.set', { workspaceId: workspace.id, state, parent });
      toast(state === 'trusted' ? `Trusted ${s.decidedBy ?? s.trustRoot}` : `Marked ${s.decidedBy ?? s.trustRoot} untrusted`);
      onOpenChange(false);
    } catch (e) {
      errorToast((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog dialog-wide review-dialog" aria-describedby="review-desc">
          <Dialog.Title className="dialog-title">Review before trusting {workspace.name}</Dialog.Title>
          <p id="review-desc" className="dialog-text">
            Trusting <code>{status?.trustRoot ?? workspace.trustRoot}</code> lets agents load and run what this repository supplies.
            {workspace.worktreeOf && (
              <>
                {' '}
                <SharedDecision workspace={workspace} home={home} />
              </>
            )}
            {review && (
              <>
                {' '}
                It carries {count(review.items.length, 'item')}, <strong>{count(review.executableCount, 'of which runs', 'of which run')} code</strong>.
              </>
            )}
          </p>
          <div className="review-body">
            {!review && <p className="muted">Reading the folder…</p>}
            {review && review.items.length === 0 && <p className="muted">This folder carries no instruction files, hooks, servers or other agent configuration. Trusting it activates nothing today.</p>}
            {review?.warnings.map((w, i) => (
              <p key={i} className="warning-line">
                <AlertTriangle size={13} /> {w.path}
                {w.line ? `:${w.line}` : ''}: {w.message} {w.fix}
              </p>
            ))}
            {groups.map(([kind, items]) => (
              <section key={kind} className="review-group" aria-label={KIND_LABEL[kind]}>
                <h3>
                  {KIND_LABEL[kind]} <span className="muted">{items.length}</span>
                </h3>
                <ul>
                  {items.map((item) => (
                    <ReviewItem key={item.id} item={item} workspaceId={workspace.id} hookState={<ReviewHookState item={item} listing={hookStates} />} uncovered={<ReviewUncovered item={item} />} />
                  ))}
                </ul>
              </section>
            ))}
            <AgentTrustNotes agents={agents} />
          </div>
          <div className="dialog-actions review-actions">
            {status?.trustRefused && <span className="field-error">{status.trustRefused}</span>}
            <Dialog.Close asChild>
              <button className="button" disabled={busy}>
                Keep restricted
              </button>
            </Dialog.Close>
            {status?.parentSuggestion && (
              <button className="button" disabled={busy} onClick={() => void decide('trusted', true)} title={`Trust every folder below ${status.parentSuggestion}`}>
                Trust parent folder <code>{status.parentSuggestion}</code>
              </button>
            )}
            <button className="button primary" disabled={busy || Boolean(status?.trustRefused)} onClick={() => void decide('trusted')}>
              {workspace.worktreeOf ? `Trust ${displayPath(workspace.worktreeOf, home)} and its worktrees` : 'Trust this folder'}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function groupItems(items: TrustReviewItem[]): Array<[TrustItemKind, TrustReviewItem[]]> {
  const map = new Map<TrustItemKind, TrustReviewItem[]>();
  for (const item of items) map.set(item.kind, [...(map.get(item.kind) ?? []), item]);
  // Kinds with executable items first, in the review's own order otherwise.
  return [...map.entries()].sort(([, a], [, b]) => Number(b.some((i) => i.executable)) - Number(a.some((i) => i.executable)));
}

function ReviewItem({ item, workspaceId, hookState, uncovered }: { item: TrustReviewItem; workspaceId: string; hookState?: ReactNode; uncovered?: ReactNode }) {
  const [open, setOpen] = useState(false);
  const file = useLive('trust.readFile', open ? { workspaceId, path: item.path } : null);
  // `command` is already the whole literal command line (arguments included), exactly as configured.
  const literal = item.detail.command ?? item.detail.url;
  return (
    <li className={`review-item${item.executable ? ' executable' : ''}`} data-kind={item.kind}>
      <button className="review-item-head" aria-expanded={open} onClick={() => setOpen(!open)}>
        <ChevronRight size={14} className={open ? 'rotated' : ''} aria-hidden />
        {item.executable && (
          <span className="badge badge-error" title="Runs code or contacts a server when active">
            <Terminal size={11} aria-hidden /> runs code
          </span>
        )}
        <span className="review-item-name">{item.name}</span>
        {hookState}
        <span className="review-item-summary">{item.summary}</span>
        <span className="review-item-path">
          {item.path}
          {item.line ? `:${item.line}` : ''}
        </span>
        {item.warnings.length > 0 && <span className="badge badge-warn">{count(item.warnings.length, 'warning')}</span>}
      </button>
      {literal && (
        <pre className="literal-command" aria-label="Literal command">
          {literal}
        </pre>
      )}
      {uncovered && <div className="review-item-uncovered">{uncovered}</div>}
      {item.warnings.map((w, i) => (
        <p key={i} className="warning-line">
          <AlertTriangle size={13} /> {w.path}
          {w.line ? `:${w.line}` : ''}: {w.message} {w.fix && <em>{w.fix}</em>}
        </p>
      ))}
      {open && (
        <div className="review-item-detail">
          {item.detail.envNames && <p>Sets environment variables: {item.detail.envNames.join(', ')} (values not shown).</p>}
          {item.detail.variables && (
            <p>
              Reads from your environment when it starts: <code>{item.detail.variables.join(' ')}</code>
            </p>
          )}
          {item.detail.shellEmbeds && item.detail.shellEmbeds.length > 0 && <p>Runs through a shell when invoked: {item.detail.shellEmbeds.map((c) => <code key={c}>{c}</code>)}</p>}
          {file.error && <p className="field-error">{file.error}</p>}
          {file.data && (file.data.binary ? <p className="muted">Binary file ({file.data.size} bytes).</p> : <pre className="file-content">{file.data.content}</pre>)}
          {file.data?.truncated && <p className="muted">Showing the first 1 MiB of {file.data.size} bytes.</p>}
        </div>
      )}
    </li>
  );
}

export type { TrustStatus };
