import { z } from 'zod';
import { defineRequests } from './define';
import { SessionState, ToolKind } from './sessions';

/**
 * One "Always allow" answer an agent was given: a permission request of a session answered with
 * an option of kind `allow_always` (ACP `session/request_permission`). The agent keeps such a grant
 * by itself for the rest of its session (and may save it to its own settings); ACP has no request
 * to withdraw it, so the only revocation Atrium can do is to close the session, which stops the
 * agent process holding it.
 */
export const PermissionGrant = z.object({
  sessionId: z.string(),
  /** The session's title, or null when it has none. */
  sessionTitle: z.string().nullable(),
  workspaceId: z.string().nullable(),
  /** Folder the session runs in. */
  cwd: z.string(),
  agentId: z.string(),
  /** The session's state now (`closed`: the agent process that held the grant is gone). */
  sessionState: SessionState,
  /**
   * Whether an agent process runs for the session now (state starting, idle, busy or
   * awaiting_permission): only then does a running agent hold the grant. Otherwise none does; a
   * resume may or may not restore it, depending on whether the agent saved it.
   */
  agentRunning: z.boolean(),
  /** Transcript item id of the permission request (for linking to it). */
  itemId: z.number().int(),
  /** What the agent asked to do, as it titled the request ("Edit notes.md", "Run npm test"). */
  title: z.string(),
  toolKind: ToolKind,
  /** Paths the request named (absolute, as the agent sent them). */
  paths: z.array(z.string()),
  /** The option chosen, as the agent named it ("Always allow", "Yes, and don't ask again for npm"). */
  optionName: z.string(),
  /** Who chose it: the user, a hook, or Atrium's policy; null when the stored item does not record it. */
  answeredBy: z.enum(['user', 'hook', 'policy']).nullable(),
  /** When it was answered (ISO 8601). */
  answeredAt: z.string(),
});
export type PermissionGrant = z.infer<typeof PermissionGrant>;

export const permissionsGrantedRequests = defineRequests({
  'sessions.permissionsGranted': {
    description:
      'Every "Always allow" answer given to an agent (permission requests answered with an allow_always option), newest first; optionally of one workspace. ACP cannot withdraw one: closing the session stops the agent that holds it.',
    params: z.object({ workspaceId: z.string().min(1).optional(), limit: z.number().int().min(1).max(10_000).optional() }),
    result: z.object({ grants: z.array(PermissionGrant) }),
  },
});
