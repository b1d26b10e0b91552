/**
 * How each kind of agent `session/update` changes a session's projection: message and thought
 * chunks (continuing the open message, split at {@link MAX_ITEM_TEXT}), tool calls and their
 * updates, the plan, commands, modes, configuration options, the agent's title, usage, notices
 * and compaction. Malformed updates are ignored field by field, never thrown.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { agentCommands, blockText, configOptions, summarizeContent } from './convert';
import { agentTitle, MAX_ITEM_TEXT, type MessageItem, type ProjectionState, type UserItem } from './projectionState';

/** Applies one agent update (`replay`: it came from a `session/load` replay) stamped `at`. */
export function applyUpdate(s: ProjectionState, u: acp.SessionUpdate, replay: boolean, at: string): void {
  const r = s.record;
  if (!u || typeof u !== 'object') return;
  switch (u.sessionUpdate) {
    case 'user_message_chunk':
    case 'agent_message_chunk':
    case 'agent_thought_chunk':
      appendChunk(s, u, replay, at);
      return;
    case 'tool_call': {
      s.open = null;
      const existing = typeof u.toolCallId === 'string' ? s.byRef(u.toolCallId) : null;
      if (existing?.kind === 'tool_call') {
        s.mergeTool(existing, u, at);
        return;
      }
      if (typeof u.toolCallId !== 'string') return;
      s.putNewTool(u, r.turnCount || null, at, '');
      return;
    }
    case 'tool_call_update': {
      if (typeof u.toolCallId !== 'string') return;
      const existing = s.byRef(u.toolCallId);
      if (existing?.kind === 'tool_call') {
        s.mergeTool(existing, u, at);
        return;
      }
      s.open = null;
      // An update for a call we never saw: create it, titled by its id until a title arrives.
      s.putNewTool(u, r.turnCount || null, at, u.toolCallId);
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
      if (s.plan && s.plan.turn === (r.turnCount || null)) {
        s.plan = { ...s.plan, entries, updatedAt: at };
        s.put(s.plan);
      } else {
        s.open = null;
        s.plan = { id: s.nextId(), kind: 'plan', turn: r.turnCount || null, createdAt: at, updatedAt: at, entries };
        s.put(s.plan);
      }
      return;
    }
    case 'available_commands_update':
      r.commands = agentCommands(u.availableCommands);
      s.headerChanged = true;
      return;
    case 'current_mode_update':
      if (typeof u.currentModeId === 'string') {
        r.modes = r.modes ? { ...r.modes, currentModeId: u.currentModeId } : { currentModeId: u.currentModeId, available: [] };
        s.headerChanged = true;
      }
      return;
    case 'config_option_update': {
      r.configOptions = configOptions(u.configOptions);
      const mode = r.configOptions.find((o) => o.category === 'mode' && typeof o.currentValue === 'string');
      if (mode && r.modes && r.modes.available.some((m) => m.id === mode.currentValue)) r.modes = { ...r.modes, currentModeId: mode.currentValue as string };
      s.headerChanged = true;
      return;
    }
    case 'session_info_update': {
      const title = agentTitle(u.title);
      if (title !== null) s.agentTitleSeen = title;
      if (title !== null && title !== r.title && s.agentMayTitle()) {
        r.title = title;
        s.titleIsAgents = true;
        s.headerChanged = true;
      }
      return;
    }
    case 'usage_update':
      if (typeof u.used === 'number' && typeof u.size === 'number') {
        const cost = u.cost && typeof u.cost.amount === 'number' && typeof u.cost.currency === 'string' ? { amount: u.cost.amount, currency: u.cost.currency } : null;
        r.usage = { used: u.used, size: u.size, cost: cost ?? r.usage?.cost ?? null };
        s.headerChanged = true;
      }
      return;
    case 'notice': {
      const sev = u.severity === 'error' || u.severity === 'warning' ? u.severity : 'info';
      s.notice(at, sev, 'agent_notice', typeof u.title === 'string' ? u.title : 'Notice', typeof u.description === 'string' ? u.description : null, null);
      return;
    }
    case 'compaction_update':
      if (u.status !== 'in_progress') {
        s.notice(at, u.status === 'failed' ? 'warning' : 'info', 'compaction', `Context compaction ${String(u.status)}`, typeof u.error === 'string' ? u.error : null, null);
      }
      return;
    default:
      return;
  }
}

/** Appends a message, thought or user chunk: to the open message of the same kind and message id while it has room, else to a new item. */
function appendChunk(s: ProjectionState, u: acp.SessionUpdate & { content: acp.ContentBlock; messageId?: string | null }, replay: boolean, at: string): void {
  const kind = u.sessionUpdate === 'user_message_chunk' ? 'user_message' : u.sessionUpdate === 'agent_thought_chunk' ? 'agent_thought' : 'agent_message';
  const messageId = typeof u.messageId === 'string' ? u.messageId : null;
  let text = blockText(u.content);
  const block = u.content && (u.content as { type?: string }).type !== 'text' ? summarizeContent(u.content) : null;
  if (!text && !block) return;
  let first = true;
  while (first || text.length) {
    const open = s.open;
    const same = open !== null && open.kind === kind && (open.kind === 'user_message' || open.messageId === messageId);
    let target: MessageItem | UserItem | null = same && open.text.length < MAX_ITEM_TEXT ? open : null;
    if (!target) {
      const base = { id: s.nextId(), turn: s.record.turnCount || null, createdAt: at, updatedAt: at, text: '', blocks: [] };
      target =
        kind === 'user_message'
          ? { ...base, kind, promptId: null, status: replay ? 'replayed' : 'sent' }
          : { ...base, kind, messageId, continued: same };
    }
    const part = text.slice(0, MAX_ITEM_TEXT - target.text.length);
    text = text.slice(part.length);
    target = { ...target, text: target.text + part, updatedAt: at, blocks: first && block ? [...target.blocks, block] : target.blocks };
    s.put(target);
    s.open = target;
    first = false;
  }
}
