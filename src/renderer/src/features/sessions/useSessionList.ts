import { useCallback, useEffect, useRef, useState } from 'react';
import type { Session } from '../../../../shared/contract';
import { useApp } from '../../state/appStore';

/** Live list of sessions: loaded once, then kept current from `sessionUpdated` events. */
export interface SessionList {
  sessions: Session[] | null;
  error: string | null;
  reload(): void;
}

const byActivity = (a: Session, b: Session) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0);

/**
 * The sessions of one workspace (or all, most recently active first), updated in place from
 * `sessionUpdated` (upsert by id) and reloaded after a reconnect. The list survives restarts
 * because it is read from Atrium's database.
 */
export function useSessionList(workspaceId: string | null | undefined): SessionList {
  const client = useApp((s) => s.client);
  const connection = useApp((s) => s.connection);
  const [sessions, setSessions] = useState<Session[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const seq = useRef(0);

  const reload = useCallback(() => {
    if (!client || connection !== 'open') return;
    const mine = ++seq.current;
    client
      .request('sessions.list', workspaceId ? { workspaceId } : {})
      .then((r) => {
        if (mine !== seq.current) return;
        setSessions(r.sessions);
        setError(null);
      })
      .catch((e: Error) => mine === seq.current && setError(e.message));
  }, [client, connection, workspaceId]);

  useEffect(() => reload(), [reload]);

  useEffect(() => {
    if (!client) return;
    return client.on('sessionUpdated', ({ session }) => {
      if (workspaceId && session.workspaceId !== workspaceId) return;
      setSessions((list) => {
        if (!list) return list;
        const rest = list.filter((s) => s.id !== session.id);
        return [session, ...rest].sort(byActivity);
      });
    });
  }, [client, workspaceId]);

  return { sessions, error, reload };
}

/** Number of sessions waiting for a permission answer (for "needs you" badges). */
export function needsYouCount(sessions: Session[] | null): number {
  return sessions ? sessions.filter((s) => s.pendingPermissions > 0).length : 0;
}
