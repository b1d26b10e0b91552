import type { Session } from '../../../shared/contract';
import type { EventBus } from '../events/bus';
import type { Store } from '../store/database';
import { STORED_TERMINAL_CHARS, type JournalEvent } from './events';
import { Projector } from './projector';
import type { SessionRecord } from './records';
import { SessionTables } from './tables';

/** How long streamed updates may wait in memory before they are written (milliseconds). */
export const DEFAULT_BATCH_MS = 25;
/** Buffered updates that force a write regardless of the timer. */
const MAX_BUFFERED = 2000;

/** Options of a {@link Journal}. */
export interface JournalOptions {
  /** Batch window for `update` events (default {@link DEFAULT_BATCH_MS}); 0 writes every event at once. */
  batchMs?: number;
  /** Builds the pushed Session from the record (adds live facts: queue, pending permissions, live). */
  summarize: (record: SessionRecord) => Session;
  /** Observes every committed batch (tests, hooks); errors are swallowed. */
  onCommitted?: (events: ReadonlyArray<{ seq: number; event: JournalEvent }>) => void;
}

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
   * @throws whatever SQLite throws for an immediate write (the in-memory state is rolled back)
   */
  append(event: JournalEvent): void {
    this.pending.push({ event, at: new Date().toISOString() });
    if (event.kind === 'update' && this.batchMs > 0 && this.pending.length < MAX_BUFFERED) {
      if (!this.timer) {
        this.timer = setTimeout(() => {
          this.timer = null;
          try {
            this.flush();
          } catch (error) {
            console.error(`[atrium] session ${this.record.id}: writing events failed:`, error);
          }
        }, this.batchMs);
      }
      return;
    }
    this.flush();
  }

  /** Writes buffered events now (one transaction) and pushes the changes. */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    const before = structuredClone(this.projector.record);
    const committed: Array<{ seq: number; event: JournalEvent }> = [];
    let items;
    try {
      items = this.store.transaction(() => {
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
      throw error;
    }
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
