import type * as acp from '@agentclientprotocol/sdk';
import type { PermissionItem, StopReason } from '../../../shared/contract';
import { configOptions, permissionOptions, rawJson, sessionModes, summarizeContent, toolContents, toolKind, toolLocations } from './convert';
import type { JournalEvent, PermissionRoute } from './events';
import { ProjectionState } from './projectionState';
import { applyUpdate } from './projectUpdate';

export { MAX_ITEM_TEXT, type ItemSource } from './projectionState';

/**
 * Applies journal events to a session's projections: the record (header fields) and transcript
 * items. Pure with respect to storage: changed items collect in `dirty` and the journal writes them
 * in the same transaction as the events. Deterministic, so replaying the log rebuilds the same
 * projection. Malformed updates are ignored field by field, never thrown. The state it keeps lives
 * in {@link ProjectionState}; agent updates are projected by `projectUpdate.ts`.
 */
export class Projector extends ProjectionState {
  /** Applies one event stamped `at` (ISO 8601). */
  apply(ev: JournalEvent, at: string): void {
    const r = this.record;
    r.updatedAt = at;
    switch (ev.kind) {
      case 'update':
        applyUpdate(this, ev.data.update, Boolean(ev.data.replay), at);
        return;
      case 'prompt_queued':
        // a queued prompt lives in the session's queue (the queue strip), not in the transcript:
        // its user message is put in by `prompt_sent` (or `prompt_dropped`), after the turn that ran before it
        this.queuedPrompts.set(ev.data.promptId, { text: ev.data.text, blocks: Array.isArray(ev.data.blocks) ? ev.data.blocks : [] });
        this.headerChanged = true;
        return;
      case 'prompt_sent': {
        r.turnCount += 1;
        r.stopReason = null;
        this.open = null;
        this.plan = null;
        const queued = this.takeQueued(ev.data.promptId, ev.data);
        const item = queued ? null : this.byRef(ev.data.promptId);
        if (item?.kind === 'user_message') this.put({ ...item, status: 'sent', turn: r.turnCount, updatedAt: at });
        else if (queued) this.putUser(ev.data.promptId, queued.text, queued.blocks, 'sent', r.turnCount, at);
        this.headerChanged = true;
        return;
      }
      case 'prompt_dropped': {
        const queued = this.takeQueued(ev.data.promptId, ev.data);
        const item = this.byRef(ev.data.promptId);
        if (item?.kind === 'user_message' && item.status === 'queued') this.put({ ...item, status: 'dropped', updatedAt: at });
        else if (!item && queued) {
          this.open = null;
          this.putUser(ev.data.promptId, queued.text, queued.blocks, 'dropped', null, at);
        }
        this.headerChanged = true;
        return;
      }
      case 'turn_end': {
        this.open = null;
        r.stopReason = ev.data.stopReason;
        if (ev.data.stopReason !== 'end_turn') this.closeOpenTools(ev.data.stopReason === 'cancelled' ? 'cancelled' : 'failed', at);
        this.put({ id: this.nextId(), kind: 'stop', turn: r.turnCount || null, createdAt: at, updatedAt: at, stopReason: ev.data.stopReason, error: ev.data.error });
        this.headerChanged = true;
        return;
      }
      case 'cancel_requested':
        return;
      case 'permission_requested': {
        this.open = null;
        const tc = ev.data.toolCall ?? ({} as acp.ToolCallUpdate);
        // The request's toolCall is a ToolCallUpdate (ACP v1 "Requesting Permission"): fields it has
        // replace those of a call an update announced; a call nothing announced yet (Gemini CLI 0.61.0
        // asks before any `tool_call`) becomes a tool call item from it, as Zed's thread view does.
        const known = typeof tc.toolCallId === 'string' ? this.byRef(tc.toolCallId) : null;
        const view =
          known?.kind === 'tool_call'
            ? this.mergeTool(known, tc, at)
            : typeof tc.toolCallId === 'string'
              ? this.putNewTool({ ...tc, toolCallId: tc.toolCallId }, r.turnCount || null, at, '')
              : null;
        this.put({
          id: this.nextId(),
          kind: 'permission',
          turn: r.turnCount || null,
          createdAt: at,
          updatedAt: at,
          requestId: ev.data.requestId,
          toolCallId: typeof tc.toolCallId === 'string' ? tc.toolCallId : null,
          title: view?.title || (typeof tc.title === 'string' ? tc.title : '') || 'Permission requested',
          toolKind: view?.toolKind ?? toolKind(tc.kind),
          locations: view?.locations.length ? view.locations : toolLocations(tc.locations),
          content: view?.content.length ? view.content : toolContents(tc.content),
          rawInput: view?.rawInput ?? rawJson(tc.rawInput),
          options: permissionOptions(ev.data.options),
          state: 'pending',
          optionId: null,
          answeredBy: null,
          ...routeFields(ev.data.route),
        });
        this.headerChanged = true;
        return;
      }
      case 'permission_routed': {
        const item = this.byRef(ev.data.requestId);
        if (item?.kind === 'permission' && item.state === 'pending') this.put({ ...item, ...routeFields(ev.data.route), updatedAt: at } satisfies PermissionItem);
        return;
      }
      case 'permission_answered': {
        this.open = null; // text after the answer is a new message, as in Zed's thread view
        const item = this.byRef(ev.data.requestId);
        if (item?.kind === 'permission' && item.state === 'pending') {
          this.put({ ...item, state: ev.data.outcome, optionId: ev.data.optionId, answeredBy: ev.data.by, updatedAt: at } satisfies PermissionItem);
          this.answerTool(item, ev.data.outcome === 'selected' ? ev.data.optionId : null, at);
        }
        this.headerChanged = true;
        return;
      }
      case 'state':
        r.state = ev.data.state;
        if (ev.data.error !== undefined) r.lastError = ev.data.error;
        this.headerChanged = true;
        return;
      case 'agent_started':
        r.capabilities = ev.data.capabilities;
        r.lastCommand = { command: ev.data.command, args: ev.data.args };
        this.headerChanged = true;
        return;
      case 'agent_session': {
        r.agentSessionId = ev.data.agentSessionId;
        const modes = sessionModes(ev.data.modes);
        if (modes) r.modes = modes;
        const config = configOptions(ev.data.configOptions);
        if (config.length) r.configOptions = config;
        this.headerChanged = true;
        return;
      }
      case 'resume': {
        r.resume = { outcome: ev.data.outcome, at, message: ev.data.message };
        const titles = {
          resumed: 'Resumed the agent session',
          loaded: `Loaded the agent session (${ev.data.replayed} replayed update${ev.data.replayed === 1 ? '' : 's'} ${ev.data.imported ? 'imported' : 'recognised, not stored again'})`,
          'replaced-by-new': 'The agent could not continue the old session; a new agent session was started (earlier context is not known to the agent)',
          failed: 'Could not reattach to the agent session',
        } as const;
        const severity = ev.data.outcome === 'failed' ? 'error' : ev.data.outcome === 'replaced-by-new' ? 'warning' : 'info';
        this.notice(at, severity, 'resume', titles[ev.data.outcome], ev.data.message, ev.data.outcome);
        this.headerChanged = true;
        return;
      }
      case 'agent_exited': {
        r.stderrTail = ev.data.stderrTail;
        if (!ev.data.expected) {
          r.exit = { code: ev.data.code, signal: ev.data.signal, at };
          const how = ev.data.spawnError ? `could not be started: ${ev.data.spawnError}` : `exited unexpectedly (${ev.data.signal ? `signal ${ev.data.signal}` : `exit code ${ev.data.code}`})`;
          // during start-up the start_failed notice that follows says what happened, with the stderr tail
          if (!ev.data.duringStart) this.notice(at, 'error', 'agent_exit', `The agent ${how}`, ev.data.stderrTail || null, null);
          this.closeOpenTools('failed', at);
        }
        this.headerChanged = true;
        return;
      }
      case 'start_failed':
        r.stderrTail = ev.data.stderrTail || r.stderrTail;
        r.lastError = ev.data.message;
        if (ev.data.command) r.lastCommand = { command: ev.data.command, args: ev.data.args ?? [] };
        this.notice(at, 'error', 'start_failed', ev.data.message, ev.data.stderrTail || null, null);
        this.headerChanged = true;
        return;
      case 'mode_set':
        r.desiredModeId = ev.data.modeId;
        if (r.modes) r.modes = { ...r.modes, currentModeId: ev.data.modeId };
        this.headerChanged = true;
        return;
      case 'config_set': {
        const config = configOptions(ev.data.configOptions);
        if (config.length) r.configOptions = config;
        this.headerChanged = true;
        return;
      }
      case 'fs_refused':
        this.notice(at, 'warning', 'fs_refused', ev.data.message, null, null);
        return;
      case 'policy_notice': {
        const d = ev.data ?? ({} as typeof ev.data);
        const severity = d.severity === 'warning' || d.severity === 'error' ? d.severity : 'info';
        this.notice(at, severity, typeof d.code === 'string' ? d.code : 'policy', typeof d.title === 'string' ? d.title : '', typeof d.detail === 'string' ? d.detail : null, null, {
          ...(Array.isArray(d.rules) ? { rules: d.rules } : {}),
          ...(Array.isArray(d.triggerPaths) ? { triggerPaths: d.triggerPaths } : {}),
          ...(d.link && typeof d.link === 'object' ? { link: d.link } : {}),
        });
        return;
      }
      case 'interrupted':
        this.open = null;
        this.closeOpenTools('cancelled', at);
        for (const id of this.source.openIds(['queued', 'pending'])) {
          const item = this.item(id);
          if (item?.kind === 'user_message' && item.status === 'queued') this.put({ ...item, status: 'dropped', updatedAt: at });
          if (item?.kind === 'permission' && item.state === 'pending') this.put({ ...item, state: 'cancelled', answeredBy: 'shutdown', updatedAt: at });
        }
        for (const [promptId, q] of this.queuedPrompts) this.putUser(promptId, q.text, q.blocks, 'dropped', null, at);
        this.queuedPrompts.clear();
        this.notice(at, 'warning', 'interrupted', ev.data.reason, null, null);
        this.headerChanged = true;
        return;
      case 'title_set':
        // clearing your title gives the session back the agent's name for it, if it ever gave one
        r.title = ev.data.title.trim() ? ev.data.title.trim().slice(0, 500) : (this.agentTitleSeen ?? this.source.lastAgentTitle?.(r.lastSeq + 1) ?? null);
        this.titleIsAgents = !ev.data.title.trim();
        this.headerChanged = true;
        return;
      case 'fs_read':
      case 'fs_write':
      case 'terminal_created':
      case 'terminal_exited':
        // a client request between two chunks separates them: "permission: allow" and "write ok" are two messages
        this.open = null;
        return;
    }
  }

