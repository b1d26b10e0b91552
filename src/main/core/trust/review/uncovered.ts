import type { Hook, HookListing, HookUncovered, McpServer, TrustReview, TrustReviewItem } from '../../../../shared/contract';

/**
 * The hooks / MCP servers of `listing` a review item stands for: a project hook in the same file,
 * on the same line, for the same event (and, when both carry one, the same literal command); an
 * MCP server in the same file with the same name. Several can match (handlers written on one
 * line of a minified file), so callers get them all.
 */
export function listingItemsFor(item: TrustReviewItem, listing: HookListing): Array<Hook | McpServer> {
  if (item.kind === 'hook') {
    const same = listing.hooks.filter((h) => h.source.scope !== 'user' && h.source.file === item.path && h.line === item.line && h.event === item.detail.event);
    const byCommand = item.detail.command === undefined ? [] : same.filter((h) => h.command === item.detail.command);
    return byCommand.length ? byCommand : same;
  }
  if (item.kind === 'mcpServer') return listing.mcpServers.filter((s) => s.source.scope !== 'user' && s.source.file === item.path && s.name === item.name);
  return [];
}

/**
 * The review with every hook and MCP server item carrying what its digest does not cover, taken
 * from the hooks listing (`hooks.list` with held-back project items), so the review and the Hooks
 * tab, app and CLI, say the same. When several listing items match one review item the union of
 * their entries is given: saying too much is safe, saying "covered" for code chosen at run time is not.
 */
export function withUncovered(review: TrustReview, listing: HookListing): TrustReview {
  const items = review.items.map((item) => {
    const seen = new Set<string>();
    const uncovered: HookUncovered[] = [];
    for (const found of listingItemsFor(item, listing)) {
      for (const u of found.uncovered) {
        const key = `${u.code}\u0000${u.text}\u0000${u.message}`;
        if (seen.has(key)) continue;
        seen.add(key);
        uncovered.push(u);
      }
    }
    return uncovered.length ? { ...item, uncovered } : item;
  });
  return { ...review, items };
}
