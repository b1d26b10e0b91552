import type { ReactNode } from 'react';
import { AlertTriangle, ArrowRight, CheckCircle2, FileText, Globe, MessageSquare, ShieldAlert, Webhook } from 'lucide-react';
import type { HookListing, Session, TrustReview, Workspace } from '../../../../shared/contract';
import { useLive } from '../../api/useLive';
import { useReviewHookStates } from '../hooks/ReviewHookState';
import { useSessionList } from '../sessions/useSessionList';
import { count } from '../trust/RestrictedBanner';
import '../trust/trustViews.css';

/** The workspace tabs a "needs you" row links to (the values of the workspace view's tabs). */
export type WorkspaceTabName = 'sessions' | 'rules' | 'trust' | 'hooks' | 'extensions' | 'agent-settings';

/** Hooks and MCP servers waiting for an approval, split by why (never approved, changed since). */
export interface PendingApprovals {
  hooks: { unapproved: number; modified: number };
  servers: { unapproved: number; modified: number };
}

/**
 * What waits for an approval in a hooks listing taken with held-back items (so a restricted
 * folder's own hooks count too: they are what needs approval once it is trusted). Hooks of a
 * plugin or of the user count as well: they also run only once approved.
 */
export function pendingApprovals(listing: HookListing): PendingApprovals {
  const tally = (states: string[]) => ({ unapproved: states.filter((s) => s === 'unapproved').length, modified: states.filter((s) => s === 'modified').length });
  return { hooks: tally(listing.hooks.map((h) => h.state)), servers: tally(listing.mcpServers.map((s) => s.state)) };
}

/** "2 hooks and 1 MCP server", or null when nothing waits. */
export function pendingPhrase(p: PendingApprovals): string | null {
  const hooks = p.hooks.unapproved + p.hooks.modified;
  const servers = p.servers.unapproved + p.servers.modified;
  const parts = [hooks > 0 && count(hooks, 'hook'), servers > 0 && count(servers, 'MCP server')].filter(Boolean);
  return parts.length ? parts.join(' and ') : null;
}

/**
 * The Overview's "Needs you" list: one row per thing waiting for the user, each with a link to
 * where it is handled — restricted mode (Review…), hooks and MCP servers needing approval
 * (modified ones first: they stopped running), repository model endpoints withheld until approved
 * (Agent settings), sessions waiting for a permission answer, lint
 * findings of the instruction files — then the quiet facts (instruction files, sessions). Right
 * after trusting, the approvals row is the next step ("2 hooks need approval → Hooks").
 */
