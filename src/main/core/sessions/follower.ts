/**
 * Follows sessions that another Atrium process writes (a terminal's `atrium session new … --prompt`
 * while `atrium serve` or the app shows it). That process's journal pushes its events only to its
 * own surfaces; here the session would stay the snapshot a tab opened. On every write by another
 * connection (the engine's `PRAGMA data_version` poll, see `store/externalWrites.ts`), the follower
 * re-reads the sessions this process's surfaces looked at whose stored `last_seq` moved, and pushes
 * what a local journal would have: `sessionUpdated` with the header and `sessionEvent` with the
 * transcript items that changed. It only reads; sessions hosted here are left to their journal.
 */
import type { Session, TranscriptItem } from '../../../shared/contract';
import type { EventBus } from '../events/bus';
import { isHostAlive, parseHost, type HostIdentity, type SessionHost } from './ownership';
import { fromRow, type SessionRecord, type SessionRow } from './records';
import { shownSummary } from './sessionQueries';
import type { SessionTables } from './tables';

/** At most this many sessions are followed; the ones noted longest ago are dropped first. */
export const MAX_FOLLOWED = 1000;
/** Items read per transcript page while catching up. */
const PAGE = 200;

interface Seen {
  /** The newest `last_seq` this process pushed or served for the session. */
  seq: number;
  /** The last transcript item pushed or served, or null while no surface has its transcript open (header only). */
  item: number | null;
  /** The host last pushed ({@link hostKey}; undefined: not read yet), so a host letting go is pushed even without a new event. */
  owner?: string | null;
  /** The foreign host named in the last header pushed, while it was alive (see {@link ExternalSessionFollower.checkHosts}). */
  host?: SessionHost | null;
}

/** Re-reads and pushes sessions another process changed; see the module comment. */
export class ExternalSessionFollower {
  private readonly seen = new Map<string, Seen>();
  private readonly selectSeqs;
  private readonly selectRow;

  /**
   * @param hostedHere true for a session whose agent runs in this process (its journal pushes it)
   */
  constructor(
    private readonly tables: SessionTables,
    private readonly bus: EventBus,
    private readonly me: HostIdentity | null,
    private readonly hostedHere: (sessionId: string) => boolean,
  ) {
    this.selectSeqs = tables.db.prepare('SELECT id, last_seq, owner_json FROM sessions WHERE id IN (SELECT value FROM json_each(?))');
    this.selectRow = tables.db.prepare('SELECT * FROM sessions WHERE id = ?');
  }

  /**
   * Notes that a surface was shown `record` (a list row: `withItems` false; the session's view or
   * transcript: true). A session already followed keeps its baseline (a list read in between must not
   * hide changes from an open transcript); one newly followed starts from `record`.
   */
  note(record: Pick<SessionRecord, 'id' | 'lastSeq' | 'lastItem'>, withItems: boolean): void {
    const known = this.seen.get(record.id);
    if (known) {
      if (withItems && known.item === null) known.item = record.lastItem;
      return;
    }
    this.seen.set(record.id, { seq: record.lastSeq, item: withItems ? record.lastItem : null });
    if (this.seen.size > MAX_FOLLOWED) {
      const oldest = this.seen.keys().next().value;
      if (oldest !== undefined) this.seen.delete(oldest);
    }
  }

  /** How many sessions are followed. */
  get size(): number {
    return this.seen.size;
  }

  /**
   * Another connection committed: pushes every followed session (not hosted here) whose stored
   * `last_seq` or host (`owner_json`) differs from what was pushed: its header, and, when its transcript is open, the items
   * from the last one pushed (it may have grown) to the newest. One indexed read when none changed.
   * @returns the ids pushed
   */
  poll(): string[] {
    if (this.seen.size === 0) return [];
    const rows = this.selectSeqs.all(JSON.stringify([...this.seen.keys()])) as Array<{ id: string; last_seq: number; owner_json: string | null }>;
    const present = new Set<string>();
    const pushed: string[] = [];
    for (const { id, last_seq: seq, owner_json: ownerJson } of rows) {
      present.add(id);
      const owner = hostKey(ownerJson);
      const seen = this.seen.get(id);
      if (!seen) continue;
      if (seen.owner === undefined) seen.owner = owner; // first look: the surface was shown this host already
      if (seq === seen.seq && owner === seen.owner) continue;
      const row = this.selectRow.get(id) as (SessionRow & { owner_json: string | null }) | undefined;
      if (!row) continue;
      const record = fromRow(row);
      if (this.hostedHere(id)) {
        // this process's journal already pushed it: only move the baseline
        seen.seq = record.lastSeq;
        seen.owner = hostKey(row.owner_json);
        if (seen.item !== null) seen.item = record.lastItem;
        continue;
      }
      if (seen.item !== null && record.lastSeq !== seen.seq) {
        const items = this.itemsFrom(id, seen.item);
        if (items.length) {
          this.bus.emit('sessionEvent', { sessionId: id, lastSeq: record.lastSeq, items });
          seen.item = Math.max(seen.item, items[items.length - 1].id);
        }
      }
      const session: Session = shownSummary(record, row.owner_json, this.me);
      this.bus.emit('sessionUpdated', { session });
      seen.seq = record.lastSeq;
      seen.owner = hostKey(row.owner_json);
      seen.host = session.hostedElsewhere ? parseHost(row.owner_json) : null;
      pushed.push(id);
    }
    for (const id of [...this.seen.keys()]) if (!present.has(id)) this.seen.delete(id); // deleted sessions
    return pushed;
  }

  /**
   * A host that dies without a word (kill -9, a crash) writes nothing, so {@link poll} never runs for
   * it: on a timer (the engine's lease timer), re-checks the hosts named in pushed headers and
   * pushes the header again once one is gone (the session then reads as interrupted, no host).
   * No database access unless a host died.
   * @returns the ids pushed
   */
  checkHosts(): string[] {
    const pushed: string[] = [];
    for (const [id, seen] of this.seen) {
      if (!seen.host || isHostAlive(seen.host)) continue;
      seen.host = null;
      if (this.hostedHere(id)) continue;
      const row = this.selectRow.get(id) as (SessionRow & { owner_json: string | null }) | undefined;
      if (!row) continue;
      this.bus.emit('sessionUpdated', { session: shownSummary(fromRow(row), row.owner_json, this.me) });
      pushed.push(id);
    }
    return pushed;
  }

  /** Items with id ≥ `from` (the last pushed one again, it may have grown), chunk rows applied. */
  private itemsFrom(sessionId: string, from: number): TranscriptItem[] {
    const out: TranscriptItem[] = [];
    let after = Math.max(0, from - 1);
    for (;;) {
      const page = this.tables.page(sessionId, PAGE, undefined, after);
      out.push(...page);
      if (page.length < PAGE) return out;
      after = page[page.length - 1].id;
    }
  }
}

/** Which process hosts, without its lease (renewed every few seconds, which is no change to show). */
function hostKey(ownerJson: string | null): string | null {
  const host = parseHost(ownerJson);
  return host ? `${host.hostname}|${host.pid}|${host.instance ?? ''}|${host.kind}|${host.origin ?? ''}` : null;
}
