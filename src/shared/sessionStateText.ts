import type { PausedReason, Session } from './contract';

/** How each paused reason reads after "paused: " (CLI and UI use the same words). */
export const PAUSED_REASON_TEXT: Record<PausedReason, string> = {
  rules_changed: 'rules changed',
};

/**
 * A session's state in words: the state name, except `paused`, which names its reason
 * ("paused: rules changed"). Never throws: an unknown reason reads as plain "paused".
 */
export function sessionStateText(s: Pick<Session, 'state' | 'pausedReason'>): string {
  if (s.state !== 'paused') return s.state;
  const reason = s.pausedReason ? PAUSED_REASON_TEXT[s.pausedReason] : undefined;
  return reason ? `paused: ${reason}` : 'paused';
}
