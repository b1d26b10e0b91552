import type { Hook, HookListing, McpServer, TrustReviewItem } from '../../../../shared/contract';
import { useLive } from '../../api/useLive';
import { HookStateBadge } from './StateBadge';
import { UncoveredList } from './Uncovered';

/**
 * Hook and MCP server states for the trust review: the listing with project items included even
 * while the folder is restricted (held back), refreshed on changes. Pass null when the review is closed.
 */
export function useReviewHookStates(workspaceId: string | null): HookListing | null {
  return useLive('hooks.list', workspaceId ? { workspaceId, includeHeldBack: true } : null, ['hooksChanged', 'trustChanged']).data;
}

/** The hook or MCP server of the listing a review item stands for (matched by file, line and event / name), else null. */
export function reviewListingItem(item: TrustReviewItem, listing: HookListing | null): Hook | McpServer | null {
  if (!listing) return null;
  if (item.kind === 'hook') return listing.hooks.find((x) => x.source.scope !== 'user' && x.source.file === item.path && x.line === item.line && x.event === item.detail.event) ?? null;
  if (item.kind === 'mcpServer') return listing.mcpServers.find((x) => x.source.file === item.path && x.name === item.name) ?? null;
  return null;
}

/** The state badge of a review item that is a hook or an MCP server, else nothing. */
export function ReviewHookState({ item, listing }: { item: TrustReviewItem; listing: HookListing | null }) {
  const found = reviewListingItem(item, listing);
  return found ? <HookStateBadge state={found.state} heldBack={found.heldBack} /> : null;
}

/**
 * "Not covered by the digest: …" (danger-marked) for a review item whose digest does not cover
 * everything it runs, else nothing. Reads the review item's own `uncovered` list, which the engine
 * fills from the hooks listing, so `atrium trust review` says exactly the same.
 */
export function ReviewUncovered({ item }: { item: TrustReviewItem }) {
  return item.uncovered.length ? <UncoveredList uncovered={item.uncovered} /> : null;
}
