import { Download, Loader2 } from 'lucide-react';
import type { AgentInstallProgress, AgentSummary } from '../../../../shared/contract';

const SOURCE_LABEL = { 'data-dir': 'installed by Atrium', path: 'found on PATH', command: 'your command' } as const;

/**
 * Agents as radio rows with their install state: installed ones can be picked, npm presets have an
 * Install button (progress from `agentInstallProgress`), unavailable ones say why; an agent Atrium does
 * not isolate is marked before it is installed or picked.
 */
export function AgentPicker({
  agents,
  value,
  onChange,
  progress,
  onInstall,
}: {
  agents: AgentSummary[];
  value: string | null;
  onChange(id: string): void;
  progress: Record<string, AgentInstallProgress>;
  onInstall(id: string): void;
}) {
  return (
    <fieldset className="sess-agents" aria-label="Agent">
      <legend className="sess-field-label">Agent</legend>
      {agents.map((a) => {
        const p = progress[a.id];
        const installed = a.install.state === 'installed';
        return (
          <div key={a.id} className={`sess-agent-row${value === a.id ? ' selected' : ''}${installed ? '' : ' not-installed'}`} data-agent-id={a.id}>
            <label className="sess-agent-pick">
              <input type="radio" name="agent" value={a.id} checked={value === a.id} disabled={!installed} onChange={() => onChange(a.id)} />
              <span className="sess-agent-name">{a.name}</span>
              <code className="sess-agent-id">
                {a.id}
                {a.version ? `@${a.version}` : ''}
              </code>
              <span className="sess-agent-desc muted" title={a.description}>
                {a.description}
              </span>
            </label>
            <span className="sess-agent-state">
              {!a.isolated && (
                <span className="badge badge-warn" title="Atrium cannot keep this agent from loading the repository's own hooks and MCP servers; select it to see what it loads by itself">
                  approvals not enforced
                </span>
              )}
              {installed && <span className="badge badge-ok">{a.install.source ? SOURCE_LABEL[a.install.source] : 'installed'}</span>}
              {a.install.state === 'available' && (
                <button type="button" className="button" onClick={() => onInstall(a.id)} aria-label={`Install ${a.name}`}>
                  <Download size={13} /> Install
                </button>
              )}
              {a.install.state === 'installing' && (
                <span className="sess-install-progress" role="status" aria-label={`Installing ${a.name}`}>
                  <Loader2 size={13} className="spin" aria-hidden /> Installing{p ? ` · ${p.fetched} package${p.fetched === 1 ? '' : 's'} · ${Math.round(p.elapsedMs / 1000)} s` : '…'}
                </span>
              )}
              {a.install.state === 'unavailable' && <span className="badge badge-error">unavailable</span>}
            </span>
            {a.install.state === 'installing' && p?.message && <p className="sess-install-line muted">{p.message}</p>}
            {a.install.error && a.install.state !== 'installing' && (
              <p className="field-error sess-install-line">
                {a.install.error}
                {a.install.state === 'available' ? ' Press Install to try again, or check your network and npm settings.' : ''}
              </p>
            )}
          </div>
        );
      })}
    </fieldset>
  );
}
