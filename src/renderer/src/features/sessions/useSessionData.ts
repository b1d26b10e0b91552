import { useCallback, useEffect, useRef, useState } from 'react';
import type { PermissionItem, Session, SessionDetails, TranscriptItem } from '../../../../shared/contract';
import { useApp } from '../../state/appStore';
import { applySessionEvent, mergeSnapshot, upsertItems } from './transcriptItems';

/** Transcript items loaded per page. */
export const PAGE_SIZE = 150;

/** Everything the session view shows, kept live. */
export interface SessionData {
  details: SessionDetails | null;
  /** Loaded transcript items, ascending by id (the newest page first, older pages on demand). */
  items: TranscriptItem[];
  hasBefore: boolean;
  loadingOlder: boolean;
  /** Pending permission requests, oldest first. */
  pending: PermissionItem[];
  /** Why loading failed (e.g. no such session). */
  error: string | null;
  loadOlder(): void;
  /**
   * Pages in older items until the item with id `itemId` is loaded (a search match, an address);
   * resolves when it is (or when nothing older is left).
   */
  loadThrough(itemId: number): Promise<void>;
  /** Re-reads the header and diagnostics (`sessions.show`). */
  refreshDetails(): void;
}

/**
 * One session's live data: `sessions.show` plus the last page of `sessions.transcript`, then
 * `sessionEvent` deltas (upsert by item id; appended text at its offset, an item whose offset does
 * not match is re-read) and `sessionUpdated` headers. Older items are paged in
 * with `before`. The WebSocket delivers events and responses in order, so a snapshot wins over the
 * events that arrived before it; everything is reloaded after a reconnect.
 */