  /**
   * Forgets queued prompt `promptId` and returns its text and blocks: those the event carries, else
   * those its `prompt_queued` had (logs written before `prompt_sent` carried them); null when neither knows.
   */
  private takeQueued(promptId: string, data: { text?: unknown; blocks?: unknown }): { text: string; blocks: unknown[] } | null {
    const known = this.queuedPrompts.get(promptId) ?? null;
    this.queuedPrompts.delete(promptId);
    if (typeof data.text === 'string') return { text: data.text, blocks: Array.isArray(data.blocks) ? data.blocks : [] };
    return known;
  }

  /** Adds the user message of prompt `promptId` (text blocks are shown by `text`, others summarized). */
  private putUser(promptId: string, text: string, blocks: unknown[] | undefined, status: 'sent' | 'dropped', turn: number | null, at: string): void {
    this.put({
      id: this.nextId(),
      kind: 'user_message',
      turn,
      createdAt: at,
      updatedAt: at,
      text,
      blocks: (Array.isArray(blocks) ? blocks : []).filter((b) => (b as { type?: string })?.type !== 'text').map(summarizeContent),
      promptId,
      status,
    });
  }

  /**
   * A call still `pending` whose permission answer rejected it, or that was cancelled, becomes
   * `cancelled`: it will not run, and Gemini CLI 0.61.0 sends no update for a call it does not run
   * (Zed's `authorize_tool_call` marks it rejected). After an allow the agent reports progress
   * itself; a status it already reported is kept, and its later updates win.
   */
  private answerTool(permission: PermissionItem, optionId: string | null, at: string): void {
    if (permission.toolCallId === null) return;
    const kind = optionId === null ? null : permission.options.find((o) => o.optionId === optionId)?.kind;
    if (kind === 'allow_once' || kind === 'allow_always') return;
    const tool = this.byRef(permission.toolCallId);
    if (tool?.kind === 'tool_call' && tool.status === 'pending') this.put({ ...tool, status: 'cancelled', updatedAt: at });
  }
}

/** Stop reasons ACP defines (anything else an agent sends is reported as `end_turn`'s sibling `error`). */
export function stopReason(s: unknown): StopReason {
  return s === 'end_turn' || s === 'max_tokens' || s === 'max_turn_requests' || s === 'refusal' || s === 'cancelled' ? s : 'error';
}

/**
 * A permission item's routing fields from a recorded route; a missing or malformed route
 * (events written before routes were recorded) means any surface.
 */
function routeFields(route: PermissionRoute | null | undefined): Pick<PermissionItem, 'surfaceId' | 'surfaceLabel' | 'surfaceKind'> {
  if (!route || typeof route !== 'object' || typeof route.surfaceId !== 'string') return { surfaceId: null, surfaceLabel: null, surfaceKind: null };
  const kind = route.kind === 'app' || route.kind === 'browser' || route.kind === 'cli' ? route.kind : null;
  return { surfaceId: route.surfaceId, surfaceLabel: typeof route.label === 'string' ? route.label : null, surfaceKind: kind };
}
