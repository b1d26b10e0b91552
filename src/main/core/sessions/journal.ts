import type { Session } from '../../../shared/contract';
import type { EventBus } from '../events/bus';
import type { Store } from '../store/database';
import { STORED_TERMINAL_CHARS, type JournalEvent } from './events';
import { hostedElsewhereMessage, isHostAlive, parseHost, type HostIdentity } from './ownership';
import { Projector } from './projector';
import type { SessionRecord } from './records';
import { SessionTables } from './tables';

/** How long streamed updates may wait in memory before they are written (milliseconds). */
export const DEFAULT_BATCH_MS = 25;
/** Buffered updates that force a write regardless of the timer. */
const MAX_BUFFERED = 2000;
/** Failed writes in a row after which the journal stops writing (and the session is stopped). */
const MAX_FAILED_WRITES = 3;

/** Options of a {@link Journal}. */
export interface JournalOptions {
  /** Batch window for `update` events (default {@link DEFAULT_BATCH_MS}); 0 writes every event at once. */
  batchMs?: number;
  /** Builds the pushed Session from the record (adds live facts: queue, pending permissions, live). */
  summarize: (record: SessionRecord) => Session;
  /** Observes every committed batch (tests, hooks); errors are swallowed. */
  onCommitted?: (events: ReadonlyArray<{ seq: number; event: JournalEvent }>) => void;
  /**
   * This engine as a host and whether it hosts the session now: lets a write tell a foreign host
   * (another process took the session over) from a foreign write to a session nobody hosts.
   */
  host?: { identity: HostIdentity; hosting: () => boolean };
  /** Called once when the journal stops writing (see {@link Journal.halt}), with the reason. */
  onHalted?: (reason: string) => void;
}

/** Thrown inside a write transaction when another live process hosts the session now. */
class HostLostError extends Error {}

/**
 * The write path of one session: persist first, then apply, then push (VibeAround's invariant).
 * `append()` buffers streamed `update` events for at most `batchMs` and writes everything else at
 * once; a write is one SQLite transaction that inserts the events, applies them to the projection
 * (record + transcript items) and saves the changed rows. Only after the commit are
 * `sessionEvent` (changed items) and `sessionUpdated` (header) pushed. So a turn's stop, which is
 * never buffered, is reported only after every event before it is durable.
 */
export class Journal {
  private projector: Projector;
  private pending: Array<{ event: JournalEvent; at: string }> = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly tables: SessionTables;
  private readonly batchMs: number;
  private halted: string | null = null;
  private failedWrites = 0;

  constructor(
    private readonly store: Store,
    private readonly bus: EventBus,
    record: SessionRecord,
    private readonly options: JournalOptions,
  ) {
    this.tables = SessionTables.of(store.db);
    this.batchMs = options.batchMs ?? DEFAULT_BATCH_MS;
    this.projector = this.makeProjector(record);
  }

  /** The in-memory record (always equal to the stored row after a flush). */
  get record(): SessionRecord {
    return this.projector.record;
  }

  /**
   * Appends an event. `update` events are batched; anything else flushes the buffer and itself now.
   * A halted journal (see {@link halt}) drops events.
   * @throws whatever SQLite throws for an immediate write (the in-memory state is rolled back)
   */
  append(event: JournalEvent): void {
    if (this.halted !== null) return;
    this.pending.push({ event, at: new Date().toISOString() });
    if (event.kind === 'update' && this.batchMs > 0 && this.pending.length < MAX_BUFFERED) {
      if (!this.timer) {
        this.timer = setTimeout(() => {
          this.timer = null;
          try {
            this.flush();
          } catch (error) {
            // the batch is dropped (never retried as is); flush() halts after repeated failures
            console.error(`[atrium] session ${this.record.id}: writing events failed: ${(error as Error).message}`);
          }
        }, this.batchMs);
      }
      return;
    }
    this.flush();
  }

  /** The reason this journal stopped writing, or null while it writes. */
  get haltedReason(): string | null {
    return this.halted;
  }

  /**
   * Stops writing for good: buffered and later events are dropped, `onHalted(reason)` is called
   * once. Used when another process took the session over, or the database keeps refusing writes.
   */
  halt(reason: string): void {
    if (this.halted !== null) return;
    this.halted = reason;
    this.pending = [];
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const r = this.projector.record;
    r.lastError = reason;
    if (r.state !== 'closed' && r.state !== 'interrupted' && r.state !== 'idle') r.state = 'failed';
    this.bus.emit('sessionUpdated', { session: this.options.summarize(r) });
    try {
      this.options.onHalted?.(reason);
    } catch {
      // observers never break the write path
    }
  }