export function useSessionData(sessionId: string): SessionData {
  const client = useApp((s) => s.client);
  const connection = useApp((s) => s.connection);
  const [details, setDetails] = useState<SessionDetails | null>(null);
  const [items, setItems] = useState<TranscriptItem[]>([]);
  const [hasBefore, setHasBefore] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [pending, setPending] = useState<Map<string, PermissionItem>>(new Map());
  const [error, setError] = useState<string | null>(null);
  const firstId = useRef<number | null>(null);
  const hasBeforeRef = useRef(false);
  const olderBusy = useRef(false);
  const generation = useRef(0);
  const lastHeader = useRef<Pick<Session, 'state' | 'live'> | null>(null);
  /** Items being re-read after a missed append (one request per item at a time). */
  const refetching = useRef(new Set<number>());

  const refreshDetails = useCallback(() => {
    if (!client) return;
    const gen = generation.current;
    client
      .request('sessions.show', { sessionId })
      .then(({ session }) => {
        if (gen !== generation.current) return;
        setDetails(session);
        lastHeader.current = { state: session.state, live: session.live };
        setPending(new Map(session.permissions.map((p) => [p.requestId, p])));
        setError(null);
      })
      .catch((e: Error) => gen === generation.current && setError(e.message));
  }, [client, sessionId]);

  // initial load and reload after a reconnect
  useEffect(() => {
    if (!client || connection !== 'open') return;
    const gen = ++generation.current;
    olderBusy.current = false;
    setLoadingOlder(false);
    refreshDetails();
    client
      .request('sessions.transcript', { sessionId, limit: PAGE_SIZE })
      .then((page) => {
        if (gen !== generation.current) return;
        const first = page.items[0]?.id ?? null;
        firstId.current = first;
        hasBeforeRef.current = page.hasBefore;
        setHasBefore(page.hasBefore);
        setItems((current) => mergeSnapshot(current, page.items, page.hasBefore ? first : null));
      })
      .catch((e: Error) => gen === generation.current && setError(e.message));
  }, [client, connection, sessionId, refreshDetails]);

  // live deltas
  useEffect(() => {
    if (!client) return;
    const offItems = client.on('sessionEvent', (p) => {
      if (p.sessionId !== sessionId) return;
      const floor = hasBeforeRef.current ? firstId.current : null;
      setItems((current) => {
        const { items: next, refetch } = applySessionEvent(current, p, floor);
        // a missed append (subscribed mid-stream, snapshot raced): re-read the item, never show a guess
        for (const id of refetch) {
          if (refetching.current.has(id)) continue;
          refetching.current.add(id);
          const gen = generation.current;
          client
            .request('sessions.transcript', { sessionId, after: id - 1, limit: 1 })
            .then((page) => {
              if (gen !== generation.current) return;
              const fresh = page.items.filter((i) => i.id === id);
              if (fresh.length) setItems((latest) => upsertItems(latest, fresh));
            })
            .catch(() => undefined)
            .finally(() => refetching.current.delete(id));
        }
        return next;
      });
      const perms = p.items.filter((i): i is PermissionItem => i.kind === 'permission');
      if (perms.length) {
        setPending((current) => {
          const next = new Map(current);
          for (const perm of perms) {
            if (perm.state === 'pending') next.set(perm.requestId, perm);
            else next.delete(perm.requestId);
          }
          return next;
        });
      }
    });
    // a request (or its re-target to another surface) may arrive before the batched transcript delta; the newer item wins
    const offAsked = client.on('permissionRequested', (p) => {
      if (p.sessionId !== sessionId || p.permission.state !== 'pending') return;
      setPending((current) => {
        const known = current.get(p.permission.requestId);
        return known && known.updatedAt > p.permission.updatedAt ? current : new Map(current).set(p.permission.requestId, p.permission);
      });
    });
    const offHeader = client.on('sessionUpdated', ({ session }) => {
      if (session.id !== sessionId) return;
      setDetails((d) => (d ? { ...d, ...session } : d));
      const before = lastHeader.current;
      lastHeader.current = { state: session.state, live: session.live };
      // diagnostics (pid, command, stderr) change with the process: re-read them
      if (!before || before.state !== session.state || before.live !== session.live) refreshDetails();
    });
    return () => {
      offItems();
      offAsked();
      offHeader();
    };
  }, [client, sessionId, refreshDetails]);

  /** Older pages load one at a time (scrolling and loadThrough share this chain). */
  const olderChain = useRef<Promise<void>>(Promise.resolve());
  const loadPage = useCallback(
    (limit: number): Promise<void> => {
      if (!client) return Promise.resolve();
      const gen = generation.current;
      const run = async () => {
        if (gen !== generation.current || !hasBeforeRef.current || firstId.current === null) return;
        olderBusy.current = true;
        setLoadingOlder(true);
        try {
          const page = await client.request('sessions.transcript', { sessionId, before: firstId.current, limit });
          if (gen !== generation.current) return;
          if (page.items.length) firstId.current = page.items[0].id;
          hasBeforeRef.current = page.hasBefore;
          setHasBefore(page.hasBefore);
          setItems((current) => mergeSnapshot(current, page.items, null));
        } catch (e) {
          if (gen === generation.current) setError((e as Error).message);
        } finally {
          if (gen === generation.current) {
            olderBusy.current = false;
            setLoadingOlder(false);
          }
        }
      };
      const next = olderChain.current.then(run);
      olderChain.current = next;
      return next;
    },
    [client, sessionId],
  );

  const loadOlder = useCallback(() => {
    if (olderBusy.current || !hasBeforeRef.current || firstId.current === null) return;
    void loadPage(PAGE_SIZE);
  }, [loadPage]);

  const loadThrough = useCallback(
    async (itemId: number) => {
      await olderChain.current;
      // one request per 1,000 items (the contract's page limit), with a margin of context above the item
      for (let guard = 0; guard < 10_000 && hasBeforeRef.current && firstId.current !== null && firstId.current > itemId; guard++) {
        const before = firstId.current;
        await loadPage(Math.min(1000, before - itemId + 20));
        if (firstId.current === before) return;
      }
    },
    [loadPage],
  );

  return { details, items, hasBefore, loadingOlder, pending: [...pending.values()].sort((a, b) => a.id - b.id), error, loadOlder, loadThrough, refreshDetails };
}
