/**
 * The prompts of one live session: the queue (one turn at a time, in order), the turn that runs,
 * and the waiters for a turn's outcome. A turn is sent through the {@link TurnHost} the session
 * gives (start the agent, the connection, the journal, the hooks); the queue never starts or stops
 * an agent itself.
 */
import crypto from 'node:crypto';
import * as acp from '@agentclientprotocol/sdk';
import type { Session, StopReason } from '../../../shared/contract';
import { describeAgentError } from './acpConnection';
import type { JournalEvent } from './events';
import { stopReason } from './projector';

/** A prompt waiting for its turn (or running). */
export interface QueuedTurn {
  promptId: string;
  text: string;
  blocks: acp.ContentBlock[];
  queuedAt: string;
  /** The surface that sent the prompt, or null. */
  surfaceId: string | null;
}

/** What the queue needs of its session, read at each use (the agent may start or stop in between). */
export interface TurnHost {
  /** Starts (or resumes) the agent when it is not running; rejects when it cannot. */
  ensureStarted(): Promise<void>;
  /** The ACP connection of the running agent, or null. */
  conn(): acp.ClientConnection | null;
  /** The agent's session id, or null before the first attach. */
  agentSessionId(): string | null;
  /** True while an agent runs attached to the session. */
  live(): boolean;
  /** True while the session is being stopped or closed. */
  stopping(): boolean;
  /** Settles once the agent process has exited and its exit is recorded (null when none ran). */
  gone(): Promise<void> | null;
  append(event: JournalEvent): void;
  state(): Session['state'];
  setState(state: Session['state']): void;
  /** The prompt hooks: may rewrite the blocks sent; `afterTurn` learns the stop reason. */
  beforePrompt(blocks: acp.ContentBlock[], meta: { promptId: string; text: string }): Promise<acp.ContentBlock[]>;
  afterTurn(stop: StopReason): void;
  scheduleIdle(): void;
  clearIdleTimer(): void;
}

/** Most recent turn outcomes kept so a late `wait` resolves too. */
const SETTLED_KEPT = 1000;

/**
 * The prompt queue of one session. Every change is journaled (`prompt_queued`, `prompt_sent`,
 * `prompt_dropped`, `turn_end`) before waiters learn it.
 */
export class PromptQueue {
  private readonly queue: QueuedTurn[] = [];
  private current: QueuedTurn | null = null;
  private draining = false;
  private readonly turnWaiters = new Map<string, Array<(stop: StopReason | 'dropped') => void>>();
  /** Outcomes of recent prompts, so a late `waitForTurn` resolves too (bounded). */
  private readonly settled = new Map<string, StopReason | 'dropped'>();

  constructor(private readonly host: TurnHost) {}

  /** The turn being sent to the agent, or null. */
  get running(): QueuedTurn | null {
    return this.current;
  }

  /** Number of prompts waiting (the running one not included). */
  get length(): number {
    return this.queue.length;
  }

  /** The waiting prompts as the contract's Session shows them. */
  summary(): Array<{ promptId: string; text: string; queuedAt: string }> {
    return this.queue.map((q) => ({ promptId: q.promptId, text: q.text, queuedAt: q.queuedAt }));
  }

  /**
   * Queues a prompt and starts the queue if idle (starting or resuming the agent first if needed).
   * `blocks` (an ACP client's own prompt, e.g. with resource links) default to one text block of `text`.
   * @returns its id and position (0 = runs now)
   */
  prompt(text: string, surfaceId: string | null, blocks?: acp.ContentBlock[]): { promptId: string; position: number } {
    const q: QueuedTurn = { promptId: crypto.randomUUID(), text, blocks: blocks?.length ? blocks : [{ type: 'text', text }], queuedAt: new Date().toISOString(), surfaceId };
    this.queue.push(q);
    this.host.append({ kind: 'prompt_queued', data: { promptId: q.promptId, text, blocks: q.blocks, queuedAt: q.queuedAt } });
    const position = this.queue.length - 1 + (this.current ? 1 : 0);
    void this.drain();
    return { promptId: q.promptId, position };
  }

