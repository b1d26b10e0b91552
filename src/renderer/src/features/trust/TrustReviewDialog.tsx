import { useMemo, useRef, useState } from 'react';
import { errorToast } from '../../components/errorToast';
import { AlertTriangle, ChevronRight } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { toast } from 'sonner';
import type { AgentTrustNote, TrustItemKind, TrustReview, TrustReviewItem, TrustStatus, Workspace } from '../../../../shared/contract';
import { useApp } from '../../state/appStore';
import { useLive } from '../../api/useLive';
import { displayPath } from '../../components/format';
import { ReviewHookState, ReviewUncovered, reviewListingItem, useReviewHookStates } from '../hooks/ReviewHookState';
import { AgentTrustNotes } from './AgentTrustNotes';
import { ConfirmParentTrust } from './ConfirmParentTrust';
import { count } from './RestrictedBanner';
import { ReviewItem } from './ReviewItem';
import { KIND_LABEL, ReviewSummary, reviewFacts } from './ReviewSummary';
import { SharedDecision } from './SharesTrust';
import './trustViews.css';

/**
 * The trust review: everything trusting this folder would activate. It opens with a one-screen
 * summary (a jump link per kind with its count, what runs code, what still needs approval after
 * trusting), then the full list in collapsible groups (executable kinds first), each item
 * expandable to its literal command, its own lines of its file and the scripts it runs; a filter
 * box narrows the items and counts the matches. Then what trusting lets each agent load by
 * itself. Decides in one place: trust this folder, trust the parent folder (after a separate
 * confirmation naming what else becomes trusted), or keep restricted.
 */
