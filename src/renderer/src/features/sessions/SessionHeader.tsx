import type { ReactNode } from 'react';
import { RESUME_OUTCOME_WORDS, resumeOutcomeLabel } from '../../components/jargon';
import './sessionHeader.css';
import { ArrowLeft, Power, Stethoscope } from 'lucide-react';
import type { SessionDetails } from '../../../../shared/contract';
import { surfaceLabel } from './surface';
import { hostedReason } from './HostedElsewhere';
import { ModeSwitches } from './ModeSwitches';
import { SessionTitle } from './SessionTitle';
import { SessionStateBadge } from './StateBadge';
import { UsageMeter } from './UsageMeter';
import { SessionEndpointChip } from '../providers/SessionEndpointChip';

/**
 * The session's header: back, title (renamable), state, agent, usage, mode/config switches, Close
 * and Diagnostics. Where the header is narrow (a 1280-px window with the sidebar), the toolbar
 * buttons show only their icons (label kept for screen readers, tooltip on hover), so the title keeps
 * its room (sessionHeader.css).
 */
export function SessionHeader({
  session,
  backLabel,
  workspaceName,
  diagnosticsOpen,
  onBack,
  onClose,
  onDiagnostics,
  onMode,
  onConfig,
  onRename,
  actions,
}: {
  session: SessionDetails;
  backLabel: string;
  workspaceName: string | null;
  diagnosticsOpen: boolean;
  onBack(): void;
  onClose(): void;
  onDiagnostics(): void;
  onMode(modeId: string): void;
  onConfig(id: string, value: string | boolean): void;
  /** Sets the user's title; true when saved. */
  onRename(title: string): Promise<boolean>;
  /** More header buttons (workspace policy, hand over, archive). */
  actions?: ReactNode;
}) {
  const blocked = hostedReason(session);
  return (
    <header className="sess-header">
      <div className="sess-header-row">
        <button className="icon-button" onClick={onBack} aria-label={`Back to ${backLabel}`} title={`Back to ${backLabel}`}>
          <ArrowLeft size={15} />
        </button>
        <SessionTitle session={session} onRename={onRename} />
        <SessionStateBadge session={session} />
        <span className="sess-header-meta muted">
          {session.agentId}
          {session.agentVersion ? `@${session.agentVersion}` : ''}
          {workspaceName ? ` · ${workspaceName}` : ''}
          {/* how other tabs, windows and terminals name this one ("Waiting for an answer on …") */}
          {' · '}
          <span className="sess-surface-label-here" data-testid="surface-here" title="How other tabs, windows and terminals attached to this session name this one">
            {surfaceLabel}
          </span>
          {session.resume && (
            <span className={`sess-resume-chip sess-resume-${session.resume.outcome}`} title={[RESUME_OUTCOME_WORDS[session.resume.outcome], session.resume.message].filter(Boolean).join('\n') || undefined}>
              {' '}
              · last resume: {resumeOutcomeLabel(session.resume.outcome)}
            </span>
          )}
        </span>
        <SessionEndpointChip sessionId={session.id} />
        <span className="spacer" />
        <UsageMeter usage={session.usage} />
        {actions}
        <button className={`button${diagnosticsOpen ? ' active' : ''}`} onClick={onDiagnostics} aria-pressed={diagnosticsOpen} title="Process, command, exit status and stderr">
          <Stethoscope size={13} aria-hidden /> <span className="sess-btn-label">Diagnostics</span>
        </button>
        {session.state !== 'closed' && (
          <button className="button" onClick={onClose} disabled={blocked !== null} title={blocked ?? 'Close the session (stops the agent process if it runs); it stays resumable'}>
            <Power size={13} aria-hidden /> <span className="sess-btn-label">Close</span>
          </button>
        )}
      </div>
      <ModeSwitches session={session} onMode={onMode} onConfig={onConfig} />
    </header>
  );
}