  /**
   * Writes buffered events now (one transaction) and pushes the changes. After
   * {@link MAX_FAILED_WRITES} failures in a row the journal halts instead of failing forever.
   * @throws whatever SQLite throws (the batch is dropped, the in-memory state rolled back)
   */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.pending.length === 0 || this.halted !== null) return;
    const batch = this.pending;
    this.pending = [];
    let before = structuredClone(this.projector.record);
    const committed: Array<{ seq: number; event: JournalEvent }> = [];
    let items;
    try {
      items = this.store.transaction(() => {
        const resynced = this.resyncIfForeign();
        if (resynced) {
          before = structuredClone(resynced.stored);
          batch.unshift(...resynced.events);
        }
        const r = this.projector.record;
        for (const { event, at } of batch) {
          const seq = r.lastSeq + 1;
          r.lastSeq = seq;
          this.tables.insertEvent.run(r.id, seq, at, event.kind, JSON.stringify(event.data));
          this.projector.apply(event, at);
          if (event.kind === 'terminal_exited') {
            const d = event.data;
            this.tables.upsertTerminal.run(r.id, d.terminalId, d.output.slice(-STORED_TERMINAL_CHARS), d.truncated ? 1 : 0, d.exitCode, d.signal);
          }
          committed.push({ seq, event });
        }
        const dirty = this.projector.takeDirty();
        for (const item of dirty) this.tables.saveItem(r.id, item);
        this.tables.saveSession(r);
        return dirty;
      });
    } catch (error) {
      // the transaction rolled back: forget the in-memory effects too
      this.projector = this.makeProjector(before);
      if (error instanceof HostLostError) {
        this.halt(error.message);
        return;
      }
      if (++this.failedWrites >= MAX_FAILED_WRITES) {
        this.halt(`Writing this session to the database failed ${this.failedWrites} times in a row (${(error as Error).message}); its agent was stopped. Resume it to continue.`);
      }
      throw error;
    }
    this.failedWrites = 0;
    const header = this.projector.headerChanged;
    this.projector.headerChanged = false;
    const record = this.projector.record;
    if (items.length) this.bus.emit('sessionEvent', { sessionId: record.id, lastSeq: record.lastSeq, items });
    if (header) this.bus.emit('sessionUpdated', { session: this.options.summarize(record) });
    try {
      this.options.onCommitted?.(committed);
    } catch {
      // observers never break the write path
    }
  }

  /** Pushes `sessionUpdated` now (live facts such as the queue changed without an event). */
  announce(): void {
    this.bus.emit('sessionUpdated', { session: this.options.summarize(this.record) });
  }

  /** Flushes and stops the batch timer. */
  close(): void {
    try {
      this.flush();
    } catch (error) {
      console.error(`[atrium] session ${this.record.id}: writing events failed:`, error);
    }
  }

  /**
   * Inside the write transaction: compares the stored row with memory. Another live host now →
   * throws {@link HostLostError} (nothing is written). Another process wrote (its `last_seq`
   * differs, e.g. a recovery by an older Atrium) → rebuilds the projector from the stored row and
   * returns events to write first: a notice saying so and, while the agent runs here, the state it
   * really is in, and re-records this process as the host. Otherwise null.
   */
  private resyncIfForeign(): { stored: SessionRecord; events: Array<{ event: JournalEvent; at: string }> } | null {
    const mem = this.projector.record;
    const row = this.store.db.prepare('SELECT last_seq, owner_json FROM sessions WHERE id = ?').get(mem.id) as { last_seq: number; owner_json: string | null } | undefined;
    if (!row) return null;
    const me = this.options.host;
    const owner = parseHost(row.owner_json);
    const hosting = me?.hosting() ?? false;
    if (me && owner && !me.identity.isMe(owner) && isHostAlive(owner)) {
      if (hosting || row.last_seq !== mem.lastSeq) throw new HostLostError(hostedElsewhereMessage(mem.id, owner));
    }
    if (row.last_seq === mem.lastSeq) return null;
    const stored = this.tables.session(mem.id);
    if (!stored) return null;
    this.projector = this.makeProjector(stored);
    const at = new Date().toISOString();
    const events: Array<{ event: JournalEvent; at: string }> = [
      {
        event: {
          kind: 'policy_notice',
          data: {
            severity: 'warning',
            code: 'foreign_write',
            title: 'Another Atrium process wrote to this session',
            detail: `Events ${mem.lastSeq + 1}–${row.last_seq} came from another process; this one continues after them.`,
          },
        },
        at,
      },
    ];
    if (hosting && me) {
      if (stored.state !== mem.state) events.push({ event: { kind: 'state', data: { state: mem.state } }, at });
      this.store.db.prepare('UPDATE sessions SET owner_json = ? WHERE id = ?').run(JSON.stringify(me.identity.host()), mem.id);
    }
    return { stored: structuredClone(stored), events };
  }

  private makeProjector(record: SessionRecord): Projector {
    const id = record.id;
    return new Projector(record, {
      load: (item) => this.tables.item(id, item),
      findByRef: (ref) => this.tables.itemByRef(id, ref),
      openIds: (statuses) => this.tables.openIds(id, statuses),
      titleFromAgent: (title, beforeSeq) => this.tables.titleFromAgent(id, title, beforeSeq),
      lastAgentTitle: (beforeSeq) => this.tables.lastAgentTitle(id, beforeSeq),
    });
  }
}
