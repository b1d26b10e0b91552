import type * as acp from '@agentclientprotocol/sdk';
import type { PermissionItem, StopReason, ToolCallStatus, TranscriptItem } from '../../../shared/contract';
import {
  agentCommands,
  blockText,
  configOptions,
  permissionOptions,
  rawJson,
  sessionModes,
  summarizeContent,
  toolContents,
  toolKind,
  toolLocations,
} from './convert';
import type { JournalEvent, PermissionRoute } from './events';
import type { SessionRecord } from './records';

type UserItem = Extract<TranscriptItem, { kind: 'user_message' }>;
type MessageItem = Extract<TranscriptItem, { kind: 'agent_message' | 'agent_thought' }>;
type ToolItem = Extract<TranscriptItem, { kind: 'tool_call' }>;
type PlanItem = Extract<TranscriptItem, { kind: 'plan' }>;
type NoticeItem = Extract<TranscriptItem, { kind: 'notice' }>;

/** Largest text of one message item; longer messages continue in a new item (bounded row rewrites). */
export const MAX_ITEM_TEXT = 32 * 1024;

/** Read access to stored items the projector needs (the journal backs it with SQLite). */
export interface ItemSource {
  load(itemId: number): TranscriptItem | null;
  /** Latest item with this `ref` (tool call id, permission request id, prompt id). */
  findByRef(ref: string): TranscriptItem | null;
  /** Ids of items whose status column is one of `statuses`. */
  openIds(statuses: string[]): number[];
  /**
   * Whether the session's current `title` came from the agent, read from the log before event
   * `beforeSeq`: true when the newest event that carried this exact title is an agent
   * `session_info_update`, false when it is a user's `title_set` or no event carried it (the title
   * given at creation). Asked once per projector, when an agent title arrives after a reload.
   * Absent: the title is treated as the user's.
   */
  titleFromAgent?(title: string, beforeSeq: number): boolean;
  /**
   * The newest agent title in the log before event `beforeSeq`, or null. Asked when the user
   * clears their title and this projector has not seen an agent title itself. Absent: null.
   */
  lastAgentTitle?(beforeSeq: number): string | null;
}

/** An agent title as stored: trimmed, at most 500 characters; null when it is empty or not text. */
export function agentTitle(title: unknown): string | null {
  return typeof title === 'string' && title.trim() ? title.trim().slice(0, 500) : null;
}

/** The `ref` and `status` columns stored beside an item's JSON. */
export function itemColumns(item: TranscriptItem): { ref: string | null; status: string | null } {
  switch (item.kind) {
    case 'tool_call':
      return { ref: item.toolCallId, status: item.status };
    case 'permission':
      return { ref: item.requestId, status: item.state };
    case 'user_message':
      return { ref: item.promptId, status: item.status };
    default:
      return { ref: null, status: null };
  }
}

const OPEN_TOOL: ReadonlySet<ToolCallStatus> = new Set(['pending', 'in_progress']);

/**
 * Applies journal events to a session's projections: the record (header fields) and transcript
 * items. Pure with respect to storage: changed items collect in `dirty` and the journal writes them
 * in the same transaction as the events. Deterministic, so replaying the log rebuilds the same
 * projection. Malformed updates are ignored field by field, never thrown.
 */
export class Projector {
  /** Items created or changed since the last {@link takeDirty}. */
  private dirty = new Map<number, TranscriptItem>();
  private readonly cache = new Map<number, TranscriptItem>();
  private open: MessageItem | UserItem | null = null;
  private plan: PlanItem | null = null;
  /**
   * Whether the current title is the agent's (so a newer agent title may replace it); null until
   * first needed after a (re)load, then read from the log. A title the user set (new-session
   * dialog, CLI --title, rename) always wins over agent titles; an agent title only fills an empty one.
   */
  private titleIsAgents: boolean | null = null;
  /** The newest title the agent reported to this projector (applied or not); null before any. */
  private agentTitleSeen: string | null = null;
  /** True when a header field (state, title, modes, usage…) changed since the last take. */
  headerChanged = false;

  constructor(
    readonly record: SessionRecord,
    private readonly source: ItemSource,
  ) {}