export function NeedsYou({ workspace, review, onOpenTab, onReview }: { workspace: Workspace; review: TrustReview | null; onOpenTab(tab: WorkspaceTabName): void; onReview(): void }) {
  const live = !workspace.missing;
  const listing = useReviewHookStates(live ? workspace.id : null);
  const rules = useLive('rules.list', live ? { workspaceId: workspace.id } : null, ['rulesChanged', 'trustChanged']).data;
  const lint = useLive('rules.lint', live ? { workspaceId: workspace.id } : null, ['rulesChanged', 'trustChanged']).data;
  const agentSettings = useLive('providers.agentSettings', live ? { workspaceId: workspace.id } : null, ['providersChanged', 'trustChanged']).data;
  const { sessions } = useSessionList(workspace.id);
  if (workspace.missing) return null;
  // repository endpoints Atrium applies itself stay withheld until approved by digest in Agent settings
  const withheld = agentSettings?.endpoints.filter((e) => e.appliedBy === 'atrium' && !e.approved) ?? [];

  const trusted = workspace.trust.state === 'trusted';
  const pending = listing ? pendingApprovals(listing) : null;
  const phrase = pending ? pendingPhrase(pending) : null;
  const modified = pending ? pending.hooks.modified + pending.servers.modified : 0;
  const waiting = sessions?.filter((s) => s.pendingPermissions > 0) ?? [];
  const lintProblems = lint ? lint.counts.error + lint.counts.warning : 0;

  const rows: ReactNode[] = [];
  if (!trusted && review && review.items.length > 0) {
    rows.push(
      <Row key="trust" icon={<ShieldAlert size={15} aria-hidden />} tone="warn" link="Review…" linkLabel="Review what trusting activates" onLink={onReview}>
        Restricted mode: {count(review.items.length, 'item')} this folder carries {review.items.length === 1 ? 'is' : 'are'} inactive, {count(review.executableCount, 'of which runs', 'of which run')} code.
      </Row>,
    );
  }
  if (modified > 0) {
    rows.push(
      <Row key="modified" icon={<AlertTriangle size={15} aria-hidden />} tone="error" link="Hooks" onLink={() => onOpenTab('hooks')}>
        {count(modified, 'approved item changed', 'approved items changed')} on disk and stopped running until you approve {modified === 1 ? 'it' : 'them'} again.
      </Row>,
    );
  }
  if (phrase && pending && pending.hooks.unapproved + pending.servers.unapproved > 0) {
    const unapproved = pendingPhrase({ hooks: { unapproved: pending.hooks.unapproved, modified: 0 }, servers: { unapproved: pending.servers.unapproved, modified: 0 } });
    const n = pending.hooks.unapproved + pending.servers.unapproved;
    rows.push(
      <Row key="approve" icon={<Webhook size={15} aria-hidden />} tone="warn" link="Hooks" onLink={() => onOpenTab('hooks')} testId="needs-approval">
        {unapproved} {n === 1 ? 'needs' : 'need'} approval before {n === 1 ? 'it runs' : 'they run'}.
      </Row>,
    );
  }
  if (withheld.length > 0) {
    rows.push(
      <Row key="endpoints" icon={<Globe size={15} aria-hidden />} tone="warn" link="Agent settings" onLink={() => onOpenTab('agent-settings')} testId="needs-endpoint">
        The repository sets {withheld.length === 1 ? 'a model endpoint' : `${withheld.length} model endpoints`} ({withheld.map((e) => e.path).join(', ')}), withheld until you approve {withheld.length === 1 ? 'it' : 'them'}: new sessions use your provider or environment instead.
      </Row>,
    );
  }
  if (waiting.length > 0) {
    rows.push(
      <Row key="sessions" icon={<MessageSquare size={15} aria-hidden />} tone="warn" link="Sessions" onLink={() => onOpenTab('sessions')}>
        {count(waiting.length, 'session waits', 'sessions wait')} for your permission answer: {waiting.map(sessionName).join(', ')}.
      </Row>,
    );
  }
  if (lint && lintProblems > 0) {
    rows.push(
      <Row key="lint" icon={<FileText size={15} aria-hidden />} tone="muted" link="Rules" onLink={() => onOpenTab('rules')}>
        Lint: {[lint.counts.error > 0 && count(lint.counts.error, 'error'), lint.counts.warning > 0 && count(lint.counts.warning, 'warning')].filter(Boolean).join(', ')} in the instruction files.
      </Row>,
    );
  }
  const loading = !listing || !lint || !sessions || (!trusted && !review);
  const running = sessions?.filter((s) => s.state === 'busy' || s.state === 'awaiting_permission' || s.state === 'starting').length ?? 0;
  return (
    <section className="needs-you" aria-labelledby="needs-you-title">
      <h2 id="needs-you-title" className="section-title">
        Needs you
      </h2>
      {rows.length > 0 ? (
        <ul className="needs-you-list" aria-label="Needs you">
          {rows}
        </ul>
      ) : (
        <p className="needs-you-clear" data-testid="needs-you-clear">
          {loading ? (
            'Checking…'
          ) : (
            <>
              <CheckCircle2 size={15} aria-hidden /> Nothing needs you here: {trusted ? 'the folder is trusted, ' : ''}no hook or MCP server waits for approval and lint finds no problem.
            </>
          )}
        </p>
      )}
      <p className="needs-you-facts" data-testid="overview-counts">
        {rules ? (
          <button className="link-button" onClick={() => onOpenTab('rules')}>
            {count(rules.files.length, 'instruction file')}
          </button>
        ) : (
          '…'
        )}
        {' · '}
        {listing ? (
          <button className="link-button" onClick={() => onOpenTab('hooks')}>
            {count(listing.hooks.length, 'hook')}, {count(listing.mcpServers.length, 'MCP server')}
          </button>
        ) : (
          '…'
        )}
        {' · '}
        {sessions ? (
          <button className="link-button" onClick={() => onOpenTab('sessions')}>
            {count(sessions.length, 'session')}
            {running > 0 ? ` (${running} running)` : ''}
          </button>
        ) : (
          '…'
        )}
      </p>
    </section>
  );
}

function sessionName(s: Session): string {
  return s.title?.trim() || `${s.agentId} session`;
}

function Row({ icon, tone, link, linkLabel, onLink, testId, children }: { icon: ReactNode; tone: 'warn' | 'error' | 'muted'; link: string; linkLabel?: string; onLink(): void; testId?: string; children: ReactNode }) {
  return (
    <li className={`needs-you-row needs-you-${tone}`} data-testid={testId}>
      <span className="needs-you-icon">{icon}</span>
      <span className="needs-you-text">{children}</span>
      <button className="button needs-you-link" onClick={onLink} aria-label={linkLabel}>
        {link} <ArrowRight size={13} aria-hidden />
      </button>
    </li>
  );
}
