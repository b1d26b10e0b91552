import { RefreshCw, X } from 'lucide-react';
import type { SessionDetails } from '../../../../shared/contract';

/** What ran and how it ended: pid, command line, exit status, last error, capabilities, and the agent's stderr tail. */
export function DiagnosticsPanel({ session, onRefresh, onClose }: { session: SessionDetails; onRefresh(): void; onClose(): void }) {
  const d = session.diagnostics;
  const caps = session.capabilities;
  const supported = caps ? (['loadSession', 'resume', 'list', 'close', 'additionalDirectories', 'image', 'audio', 'embeddedContext'] as const).filter((k) => caps[k]) : [];
  // every fact says the same thing about whether a process ran: one that left an exit, stderr or an error did
  const ran = Boolean(d.command || d.pid !== null || session.exit || d.stderrTail);
  const paused = session.state === 'paused';
  return (
    <aside className="sess-diag" aria-label="Diagnostics">
      <header className="sess-diag-head">
        <strong>Diagnostics</strong>
        <span className="spacer" />
        <button className="icon-button" aria-label="Refresh diagnostics" title="Refresh" onClick={onRefresh}>
          <RefreshCw size={13} />
        </button>
        <button className="icon-button" aria-label="Close diagnostics" title="Close" onClick={onClose}>
          <X size={14} />
        </button>
      </header>
      <dl className="facts compact sess-diag-facts">
        <dt>Process</dt>
        <dd>{d.pid !== null ? <>running, pid <code>{d.pid}</code></> : 'not running'}</dd>
        <dt>Command</dt>
        <dd>{d.command ? <code className="selectable sess-cmd">{[d.command, ...d.args].join(' ')}</code> : <span className="muted">{session.state === 'starting' ? 'starting…' : ran ? 'not recorded' : session.lastError ? 'none ran (see the last error)' : 'none has run yet'}</span>}</dd>
        <dt>Exit</dt>
        <dd>
          {session.exit ? (
            <>
              {session.exit.signal ? `signal ${session.exit.signal}` : `exit code ${session.exit.code}`} <span className="muted">at {new Date(session.exit.at).toLocaleString()}</span>
            </>
          ) : (
            <span className="muted">no unexpected exit</span>
          )}
        </dd>
        {session.lastError && !paused && (
          <>
            <dt>Last error</dt>
            <dd className="sess-diag-error">{session.lastError}</dd>
          </>
        )}
        <dt>Agent</dt>
        <dd>
          {session.agentId}
          {session.agentVersion ? `@${session.agentVersion}` : ''}
          {caps?.agentName && (
            <span className="muted">
              {' '}
              · reports {caps.agentTitle ?? caps.agentName} {caps.agentVersion ?? ''}
            </span>
          )}
        </dd>
        <dt>Agent session</dt>
        <dd>{session.agentSessionId ? <code className="selectable">{session.agentSessionId}</code> : <span className="muted">{ran && session.state !== 'starting' && session.state !== 'busy' ? 'none (the agent never attached)' : 'none yet'}</span>}</dd>
        <dt>Supports</dt>
        <dd>{caps ? supported.join(', ') || 'prompts only' : <span className="muted">{ran && session.state !== 'starting' ? 'unknown (it never finished starting)' : 'unknown until it starts'}</span>}</dd>
        <dt>Folder</dt>
        <dd>
          <code className="selectable">{session.cwd}</code>
        </dd>
        <dt>Events</dt>
        <dd>
          {session.eventCount.toLocaleString()} stored · {session.itemCount.toLocaleString()} transcript items
        </dd>
      </dl>
      <div className="sess-diag-stderr-head">
        stderr <span className="muted">(last 64 KiB{d.pid === null ? ', from the last process' : ''})</span>
      </div>
      <pre className="sess-diag-stderr selectable" aria-label="stderr tail">
        {d.stderrTail || '(empty)'}
      </pre>
      {caps?.authMethods.length ? (
        <p className="hint">
          If the agent says it is not logged in, log in with its own CLI ({caps.authMethods.map((m) => m.name).join(', ')}) or set its API key in your environment, then Resume.
        </p>
      ) : null}
    </aside>
  );
}