  /** Items changed since the last call (in id order); clears the set. */
  takeDirty(): TranscriptItem[] {
    const items = [...this.dirty.values()].sort((a, b) => a.id - b.id);
    this.dirty = new Map();
    if (this.cache.size > 2000) {
      this.cache.clear();
      if (this.open) this.cache.set(this.open.id, this.open);
      if (this.plan) this.cache.set(this.plan.id, this.plan);
    }
    return items;
  }

  /** Applies one event stamped `at` (ISO 8601). */
  apply(ev: JournalEvent, at: string): void {
    const r = this.record;
    r.updatedAt = at;
    switch (ev.kind) {
      case 'update':
        this.applyUpdate(ev.data.update, Boolean(ev.data.replay), at);
        return;
      case 'prompt_queued': {
        this.open = null;
        this.put({
          id: this.nextId(),
          kind: 'user_message',
          turn: null,
          createdAt: at,
          updatedAt: at,
          text: ev.data.text,
          blocks: ev.data.blocks.filter((b) => (b as { type?: string })?.type !== 'text').map(summarizeContent),
          promptId: ev.data.promptId,
          status: 'queued',
        });
        this.headerChanged = true;
        return;
      }
      case 'prompt_sent': {
        r.turnCount += 1;
        r.stopReason = null;
        this.open = null;
        this.plan = null;
        const item = this.byRef(ev.data.promptId);
        if (item?.kind === 'user_message') this.put({ ...item, status: 'sent', turn: r.turnCount, updatedAt: at });
        this.headerChanged = true;
        return;
      }
      case 'prompt_dropped': {
        const item = this.byRef(ev.data.promptId);
        if (item?.kind === 'user_message' && item.status === 'queued') this.put({ ...item, status: 'dropped', updatedAt: at });
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
        let tool = typeof tc.toolCallId === 'string' ? this.byRef(tc.toolCallId) : null;
        if (tool?.kind === 'tool_call') tool = this.mergeTool(tool, tc, at);
        const view = tool?.kind === 'tool_call' ? tool : null;
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
          this.notice(at, 'error', 'agent_exit', `The agent ${how}`, ev.data.stderrTail || null, null);
          this.closeOpenTools('failed', at);
        }
        this.headerChanged = true;
        return;
      }
      case 'start_failed':
        r.stderrTail = ev.data.stderrTail || r.stderrTail;
        r.lastError = ev.data.message;
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

  private applyUpdate(u: acp.SessionUpdate, replay: boolean, at: string): void {
    const r = this.record;
    if (!u || typeof u !== 'object') return;
    switch (u.sessionUpdate) {
      case 'user_message_chunk':
      case 'agent_message_chunk':
      case 'agent_thought_chunk':
        this.appendChunk(u, replay, at);
        return;
      case 'tool_call': {
        this.open = null;
        const existing = typeof u.toolCallId === 'string' ? this.byRef(u.toolCallId) : null;
        if (existing?.kind === 'tool_call') {
          this.mergeTool(existing, u, at);
          return;
        }
        if (typeof u.toolCallId !== 'string') return;
        this.putNewTool(u, r.turnCount || null, at, '');
        return;
      }
      case 'tool_call_update': {
        if (typeof u.toolCallId !== 'string') return;
        const existing = this.byRef(u.toolCallId);
        if (existing?.kind === 'tool_call') {
          this.mergeTool(existing, u, at);
          return;
        }
        this.open = null;
        // An update for a call we never saw: create it, titled by its id until a title arrives.
        this.putNewTool(u, r.turnCount || null, at, u.toolCallId);
        return;
      }
      case 'plan': {
        const entries = Array.isArray(u.entries)
          ? u.entries
              .filter((e) => e && typeof e.content === 'string')
              .map((e) => ({
                content: e.content,
                priority: (['high', 'medium', 'low'] as const).includes(e.priority) ? e.priority : 'medium',
                status: (['pending', 'in_progress', 'completed'] as const).includes(e.status) ? e.status : 'pending',
              }))
          : [];
        if (this.plan && this.plan.turn === (r.turnCount || null)) {
          this.plan = { ...this.plan, entries, updatedAt: at };
          this.put(this.plan);
        } else {
          this.open = null;
          this.plan = { id: this.nextId(), kind: 'plan', turn: r.turnCount || null, createdAt: at, updatedAt: at, entries };
          this.put(this.plan);
        }
        return;
      }
      case 'available_commands_update':
        r.commands = agentCommands(u.availableCommands);
        this.headerChanged = true;
        return;
      case 'current_mode_update':
        if (typeof u.currentModeId === 'string') {
          r.modes = r.modes ? { ...r.modes, currentModeId: u.currentModeId } : { currentModeId: u.currentModeId, available: [] };
          this.headerChanged = true;
        }
        return;
      case 'config_option_update': {
        r.configOptions = configOptions(u.configOptions);
        const mode = r.configOptions.find((o) => o.category === 'mode' && typeof o.currentValue === 'string');
        if (mode && r.modes && r.modes.available.some((m) => m.id === mode.currentValue)) r.modes = { ...r.modes, currentModeId: mode.currentValue as string };
        this.headerChanged = true;
        return;
      }
      case 'session_info_update': {
        const title = agentTitle(u.title);
        if (title !== null) this.agentTitleSeen = title;
        if (title !== null && title !== r.title && this.agentMayTitle()) {
          r.title = title;
          this.titleIsAgents = true;
          this.headerChanged = true;
        }
        return;
      }
      case 'usage_update':
        if (typeof u.used === 'number' && typeof u.size === 'number') {
          const cost = u.cost && typeof u.cost.amount === 'number' && typeof u.cost.currency === 'string' ? { amount: u.cost.amount, currency: u.cost.currency } : null;
          r.usage = { used: u.used, size: u.size, cost: cost ?? r.usage?.cost ?? null };
          this.headerChanged = true;
        }
        return;
      case 'notice': {
        const sev = u.severity === 'error' || u.severity === 'warning' ? u.severity : 'info';
        this.notice(at, sev, 'agent_notice', typeof u.title === 'string' ? u.title : 'Notice', typeof u.description === 'string' ? u.description : null, null);
        return;
      }
      case 'compaction_update':
        if (u.status !== 'in_progress') {
          this.notice(at, u.status === 'failed' ? 'warning' : 'info', 'compaction', `Context compaction ${String(u.status)}`, typeof u.error === 'string' ? u.error : null, null);
        }
        return;
      default:
        return;
    }
  }

  private appendChunk(u: acp.SessionUpdate & { content: acp.ContentBlock; messageId?: string | null }, replay: boolean, at: string): void {
    const kind = u.sessionUpdate === 'user_message_chunk' ? 'user_message' : u.sessionUpdate === 'agent_thought_chunk' ? 'agent_thought' : 'agent_message';
    const messageId = typeof u.messageId === 'string' ? u.messageId : null;
    let text = blockText(u.content);
    const block = u.content && (u.content as { type?: string }).type !== 'text' ? summarizeContent(u.content) : null;
    if (!text && !block) return;
    let first = true;
    while (first || text.length) {
      const open = this.open;
      const same = open !== null && open.kind === kind && (open.kind === 'user_message' || open.messageId === messageId);
      let target: MessageItem | UserItem | null = same && open.text.length < MAX_ITEM_TEXT ? open : null;
      if (!target) {
        const base = { id: this.nextId(), turn: this.record.turnCount || null, createdAt: at, updatedAt: at, text: '', blocks: [] };
        target =
          kind === 'user_message'
            ? { ...base, kind, promptId: null, status: replay ? 'replayed' : 'sent' }
            : { ...base, kind, messageId, continued: same };
      }
      const part = text.slice(0, MAX_ITEM_TEXT - target.text.length);
      text = text.slice(part.length);
      target = { ...target, text: target.text + part, updatedAt: at, blocks: first && block ? [...target.blocks, block] : target.blocks };
      this.put(target);
      this.open = target;
      first = false;
    }
  }

  /** Adds a new tool call item from a `tool_call` (or an unmatched `tool_call_update`). */
  private putNewTool(u: Partial<acp.ToolCallUpdate> & { toolCallId: string }, turn: number | null, at: string, titleFallback: string): void {
    this.put({
      id: this.nextId(),
      kind: 'tool_call',
      turn,
      createdAt: at,
      updatedAt: at,
      toolCallId: u.toolCallId,
      title: typeof u.title === 'string' ? u.title : titleFallback,
      toolKind: toolKind(u.kind),
      status: toolStatus(u.status) ?? 'pending',
      locations: toolLocations(u.locations),
      content: toolContents(u.content),
      rawInput: rawJson(u.rawInput),
      rawOutput: rawJson(u.rawOutput),
    });
  }

  private mergeTool(item: ToolItem, u: Partial<acp.ToolCallUpdate>, at: string): ToolItem {
    const next: ToolItem = {
      ...item,
      updatedAt: at,
      title: typeof u.title === 'string' && u.title ? u.title : item.title,
      toolKind: u.kind ? toolKind(u.kind) : item.toolKind,
      status: toolStatus(u.status) ?? item.status,
      locations: Array.isArray(u.locations) ? toolLocations(u.locations) : item.locations,
      content: Array.isArray(u.content) ? toolContents(u.content) : item.content,
      rawInput: u.rawInput !== undefined ? rawJson(u.rawInput) : item.rawInput,
      rawOutput: u.rawOutput !== undefined ? rawJson(u.rawOutput) : item.rawOutput,
    };
    this.put(next);
    return next;
  }

  private closeOpenTools(status: 'cancelled' | 'failed', at: string): void {
    for (const id of this.source.openIds(['pending', 'in_progress'])) {
      const item = this.item(id);
      if (item?.kind === 'tool_call' && OPEN_TOOL.has(item.status)) this.put({ ...item, status, updatedAt: at });
    }
    for (const item of [...this.dirty.values()]) {
      if (item.kind === 'tool_call' && OPEN_TOOL.has(item.status)) this.put({ ...item, status, updatedAt: at });
    }
  }

  private notice(
    at: string,
    severity: NoticeItem['severity'],
    code: string,
    title: string,
    detail: string | null,
    outcome: NoticeItem['outcome'],
    extra: Pick<NoticeItem, 'rules' | 'triggerPaths' | 'link'> = {},
  ): void {
    this.open = null;
    this.put({ id: this.nextId(), kind: 'notice', turn: this.record.turnCount || null, createdAt: at, updatedAt: at, severity, code, title, detail, outcome, ...extra });
  }

  /** True when an agent title may replace the current one: there is none, or it is the agent's own. */
  private agentMayTitle(): boolean {
    const title = this.record.title;
    if (title === null || !title.trim()) return true;
    this.titleIsAgents ??= this.source.titleFromAgent?.(title, this.record.lastSeq) ?? false;
    return this.titleIsAgents;
  }

  private nextId(): number {
    this.record.lastItem += 1;
    return this.record.lastItem;
  }

  private put(item: TranscriptItem): void {
    this.dirty.set(item.id, item);
    this.cache.set(item.id, item);
    const ref = itemColumns(item).ref;
    if (ref !== null) this.refs.set(ref, item.id);
  }

  private readonly refs = new Map<string, number>();

  private item(id: number): TranscriptItem | null {
    return this.cache.get(id) ?? this.source.load(id);
  }

  private byRef(ref: string): TranscriptItem | null {
    const id = this.refs.get(ref);
    if (id !== undefined) return this.item(id);
    return this.source.findByRef(ref);
  }
}

function toolStatus(s: unknown): ToolCallStatus | null {
  return s === 'pending' || s === 'in_progress' || s === 'completed' || s === 'failed' ? s : null;
}

/** Stop reasons ACP defines (anything else an agent sends is reported as `end_turn`'s sibling `error`). */
export function stopReason(s: unknown): StopReason {
  return s === 'end_turn' || s === 'max_tokens' || s === 'max_turn_requests' || s === 'refusal' || s === 'cancelled' ? s : 'error';
}

/**
 * A permission item's routing fields from a recorded route (issue 8); a missing or malformed route
 * (events written before routes were recorded) means any surface.
 */
function routeFields(route: PermissionRoute | null | undefined): Pick<PermissionItem, 'surfaceId' | 'surfaceLabel' | 'surfaceKind'> {
  if (!route || typeof route !== 'object' || typeof route.surfaceId !== 'string') return { surfaceId: null, surfaceLabel: null, surfaceKind: null };
  const kind = route.kind === 'app' || route.kind === 'browser' || route.kind === 'cli' ? route.kind : null;
  return { surfaceId: route.surfaceId, surfaceLabel: typeof route.label === 'string' ? route.label : null, surfaceKind: kind };
}
