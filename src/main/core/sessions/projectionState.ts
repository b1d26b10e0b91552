/**
 * The state a session's projection keeps between events, and the item operations every kind of
 * event uses: the items changed since the last write (`dirty`), a bounded cache, the open message
 * and plan that later chunks extend, lookups by `ref`, new ids, notices, tool call items, and
 * whose the title is. Also the stored item shape helpers (`itemColumns`, `agentTitle`).
 */
import type * as acp from '@agentclientprotocol/sdk';
import type { ToolCallStatus, TranscriptItem } from '../../../shared/contract';
import { rawJson, toolContents, toolKind, toolLocations } from './convert';
import type { SessionRecord } from './records';

export type UserItem = Extract<TranscriptItem, { kind: 'user_message' }>;
export type MessageItem = Extract<TranscriptItem, { kind: 'agent_message' | 'agent_thought' }>;
export type ToolItem = Extract<TranscriptItem, { kind: 'tool_call' }>;
export type PlanItem = Extract<TranscriptItem, { kind: 'plan' }>;
export type NoticeItem = Extract<TranscriptItem, { kind: 'notice' }>;

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
 * What a {@link Projector} knows between events and the item operations its event handlers share.
 * Members are public so the per-kind handlers beside it (`projectUpdate.ts`) can use them; only
 * the Projector and those handlers do.
 */
export class ProjectionState {
  /** Items created or changed since the last {@link takeDirty}. */
  dirty = new Map<number, TranscriptItem>();
  readonly cache = new Map<number, TranscriptItem>();
  open: MessageItem | UserItem | null = null;
  plan: PlanItem | null = null;
  /**
   * Whether the current title is the agent's (so a newer agent title may replace it); null until
   * first needed after a (re)load, then read from the log. A title the user set (new-session
   * dialog, CLI --title, rename) always wins over agent titles; an agent title only fills an empty one.
   */
  titleIsAgents: boolean | null = null;
  /** The newest title the agent reported to this projector (applied or not); null before any. */
  agentTitleSeen: string | null = null;
  /**
   * Prompts queued (`prompt_queued`) and not yet sent or dropped, by prompt id: their user message
   * enters the transcript when their turn starts. Kept for logs whose `prompt_sent` carries no text.
   */
  readonly queuedPrompts = new Map<string, { text: string; blocks: unknown[] }>();
  /** True when a header field (state, title, modes, usage…) changed since the last take. */
  headerChanged = false;

  constructor(
    readonly record: SessionRecord,
    readonly source: ItemSource,
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

  /**
   * Adds a new tool call item from a `tool_call`, an unmatched `tool_call_update`, or the tool call
   * of a permission request that announces a call no update named before (Gemini CLI asks before it
   * sends any update). Returns the item.
   */
  putNewTool(u: Partial<acp.ToolCallUpdate> & { toolCallId: string }, turn: number | null, at: string, titleFallback: string): ToolItem {
    const item: ToolItem = {
      id: this.nextId(),
      kind: 'tool_call',
      turn,
      createdAt: at,
      updatedAt: at,
      toolCallId: u.toolCallId,
      title: typeof u.title === 'string' && u.title ? u.title : titleFallback,
      toolKind: toolKind(u.kind),
      status: toolStatus(u.status) ?? 'pending',
      locations: toolLocations(u.locations),
      content: toolContents(u.content),
      rawInput: rawJson(u.rawInput),
      rawOutput: rawJson(u.rawOutput),
    };
    this.put(item);
    return item;
  }

  /** Applies a tool call update's fields to an item (absent fields keep their value); returns the new item. */
  mergeTool(item: ToolItem, u: Partial<acp.ToolCallUpdate>, at: string): ToolItem {
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

  /** Ends every open (pending, in progress) tool call with `status`. */
  closeOpenTools(status: 'cancelled' | 'failed', at: string): void {
    for (const id of this.source.openIds(['pending', 'in_progress'])) {
      const item = this.item(id);
      if (item?.kind === 'tool_call' && OPEN_TOOL.has(item.status)) this.put({ ...item, status, updatedAt: at });
    }
    for (const item of [...this.dirty.values()]) {
      if (item.kind === 'tool_call' && OPEN_TOOL.has(item.status)) this.put({ ...item, status, updatedAt: at });
    }
  }

  /** Adds a notice item (ending the open message). */
  notice(
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
  agentMayTitle(): boolean {
    const title = this.record.title;
    if (title === null || !title.trim()) return true;
    this.titleIsAgents ??= this.source.titleFromAgent?.(title, this.record.lastSeq) ?? false;
    return this.titleIsAgents;
  }

  /** The next item id of the session. */
  nextId(): number {
    this.record.lastItem += 1;
    return this.record.lastItem;
  }

  /** Records a created or changed item (dirty, cached, findable by its ref). */
  put(item: TranscriptItem): void {
    this.dirty.set(item.id, item);
    this.cache.set(item.id, item);
    const ref = itemColumns(item).ref;
    if (ref !== null) this.refs.set(ref, item.id);
  }

  readonly refs = new Map<string, number>();

  /** An item by id: cached, else stored. */
  item(id: number): TranscriptItem | null {
    return this.cache.get(id) ?? this.source.load(id);
  }

  /** The latest item with this ref: seen by this projector, else stored. */
  byRef(ref: string): TranscriptItem | null {
    const id = this.refs.get(ref);
    if (id !== undefined) return this.item(id);
    return this.source.findByRef(ref);
  }
}

function toolStatus(s: unknown): ToolCallStatus | null {
  return s === 'pending' || s === 'in_progress' || s === 'completed' || s === 'failed' ? s : null;
}

