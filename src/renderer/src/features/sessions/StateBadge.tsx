import { Hand } from 'lucide-react';
import type { Session } from '../../../../shared/contract';
import { sessionStateText } from '../../../../shared/sessionStateText';
import { STATE_LABEL } from './format';

/** The words a session's state badge shows ("needs you", "paused: rules changed", "idle"…). */
export function sessionStateLabel(session: Pick<Session, 'state' | 'pendingPermissions' | 'live' | 'pausedReason'>): string {
  if (session.pendingPermissions > 0) return STATE_LABEL.awaiting_permission.label;
  return session.state === 'paused' ? sessionStateText(session) : STATE_LABEL[session.state].label;
}

/** A session's state as a small badge; a waiting permission request shows as "needs you", a paused session names its reason ("paused: rules changed"). */
export function SessionStateBadge({ session }: { session: Pick<Session, 'state' | 'pendingPermissions' | 'live' | 'pausedReason'> }) {
  const needsYou = session.pendingPermissions > 0;
  const s = needsYou ? STATE_LABEL.awaiting_permission : STATE_LABEL[session.state];
  return (
    <span className={`badge sess-state ${s.className}`} data-session-state={session.state} title={s.hint}>
      {needsYou && <Hand size={11} aria-hidden />}
      {!needsYou && session.state === 'paused' ? sessionStateText(session) : s.label}
    </span>
  );
}

/** The "needs you" count next to a sessions entry (hidden when zero). */
export function NeedsYouBadge({ count, testId }: { count: number; testId?: string }) {
  if (count === 0) return null;
  return (
    <span className="badge sess-state-attention sess-needs-you" data-testid={testId} title={`${count} session${count === 1 ? '' : 's'} waiting for your permission answer`}>
      {count} needs you
    </span>
  );
}
