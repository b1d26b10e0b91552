import { useLive } from '../../api/useLive';

/** The trust review of a workspace, refreshed when trust or a hook or MCP server changes. */
export function useTrustReview(workspaceId: string | null) {
  return useLive('trust.review', workspaceId ? { workspaceId } : null, ['trustChanged', 'hooksChanged']);
}
