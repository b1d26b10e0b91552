import { z } from 'zod';
import { defineEvents, defineRequests } from './define';
import { AgentInstallProgress, AgentSessionListing, AgentSummary, ItemAppend, PermissionItem, Session, SessionDetails, TranscriptItem, TranscriptSearchMatch } from './sessions';

/**
 * The requests and pushed events of agent sessions (`agents.*`, `sessions.*`, `sessionEvent`, ...),
 * over the shapes in `sessions.ts`.
 */

const sessionRef = { sessionId: z.string().min(1) };
/** Where a new session runs: a workspace (its folder) or a folder (added to the workspace list if not inside one). */
const where = { workspaceId: z.string().min(1).optional(), cwd: z.string().min(1).optional() };
const oneWhere = (v: { workspaceId?: string; cwd?: string }) => v.workspaceId !== undefined || v.cwd !== undefined;
const whereMessage = { message: 'Give "workspaceId" or "cwd" (an absolute folder).' };
const envRecord = z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string());

export const sessionRequests = defineRequests({
  'agents.list': {
    description: 'Every agent preset and user-defined agent with its install state and pinned version.',
    params: z.object({}),
    result: z.object({ agents: z.array(AgentSummary) }),
  },
  'agents.install': {
    description: 'Installs an npm agent preset into the data directory (progress as agentInstallProgress events); resolves when done.',
    params: z.object({ id: z.string().min(1) }),
    result: z.object({ agent: AgentSummary }),
  },
  'agents.define': {
    description: 'Creates or replaces a user-defined agent: a command (no shell) with arguments and extra environment.',
    params: z.object({
      id: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'lowercase letters, digits, ".", "_" and "-"'),
      name: z.string().min(1).max(200).optional(),
      command: z.string().min(1),
      args: z.array(z.string()).default([]),
      env: envRecord.default({}),
    }),
    result: z.object({ agent: AgentSummary }),
  },
  'agents.remove': {
    description: 'Removes a user-defined agent (sessions keep their record).',
    params: z.object({ id: z.string().min(1) }),
    result: z.object({ removed: z.boolean() }),
  },
  'agents.setEnv': {
    description: "Sets the extra environment variables of an agent (preset or user-defined), e.g. an endpoint; replaces the previous set.",
    params: z.object({ id: z.string().min(1), env: envRecord }),
    result: z.object({ agent: AgentSummary }),
  },
  'sessions.new': {
    description: 'Starts a session with an agent in a workspace or folder; returns at once (state `starting`), progress via events. A `prompt` is queued as the first turn.',
    params: z
      .object({
        ...where,
        agentId: z.string().min(1),
        modeId: z.string().min(1).optional(),
        title: z.string().max(500).optional(),
        additionalDirectories: z.array(z.string().min(1)).optional(),
        prompt: z.string().min(1).optional(),
        /** Run in a new git worktree on branch `atrium/<title slug>-<first 8 characters of the session id>` from the workspace's HEAD. */
        worktree: z.boolean().optional(),
        /** The surface creating the session (its first prompt's permission requests go there). */
        surfaceId: z.string().min(1).max(200).optional(),
      })
      .refine(oneWhere, whereMessage),
    result: z.object({ session: Session }),
  },
  'sessions.prompt': {
    description:
      'Queues a prompt; it runs when the previous turn ends (position 0 = runs now). Resumes a session whose agent is not running. A `paused` session refuses it (SESSION_PAUSED): resolve the pause first (sessions.resolveRuleMismatch).',
    params: z.object({ ...sessionRef, text: z.string().min(1), surfaceId: z.string().min(1).max(200).optional() }),
    result: z.object({ promptId: z.string(), position: z.number().int(), session: Session }),
  },
  'sessions.cancel': {
    description: 'Stops the running turn at once (bypasses the queue): sends session/cancel and answers pending permissions `cancelled`. `clearQueue` also drops queued prompts.',
    params: z.object({ ...sessionRef, clearQueue: z.boolean().optional() }),
    result: z.object({ session: Session }),
  },
  'sessions.dequeue': {
    description: 'Removes one queued prompt before it runs.',
    params: z.object({ ...sessionRef, promptId: z.string().min(1) }),
    result: z.object({ removed: z.boolean(), session: Session }),
  },
  'sessions.close': {
    description: 'Closes a session: cancels its turn, closes the agent session and kills the agent process tree. It can be resumed later.',
    params: z.object(sessionRef),
    result: z.object({ session: Session }),
  },
  'sessions.rename': {
    description: "Sets the session's title (empty clears it). A title the user set wins over titles the agent reports (ACP session_info_update); an agent title only fills an empty one.",
    params: z.object({ ...sessionRef, title: z.string().max(500) }),
    result: z.object({ session: Session }),
  },
  'sessions.resume': {
    description:
      'Starts the agent again and re-attaches (session/resume, else session/load, else session/new); resolves when done, outcome in `session.resume`. When the rules the session was given changed, it ends `paused` (reason `rules_changed`) instead.',
    params: z.object(sessionRef),
    result: z.object({ session: Session }),
  },
  'sessions.list': {
    description: 'Sessions, most recently active first; optionally only those of one workspace or folder.',
    params: z.object({ ...where, limit: z.number().int().min(1).max(10_000).optional() }),
    result: z.object({ sessions: z.array(Session) }),
  },
  'sessions.show': {
    description: 'One session with its pending permissions and diagnostics (stderr tail).',
    params: z.object(sessionRef),
    result: z.object({ session: SessionDetails }),
  },
  'sessions.transcript': {
    description: 'A page of transcript items in order: the last `limit` by default, or those before/after an item id.',
    params: z.object({
      ...sessionRef,
      before: z.number().int().optional(),
      after: z.number().int().optional(),
      limit: z.number().int().min(1).max(1000).optional(),
    }),
    result: z.object({ items: z.array(TranscriptItem), total: z.number().int(), hasBefore: z.boolean(), hasAfter: z.boolean() }),
  },
  'sessions.searchTranscript': {
    description:
      "Finds `query` (case-insensitive plain text) in every item of a session's transcript, loaded in a view or not: the matching items in order (at most `limit`) with their occurrence counts and a snippet, and the totals over all matches.",
    params: z.object({ ...sessionRef, query: z.string().max(500), limit: z.number().int().min(1).max(5000).optional() }),
    result: z.object({ matches: z.array(TranscriptSearchMatch), items: z.number().int(), occurrences: z.number().int(), truncated: z.boolean() }),
  },
  'sessions.answerPermission': {
    description: "Answers a pending permission request with one of the agent's option ids, or `cancelled`. `byPolicy`: a fixed policy answered (a terminal's `--on-permission`), not a person; recorded as `answeredBy: policy`. `noOneToAsk` (with `cancelled`): the surface that had to ask had no one to ask (a terminal whose input ended); recorded as `answeredBy: nobody`.",
    params: z
      .object({ ...sessionRef, requestId: z.string().min(1), optionId: z.string().min(1).optional(), cancelled: z.boolean().optional(), byPolicy: z.boolean().optional(), noOneToAsk: z.boolean().optional() })
      .refine((v) => (v.optionId !== undefined) !== (v.cancelled === true), { message: 'Give "optionId" or "cancelled": true.' }),
    result: z.object({ permission: PermissionItem }),
  },
  'sessions.setMode': {
    description: 'Switches the agent session mode (ACP session/set_mode); only modes the agent offered.',
    params: z.object({ ...sessionRef, modeId: z.string().min(1) }),
    result: z.object({ session: Session }),
  },
  'sessions.setConfigOption': {
    description: 'Sets an agent configuration option (ACP session/set_config_option).',
    params: z.object({ ...sessionRef, configId: z.string().min(1), value: z.union([z.string(), z.boolean()]) }),
    result: z.object({ session: Session }),
  },
  'sessions.terminalOutput': {
    description: 'Output of a terminal the agent ran in a session (live, or the stored tail after it ended).',
    params: z.object({ ...sessionRef, terminalId: z.string().min(1) }),
    result: z.object({
      output: z.string(),
      truncated: z.boolean(),
      exitStatus: z.object({ exitCode: z.number().int().nullable(), signal: z.string().nullable() }).nullable(),
    }),
  },
  'sessions.agentSessions': {
    description: "Sessions the agent itself keeps for a folder (ACP session/list), to adopt ones started outside Atrium. `supported` is false when the agent cannot list.",
    params: z.object({ ...where, agentId: z.string().min(1) }).refine(oneWhere, whereMessage),
    result: z.object({ supported: z.boolean(), sessions: z.array(AgentSessionListing) }),
  },
  'sessions.adopt': {
    description: 'Creates an Atrium session bound to an existing agent session (from sessions.agentSessions) and resumes it.',
    params: z
      .object({ ...where, agentId: z.string().min(1), agentSessionId: z.string().min(1), title: z.string().max(500).optional() })
      .refine(oneWhere, whereMessage),
    result: z.object({ session: Session }),
  },
});

export const sessionEvents = defineEvents({
  sessionUpdated: {
    description: 'A session changed state or header data (state, queue, modes, usage, resume outcome…).',
    payload: z.object({ session: Session }),
  },
  sessionEvent: {
    description:
      'Transcript delta, pushed only after it is durable: `items` created or changed (upsert by id), and `appends`: text appended to items that only grew (apply at `offset`; a different local length means a missed event: refetch the item).',
    payload: z.object({ sessionId: z.string(), lastSeq: z.number().int(), items: z.array(TranscriptItem), appends: z.array(ItemAppend).optional() }),
  },
  permissionRequested: {
    description: 'An agent asks for permission; answer with sessions.answerPermission. Raise a notification when no window is open. Pushed again (same requestId, new surfaceId) when the addressed surface detaches while the request is pending.',
    payload: z.object({
      sessionId: z.string(),
      sessionTitle: z.string().nullable(),
      permission: PermissionItem,
      /** The attached surface that should answer (the one that sent the prompt, else any attached one); null = any surface. */
      surfaceId: z.string().nullable().optional(),
    }),
  },
  agentInstallProgress: {
    description: 'Progress of an agents.install.',
    payload: AgentInstallProgress,
  },
});
