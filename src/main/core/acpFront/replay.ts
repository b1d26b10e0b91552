/**
 * The conversation of an Atrium session as ACP `session/update`s, rebuilt from its journal, for
 * `session/load` from an editor (ACP: the agent replays the whole conversation before answering).
 * Atrium replays its own record rather than the agent's: it holds every session the same way
 * whatever the agent supports, and it is what the Sessions view shows.
 */
import type * as acp from '@agentclientprotocol/sdk';
import type { Store } from '../store/database';

/** Journal kinds that carry conversation. */
const KINDS = ['prompt_sent', 'update'] as const;

/** Updates that describe the session's state at that moment, not the conversation: the agent sends them again when it re-attaches. */
const STATE_UPDATES = new Set(['available_commands_update', 'current_mode_update', 'config_option_update', 'usage_update']);

/**
 * The session's conversation in journal order: each prompt sent (`prompt_sent`, its content blocks
 * as `user_message_chunk`s) and each update the agent sent, imported replays included. State
 * updates (commands, mode, options, usage) are left out: the live agent reports the current ones.
 * Rows whose data cannot be parsed are skipped (the journal is Atrium's own; this only guards).
 */
export function conversationUpdates(store: Store, sessionId: string): acp.SessionUpdate[] {
  const rows = store.db
    .prepare(`SELECT kind, data FROM session_events WHERE session_id = ? AND kind IN (${KINDS.map(() => '?').join(', ')}) ORDER BY seq`)
    .all(sessionId, ...KINDS) as Array<{ kind: (typeof KINDS)[number]; data: string }>;
  const out: acp.SessionUpdate[] = [];
  for (const row of rows) {
    let data: { blocks?: unknown; text?: unknown; update?: acp.SessionUpdate };
    try {
      data = JSON.parse(row.data) as typeof data;
    } catch {
      continue;
    }
    if (row.kind === 'prompt_sent') {
      const blocks = Array.isArray(data.blocks) ? (data.blocks as acp.ContentBlock[]) : typeof data.text === 'string' ? [{ type: 'text' as const, text: data.text }] : [];
      for (const content of blocks) if (content && typeof content === 'object') out.push({ sessionUpdate: 'user_message_chunk', content });
      continue;
    }
    const update = data.update;
    if (!update || typeof update !== 'object' || typeof update.sessionUpdate !== 'string' || STATE_UPDATES.has(update.sessionUpdate)) continue;
    out.push(update);
  }
  return out;
}
