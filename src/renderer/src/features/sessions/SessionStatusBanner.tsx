import { Loader2, Play, Stethoscope } from 'lucide-react';
import type { SessionDetails } from '../../../../shared/contract';

/**
 * Says what the session's state means and what to do next (Resume, Diagnostics), for every
 * non-running state. Nothing while a rule mismatch is pending (`ruleMismatch`): the session is
 * paused (it failed closed) and a resume fails again until the user picks one of RuleMismatch's
 * two ways on, so a Resume button there would only mislead.
 */
export function SessionStatusBanner({
  session,
  resuming,
  ruleMismatch,
  onResume,
  onDiagnostics,
}: {
  session: SessionDetails;
  resuming: boolean;
  ruleMismatch: boolean;
  onResume(): void;
  onDiagnostics(): void;
}) {
  if (ruleMismatch) return null;
  const resumeButton = (
    <button className="button primary" onClick={onResume} disabled={resuming}>
      {resuming ? <Loader2 size={13} className="spin" /> : <Play size={13} />} {resuming ? 'Resuming…' : 'Resume'}
    </button>
  );
  const diagButton = (
    <button className="button" onClick={onDiagnostics}>
      <Stethoscope size={13} /> Diagnostics
    </button>
  );
  if (session.state === 'starting')
    return (
      <div className="sess-banner sess-banner-info" role="status">
        <Loader2 size={14} className="spin" aria-hidden />
        <span>Starting the agent and attaching to its session…</span>
      </div>
    );
  if (session.state === 'failed')
    return (
      <div className="sess-banner sess-banner-error" role="alert">
        <span>
          <strong>The agent stopped.</strong> {session.lastError ?? 'It crashed or could not start.'} Open Diagnostics for its stderr, fix the cause (log in, set
          an API key, install it), then Resume.
        </span>
        {diagButton}
        {resumeButton}
      </div>
    );
  if (session.state === 'paused')
    // shown only while no rule mismatch card (with the two ways on) is there; Resume checks the rules again
    return (
      <div className="sess-banner sess-banner-warn" role="status">
        <span>
          <strong>Paused: rules changed.</strong> The rules this session was given changed since it started, so it takes no prompts until you choose: continue with the current
          rules, or start a new session with them. Resume checks the rules again.
        </span>
        {resumeButton}
      </div>
    );
  if (session.state === 'interrupted')
    return (
      <div className="sess-banner sess-banner-warn" role="status">
        <span>
          <strong>Interrupted</strong> when Atrium stopped. The transcript is kept; Resume reattaches to the agent (the outcome is noted in the transcript).
        </span>
        {resumeButton}
      </div>
    );
  if (session.state === 'closed')
    return (
      <div className="sess-banner sess-banner-muted" role="status">
        <span>
          <strong>Closed.</strong> Resume to continue where you left off, or send a prompt (that resumes too).
        </span>
        {resumeButton}
      </div>
    );
  if (session.state === 'idle' && !session.live)
    return (
      <div className="sess-banner sess-banner-muted" role="status">
        <span>The agent is not running (stopped when idle, or Atrium restarted). Sending a prompt starts it again; Resume reattaches now.</span>
        {resumeButton}
      </div>
    );
  return null;
}