  /** Resolves when the prompt's turn has ended (its stop reason) or the prompt was dropped (at once if that already happened). */
  waitForTurn(promptId: string): Promise<StopReason | 'dropped'> {
    const done = this.settled.get(promptId);
    if (done) return Promise.resolve(done);
    return new Promise((resolve) => {
      const list = this.turnWaiters.get(promptId) ?? [];
      list.push(resolve);
      this.turnWaiters.set(promptId, list);
    });
  }

  /** Removes a queued prompt before it runs; false when it is not queued (running or done). */
  dequeue(promptId: string): boolean {
    const i = this.queue.findIndex((q) => q.promptId === promptId);
    if (i < 0) return false;
    const [q] = this.queue.splice(i, 1);
    this.host.append({ kind: 'prompt_dropped', data: { promptId, reason: 'removed from the queue', text: q.text, blocks: q.blocks } });
    this.settleTurn(promptId, 'dropped');
    return true;
  }

  /**
   * Drops every waiting prompt (journaled with `reason` and the prompt's text, so the transcript
   * keeps what was not sent); their waiters resolve `dropped`.
   */
  dropAll(reason: string): void {
    for (const q of this.queue.splice(0)) {
      this.host.append({ kind: 'prompt_dropped', data: { promptId: q.promptId, reason, text: q.text, blocks: q.blocks } });
      this.settleTurn(q.promptId, 'dropped');
    }
  }

  private settleTurn(promptId: string, stop: StopReason | 'dropped'): void {
    this.settled.set(promptId, stop);
    if (this.settled.size > SETTLED_KEPT) this.settled.delete(this.settled.keys().next().value as string);
    const list = this.turnWaiters.get(promptId);
    this.turnWaiters.delete(promptId);
    for (const fn of list ?? []) fn(stop);
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.queue.length && !this.host.stopping()) {
        try {
          await this.host.ensureStarted();
        } catch {
          this.dropAll('the agent could not start');
          break;
        }
        const next = this.queue.shift();
        if (!next) break;
        await this.runTurn(next);
      }
    } finally {
      this.draining = false;
      if (this.host.live()) this.host.scheduleIdle();
    }
  }

  private async runTurn(q: QueuedTurn): Promise<void> {
    const host = this.host;
    const conn = host.conn();
    const sessionId = host.agentSessionId();
    if (!conn || !sessionId) {
      host.append({ kind: 'prompt_dropped', data: { promptId: q.promptId, reason: 'the agent is not running', text: q.text, blocks: q.blocks } });
      this.settleTurn(q.promptId, 'dropped');
      return;
    }
    host.clearIdleTimer();
    this.current = q;
    // the prompt enters the transcript only now: queued while another turn ran, it must follow that turn's reply
    host.append({ kind: 'prompt_sent', data: { promptId: q.promptId, text: q.text, blocks: q.blocks } });
    host.setState('busy');
    let stop: StopReason;
    let error: string | null = null;
    let recorded = false;
    try {
      const blocks = await host.beforePrompt(q.blocks, { promptId: q.promptId, text: q.text });
      const res = await conn.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: blocks });
      stop = stopReason(res?.stopReason);
      if (stop === 'error') error = `The agent answered with an unknown stop reason "${String(res?.stopReason)}".`;
    } catch (e) {
      if (conn.signal.aborted || !host.live()) {
        // the process died or is being stopped: its exit handler (or stop) records the end of the turn
        await host.gone();
        recorded = true;
        stop = host.stopping() ? 'cancelled' : 'crashed';
      } else {
        stop = 'error';
        error = describeAgentError(e);
      }
    }
    this.current = null;
    if (!recorded && !host.stopping()) {
      // persisted (and so durable) before anyone is told the turn ended
      host.append({ kind: 'turn_end', data: { stopReason: stop, error } });
      if (host.state() === 'busy' || host.state() === 'awaiting_permission') host.setState('idle');
    }
    this.settleTurn(q.promptId, stop);
    host.afterTurn(stop);
  }
}
