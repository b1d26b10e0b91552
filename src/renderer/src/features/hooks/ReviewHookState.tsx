import type { HookListing, TrustReviewItem } from '../../../../shared/contract';
import { useLive } from '../../api/useLive';
import { HookStateBadge } from './StateBadge';

/**
 * Hook and MCP server states for the trust review: the listing with project items included even
 * while the folder is restricted (held back), refreshed on changes. Pass null when the review is closed.
 */
export function useReviewHookStates(workspaceId: string | null): HookListing | null {
  return useLive('hooks.list', workspaceId ? { workspaceId, includeHeldBack: true } : null, ['hooksChanged', 'trustChanged']).data;
}

/** The state badge of a review item that is a hook or an MCP server (matched by file, line and event / name), else nothing. */
export function ReviewHookState({ item, listing }: { item: TrustReviewItem; listing: HookListing | null }) {
  if (!listing) return null;
  if (item.kind === 'hook') {
    const h = listing.hooks.find((x) => x.source.scope !== 'user' && x.source.file === item.path && x.line === item.line && x.event === item.detail.event);
    return h ? <HookStateBadge state={h.state} heldBack={h.heldBack} /> : null;
  }
  if (item.kind === 'mcpServer') {
    const s = listing.mcpServers.find((x) => x.source.file === item.path && x.name === item.name);
    return s ? <HookStateBadge state={s.state} heldBack={s.heldBack} /> : null;
  }
  return null;
}