export function TrustReviewDialog({
  workspace,
  review,
  agents,
  open,
  onOpenChange,
  onOpenTab,
}: {
  workspace: Workspace;
  review: TrustReview | null;
  agents: AgentTrustNote[] | null;
  open: boolean;
  onOpenChange(open: boolean): void;
  /** Opens a tab of the workspace: the next step a trust toast offers ("2 hooks need approval → Hooks"). */
  onOpenTab?(tab: 'hooks'): void;
}) {
  const client = useApp((s) => s.client);
  const home = useApp((s) => s.info?.homeDir);
  const status = useLive('trust.status', open ? { workspaceId: workspace.id } : null, ['trustChanged']).data?.status ?? null;
  const [busy, setBusy] = useState(false);
  const [confirmParent, setConfirmParent] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [collapsed, setCollapsed] = useState<ReadonlySet<TrustItemKind>>(new Set());
  const body = useRef<HTMLDivElement>(null);
  const filterBox = useRef<HTMLInputElement>(null);
  const hookStates = useReviewHookStates(open ? workspace.id : null);

  const groups = useMemo(() => groupItems(review?.items ?? []), [review]);
  const facts = useMemo(() => (review ? reviewFacts(review, groups, hookStates) : null), [review, groups, hookStates]);
  const needle = query.trim().toLowerCase();
  const shownGroups = useMemo(() => (needle ? groups.map(([kind, items]) => [kind, items.filter((i) => matches(i, needle))] as [TrustItemKind, TrustReviewItem[]]).filter(([, items]) => items.length > 0) : groups), [groups, needle]);
  const matchCount = shownGroups.reduce((n, [, items]) => n + items.length, 0);

  const decide = async (state: 'trusted' | 'untrusted', parent = false) => {
    if (!client) return;
    setBusy(true);
    try {
      const { status: s } = await client.request('trust.set', { workspaceId: workspace.id, state, parent });
      const where = displayPath(s.decidedBy ?? s.trustRoot, home);
      const waiting = facts ? facts.needApproval.hooks + facts.needApproval.servers : 0;
      if (state === 'trusted' && waiting > 0 && onOpenTab) {
        // the next step: what trusting did not switch on yet, and where to approve it
        const what = [facts!.needApproval.hooks > 0 && count(facts!.needApproval.hooks, 'hook'), facts!.needApproval.servers > 0 && count(facts!.needApproval.servers, 'MCP server')].filter(Boolean).join(' and ');
        toast(`Trusted ${where}`, { description: `${what} ${waiting === 1 ? 'needs' : 'need'} approval before ${waiting === 1 ? 'it runs' : 'they run'}.`, action: { label: 'Hooks →', onClick: () => onOpenTab('hooks') }, duration: 10_000 });
      } else toast(state === 'trusted' ? `Trusted ${where}` : `Marked ${where} untrusted`);
      setConfirmParent(null);
      onOpenChange(false);
    } catch (e) {
      errorToast((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const toggleGroup = (kind: TrustItemKind) =>
    setCollapsed((c) => {
      const next = new Set(c);
      if (!next.delete(kind)) next.add(kind);
      return next;
    });
  /** A summary jump link: clear a filter hiding the group, open it, scroll it to the top and focus its heading. */
  const jump = (kind: TrustItemKind) => {
    if (needle && !shownGroups.some(([k]) => k === kind)) setQuery('');
    setCollapsed((c) => {
      const next = new Set(c);
      next.delete(kind);
      return next;
    });
    requestAnimationFrame(() => {
      const heading = body.current?.querySelector<HTMLButtonElement>(`[data-group-toggle="${kind}"]`);
      heading?.scrollIntoView({ block: 'start' });
      heading?.focus({ preventScroll: true });
    });
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog dialog-wide review-dialog"
          aria-describedby="review-desc"
          onEscapeKeyDown={(e) => {
            // Escape in a non-empty filter clears it; the next Escape closes the review
            if (query && document.activeElement === filterBox.current) {
              e.preventDefault();
              setQuery('');
            }
          }}
        >
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
          <div className="review-body" ref={body}>
            {!review && <p className="muted">Reading the folder…</p>}
            {review && review.items.length === 0 && <p className="muted">This folder carries no instruction files, hooks, servers or other agent configuration. Trusting it activates nothing today.</p>}
            {facts && review && review.items.length > 0 && <ReviewSummary facts={facts} trusted={(status?.state ?? workspace.trust.state) === 'trusted'} onJump={jump} />}
            {review?.warnings.map((w, i) => (
              <p key={i} className="warning-line">
                <AlertTriangle size={13} /> {w.path}
                {w.line ? `:${w.line}` : ''}: {w.message} {w.fix}
              </p>
            ))}
            {review && review.items.length > 0 && (
              <div className="review-filter" role="search" aria-label="Review items">
                <input
                  type="search"
                  className="filter-input"
                  placeholder="Filter items: name, command, path…"
                  aria-label="Filter review items"
                  aria-describedby="review-filter-count"
                  value={query}
                  onChange={(e) => setQuery(e.target.value)}
                  ref={filterBox}
                />
                <span id="review-filter-count" className="muted review-filter-count" role="status">
                  {needle ? `${matchCount} of ${count(review.items.length, 'item')} match` : count(review.items.length, 'item')}
                </span>
              </div>
            )}
            {needle && matchCount === 0 && <p className="muted">No item matches “{query.trim()}”. The filter looks at names, summaries, paths and commands.</p>}
            {shownGroups.map(([kind, items]) => {
              const isOpen = Boolean(needle) || !collapsed.has(kind);
              const total = groups.find(([k]) => k === kind)?.[1].length ?? items.length;
              return (
                <section key={kind} className="review-group" aria-label={KIND_LABEL[kind]} data-kind={kind}>
                  <h3>
                    <button className="review-group-toggle" data-group-toggle={kind} aria-expanded={isOpen} onClick={() => toggleGroup(kind)} disabled={Boolean(needle)}>
                      <ChevronRight size={13} className={isOpen ? 'rotated' : ''} aria-hidden />
                      {KIND_LABEL[kind]} <span className="muted">{needle ? `${items.length} of ${total}` : total}</span>
                    </button>
                  </h3>
                  {isOpen && (
                    <ul>
                      {items.map((item) => (
                        <ReviewItem
                          key={item.id}
                          item={item}
                          workspaceId={workspace.id}
                          listed={reviewListingItem(item, hookStates)}
                          hookState={<ReviewHookState item={item} listing={hookStates} />}
                          uncovered={<ReviewUncovered item={item} />}
                        />
                      ))}
                    </ul>
                  )}
                </section>
              );
            })}
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
              <button className="button" disabled={busy} onClick={() => setConfirmParent(status.parentSuggestion)} title={`Trust every folder below ${status.parentSuggestion}; asks first and names what else becomes trusted`}>
                Trust parent folder <code>{displayPath(status.parentSuggestion, home)}</code>…
              </button>
            )}
            <button className="button primary" disabled={busy || Boolean(status?.trustRefused)} onClick={() => void decide('trusted')}>
              {workspace.worktreeOf ? `Trust ${displayPath(workspace.worktreeOf, home)} and its worktrees` : 'Trust this folder'}
            </button>
          </div>
          <ConfirmParentTrust parent={confirmParent} current={workspace.id} busy={busy} onCancel={() => setConfirmParent(null)} onConfirm={() => void decide('trusted', true)} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** True when the item's name, summary, path, command, URL or event/matcher contains `needle` (lower case). */
function matches(item: TrustReviewItem, needle: string): boolean {
  const d = item.detail;
  return [item.name, item.summary, item.path, d.command, d.url, d.event, d.matcher, d.description, KIND_LABEL[item.kind]].some((v) => v?.toLowerCase().includes(needle));
}

function groupItems(items: TrustReviewItem[]): Array<[TrustItemKind, TrustReviewItem[]]> {
  const map = new Map<TrustItemKind, TrustReviewItem[]>();
  for (const item of items) {
    const list = map.get(item.kind);
    if (list) list.push(item);
    else map.set(item.kind, [item]);
  }
  // Kinds with executable items first, in the review's own order otherwise.
  return [...map.entries()].sort(([, a], [, b]) => Number(b.some((i) => i.executable)) - Number(a.some((i) => i.executable)));
}

export type { TrustStatus };
