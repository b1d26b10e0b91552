import type { ReactNode } from 'react';
import { ArrowLeft, Power, Stethoscope } from 'lucide-react';
import type { SessionDetails } from '../../../../shared/contract';
import { sessionTitle } from './format';
import { ModeSwitches } from './ModeSwitches';
import { SessionStateBadge } from './StateBadge';
import { UsageMeter } from './UsageMeter';

/** The session's header: back, title, state, agent, usage, mode/config switches, Close and Diagnostics. */
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
  /** More header buttons (workspace policy, hand over, archive). */
  actions?: ReactNode;
}) {
  return (
    <header className="sess-header">
      <div className="sess-header-row">
        <button className="icon-button" onClick={onBack} aria-label={`Back to ${backLabel}`} title={`Back to ${backLabel}`}>
          <ArrowLeft size={15} />
        </button>
        <h1 id="session-title" className="sess-title" title={session.cwd}>
          {sessionTitle(session)}
        </h1>
        <SessionStateBadge session={session} />
        <span className="sess-header-meta muted">
          {session.agentId}
          {session.agentVersion ? `@${session.agentVersion}` : ''}
          {workspaceName ? ` · ${workspaceName}` : ''}
          {session.resume && (
            <span className={`sess-resume-chip sess-resume-${session.resume.outcome}`} title={session.resume.message ?? undefined}>
              {' '}
              · last resume: {session.resume.outcome}
            </span>
          )}
        </span>
        <span className="spacer" />
        <UsageMeter usage={session.usage} />
        {actions}
        <button className={`button${diagnosticsOpen ? ' active' : ''}`} onClick={onDiagnostics} aria-pressed={diagnosticsOpen} title="Process, command, exit status and stderr">
          <Stethoscope size={13} /> Diagnostics
        </button>
        {session.state !== 'closed' && (
          <button className="button" onClick={onClose} title="Close the session (stops the agent process if it runs); it stays resumable">
            <Power size={13} /> Close
          </button>
        )}
      </div>
      <ModeSwitches session={session} onMode={onMode} onConfig={onConfig} />
    </header>
  );
}
