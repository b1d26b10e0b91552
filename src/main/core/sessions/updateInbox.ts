/**
 * Where a live session's `session/update` notifications go: buffered while the agent's session id
 * is not known yet (updates may precede the session/new answer), counted (and stored only when the
 * conversation is not stored yet) during a `session/load` replay, else journaled as they come.
 */
import type * as acp from '@agentclientprotocol/sdk';
import type { JournalEvent } from './events';

/** Most notifications held while the session id is not known; later ones are dropped. */
const SETUP_BUFFER_MAX = 1000;

/** Routes one session's agent notifications into its journal (see the file comment). */
export class UpdateInbox {
  private setupBuffer: acp.SessionNotification[] | null = null;
  private replayCount: number | null = null;
  private replayStore = false;

  constructor(
    private readonly agentSessionId: () => string | null,
    private readonly append: (event: JournalEvent) => void,
    /** Told of each live (not replayed) tool call or tool call update, after it is journaled. */
    private readonly onToolCall: (update: acp.ToolCall | acp.ToolCallUpdate) => void,
    /** Told of each live (not replayed) update, after it is journaled. */
    private readonly onLive: (update: acp.SessionUpdate) => void = () => undefined,
  ) {}

  /** Starts holding notifications for a session id not known yet (after `initialize`). */
  beginSetup(): void {
    this.setupBuffer = [];
  }

  /** The session id is known: handles what was held, in order. */
  endSetup(): void {
    const buffered = this.setupBuffer ?? [];
    this.setupBuffer = null;
    for (const n of buffered) this.receive(n);
  }

  /** Start-up failed: forgets what was held. */
  abortSetup(): void {
    this.setupBuffer = null;
  }

  /** A replay starts: updates are counted, and journaled (marked `replay`) only when `store`. */
  beginReplay(store: boolean): void {
    this.replayCount = 0;
    this.replayStore = store;
  }

  /** The replay ended: how many updates it carried. */
  endReplay(): number {
    const n = this.replayCount ?? 0;
    this.replayCount = null;
    return n;
  }

  /** True when the last replay was journaled (the conversation was imported from the agent). */
  get replayStored(): boolean {
    return this.replayStore;
  }

  /** Handles one notification from the agent. */
  receive(n: acp.SessionNotification): void {
    if (!n || typeof n !== 'object' || !n.update) return;
    if (n.sessionId !== this.agentSessionId()) {
      // updates may precede the session/new answer that tells us the id
      if (this.setupBuffer && this.setupBuffer.length < SETUP_BUFFER_MAX) this.setupBuffer.push(n);
      return;
    }
    if (this.replayCount !== null) {
      this.replayCount += 1;
      if (!this.replayStore) return;
      this.append({ kind: 'update', data: { update: n.update, replay: true } });
      return;
    }
    this.append({ kind: 'update', data: { update: n.update } });
    if (n.update.sessionUpdate === 'tool_call' || n.update.sessionUpdate === 'tool_call_update') this.onToolCall(n.update);
    this.onLive(n.update);
  }
}
