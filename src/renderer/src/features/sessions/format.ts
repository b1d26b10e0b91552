import type { Session, SessionState, StopReason, ToolCallStatus, ToolKind } from '../../../../shared/contract';

/** How a session state reads in a badge, and its badge style. */
export const STATE_LABEL: Record<SessionState, { label: string; className: string; hint: string }> = {
  starting: { label: 'starting', className: 'sess-state-starting', hint: 'Starting the agent and attaching to its session' },
  idle: { label: 'idle', className: 'sess-state-idle', hint: 'Ready for a prompt' },
  busy: { label: 'working', className: 'sess-state-busy', hint: 'A turn is running' },
  awaiting_permission: { label: 'needs you', className: 'sess-state-attention', hint: 'The agent waits for your permission answer' },
  interrupted: { label: 'interrupted', className: 'sess-state-interrupted', hint: 'Cut off when Atrium stopped; resume to continue' },
  failed: { label: 'failed', className: 'sess-state-failed', hint: 'The agent crashed or could not start; see Diagnostics, then resume' },
  paused: { label: 'paused', className: 'sess-state-paused', hint: 'Its rules changed since it started: continue with the current rules, or start a new session' },
  closed: { label: 'closed', className: 'sess-state-closed', hint: 'Closed; resume to continue' },
};

/** States in which Resume makes sense (also an idle session without a running agent). */
export function canResume(s: Pick<Session, 'state' | 'live'>): boolean {
  return s.state === 'closed' || s.state === 'interrupted' || s.state === 'failed' || s.state === 'paused' || (s.state === 'idle' && !s.live);
}

/** True while a turn runs (Stop applies). */
export function isTurnRunning(s: Pick<Session, 'state'>): boolean {
  return s.state === 'busy' || s.state === 'awaiting_permission';
}

/** "just now", "5 min ago", "3 h ago", "2 d ago", else a date. */
export function relativeTime(iso: string, now = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 45) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 24) return `${h} h ago`;
  const d = Math.round(h / 24);
  if (d < 7) return `${d} d ago`;
  return new Date(t).toLocaleDateString();
}

/** 1234 → "1.2k", 200000 → "200k". */
export function compactNumber(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0).replace(/\.0$/, '')}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}

export const TOOL_KIND_LABEL: Record<ToolKind, string> = {
  read: 'read',
  edit: 'edit',
  delete: 'delete',
  move: 'move',
  search: 'search',
  execute: 'run',
  think: 'think',
  fetch: 'fetch',
  switch_mode: 'mode',
  other: 'tool',
};

export const TOOL_STATUS_LABEL: Record<ToolCallStatus, string> = {
  pending: 'pending',
  in_progress: 'running',
  completed: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
};

export const STOP_LABEL: Record<StopReason, string> = {
  end_turn: 'Turn ended',
  max_tokens: 'Stopped: the agent hit its token limit',
  max_turn_requests: 'Stopped: the agent hit its request limit for one turn',
  refusal: 'The agent refused to continue',
  cancelled: 'Stopped by you',
  error: 'The turn failed',
  crashed: 'The agent crashed during the turn',
};

/** "2 prompts" etc. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
