import { ShieldAlert } from 'lucide-react';
import type { TrustReview, Workspace } from '../../../../shared/contract';
import { useApp } from '../../state/appStore';
import { SharedDecision } from './SharesTrust';

/** Plural helper: "1 hook", "3 hooks". */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * What restricted mode leaves inactive, e.g. "2 instruction files, 1 hook and 3 other items are
 * inactive.": the kinds people ask about first, then the rest, so the total is the trust review's
 * own item count. Kinds with none are left out.
 */
export function inactiveSummary(total: number, instruction: number, hook: number, mcpServer: number): string {
  const parts = [instruction > 0 && count(instruction, 'instruction file'), hook > 0 && count(hook, 'hook'), mcpServer > 0 && count(mcpServer, 'MCP server')].filter((p): p is string => Boolean(p));
  const others = total - instruction - hook - mcpServer;
  if (others > 0) parts.push(count(others, parts.length ? 'other item' : 'item'));
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0];
  return `${list} ${total === 1 ? 'is' : 'are'} inactive.`;
}

/**
 * Shown on an untrusted or undecided workspace: what is inactive, and the way to review it.
 * Counts come from the trust review, so they name what trusting would switch on.
 */
export function RestrictedBanner({ workspace, review, onReview }: { workspace: Workspace; review: TrustReview | null; onReview(): void }) {
  if (workspace.trust.state === 'trusted' || workspace.missing) return null;
  // Nothing to activate: restricted mode changes nothing here, so do not alarm (the badge stays).
  if (review && review.items.length === 0) return null;
  const c = review?.counts;
  const summary = c && review ? inactiveSummary(review.items.length, c.instruction, c.hook, c.mcpServer) : 'Checking what this folder carries…';
  const lead = workspace.trust.state === 'untrusted' ? 'Untrusted: restricted mode.' : 'Restricted mode: you have not trusted this folder yet.';
  const home = useApp((s) => s.info?.homeDir);
  return (
    <div className="banner banner-warn restricted-banner" role="status" aria-label="Restricted mode">
      <ShieldAlert size={16} aria-hidden />
      <span>
        <strong>{lead}</strong> {summary}
        {workspace.worktreeOf && (
          <>
            {' '}
            <SharedDecision workspace={workspace} home={home} />
          </>
        )}
      </span>
      <button className="button" onClick={onReview}>
        Review…
      </button>
    </div>
  );
}
