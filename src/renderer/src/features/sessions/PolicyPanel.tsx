import { RefreshCw, X } from 'lucide-react';
import { OpenInEditor } from '../../components/OpenInEditor';
import type { PolicyRuleRef, SessionPolicy } from '../../../../shared/contract';
import { useApp } from '../../state/appStore';
import { SessionEndpointSection } from '../providers/SessionEndpointChip';
import { PolicyHooks } from './PolicyHooks';
import { surfaceFor, surfaceKind } from './surface';

/**
 * The session's workspace policy: what its snapshot gave the agent (static rules and the
 * contextual rules it loaded since, each linking to the workspace's Rules tab), hooks that ran with
 * their results, MCP servers withheld and why, where it runs, and who is attached.
 */
export function PolicyPanel({ policy, error, workspaceId, onRefresh, onClose }: { policy: SessionPolicy | null; error: string | null; workspaceId: string | null; onRefresh(): void; onClose(): void }) {
  return (
    <aside className="sess-diag sess-policy" aria-label="Workspace policy">
      <header className="sess-diag-head">
        <strong>Workspace</strong>
        <span className="spacer" />
        <button className="icon-button" aria-label="Refresh workspace policy" title="Refresh" onClick={onRefresh}>
          <RefreshCw size={13} />
        </button>
        <button className="icon-button" aria-label="Close workspace policy" title="Close" onClick={onClose}>
          <X size={14} />
        </button>
      </header>
      {error && !policy && <p className="sess-diag-error">Could not read the policy: {error}</p>}
      {!policy && !error && <p className="muted">Loading…</p>}
      {policy && <PolicyBody policy={policy} workspaceId={workspaceId} />}
    </aside>
  );
}

function PolicyBody({ policy, workspaceId }: { policy: SessionPolicy; workspaceId: string | null }) {
  const { staticRules, snapshot, execution: ex } = policy;
  return (
    <>
      <section className="sess-policy-section" aria-label="Rules">
        <h3>
          Rules{' '}
          {snapshot && (
            <span className="muted">
              · snapshot {new Date(snapshot.takenAt).toLocaleString()} · {snapshot.trust}
            </span>
          )}
        </h3>
        {!staticRules ? (
          <p className="muted">No snapshot yet: it is taken when the agent first starts.</p>
        ) : (
          <>
            <RuleList label="Static" rules={staticRules.files} workspaceId={workspaceId} note={staticRules.delivery ? `sent as ${staticRules.delivery}${staticRules.sentAt ? '' : ', with the first prompt'}` : null} />
            {staticRules.native.length > 0 && <RuleList label="Loaded by the agent itself" rules={staticRules.native} workspaceId={workspaceId} note={null} />}
            {staticRules.dropped.map((d) => (
              <p key={d.relativePath} className="sess-policy-warn">
                Not sent: <code>{d.relativePath}</code> — {d.reason}
              </p>
            ))}
          </>
        )}
        <RuleList
          label="Contextual (loaded)"
          rules={policy.contextualRules}
          workspaceId={workspaceId}
          note={null}
          detail={(r) => {
            const c = policy.contextualRules.find((x) => x.id === r.id);
            return c ? `${c.trigger} ${c.triggerPaths.join(', ')}${c.blockedWrite ? ' · refused the first write' : ''}` : null;
          }}
        />
      </section>
      <PolicyHooks hooks={policy.hooks} isolated={policy.agent.isolated} hooksTab={workspaceId ? <HooksTabLink workspaceId={workspaceId} what="Review hooks on the Hooks tab" /> : null} />
      <section className="sess-policy-section" aria-label="MCP servers">
        <h3>MCP servers</h3>
        <p className="muted">{policy.mcp.passed.length ? `Passed: ${policy.mcp.passed.join(', ')}` : 'None passed to the agent.'}</p>
        {policy.mcp.withheld.length > 0 && (
          <ul className="sess-policy-list" aria-label="Withheld MCP servers">
            {policy.mcp.withheld.map((m) => (
              <li key={m.id} data-mcp-state={m.state}>
                <strong>{m.name}</strong> <span className="sess-policy-tag">{policy.agent.isolated ? 'withheld' : 'not passed by Atrium'}</span>
                <div className="muted">
                  {m.reason.charAt(0).toUpperCase() + m.reason.slice(1)}. A session keeps the servers it started with: after approving, start a new session.
                </div>
                {workspaceId && <HooksTabLink workspaceId={workspaceId} what={m.heldBack ? 'Review the folder on the Hooks tab' : `Review ${m.name} on the Hooks tab`} />}
              </li>
            ))}
          </ul>
        )}
        {policy.mcp.withheld.length > 0 && !policy.agent.isolated && (
          <p className="muted">Atrium did not pass these. This agent is not isolated: it may start MCP servers from the repository&apos;s own configuration by itself.</p>
        )}
      </section>
      <SessionEndpointSection sessionId={policy.sessionId} />
      <section className="sess-policy-section" aria-label="Execution">
        <h3>Runs in</h3>
        <dl className="facts compact sess-diag-facts">
          <dt>{ex.kind === 'worktree' ? 'Worktree' : 'Folder'}</dt>
          <dd>
            <code className="selectable">{ex.dir}</code> {!ex.removedAt && <OpenInEditor path={ex.dir} compact />}
            {ex.removedAt && <span className="muted"> (removed {new Date(ex.removedAt).toLocaleString()})</span>}
          </dd>
          {ex.kind === 'worktree' && (
            <>
              <dt>Project</dt>
              <dd>
                <code className="selectable">{ex.sourceDir}</code>
              </dd>
            </>
          )}
          <dt>Branch</dt>
          <dd>{ex.branch ? <code>{ex.branch}</code> : <span className="muted">none (not git, or detached)</span>}</dd>
          {ex.baseCommit && (
            <>
              <dt>From</dt>
              <dd>
                <code>{ex.baseCommit.slice(0, 12)}</code>
              </dd>
            </>
          )}
          <dt>Changes</dt>
          <dd data-dirty={ex.dirty === null ? 'unknown' : String(ex.dirty)}>{ex.dirty === null ? <span className="muted">unknown</span> : ex.dirty ? `${ex.changes.length} uncommitted` : 'clean'}</dd>
        </dl>
        {ex.dirty && ex.changes.length > 0 && <pre className="sess-policy-changes selectable">{ex.changes.join('\n')}</pre>}
      </section>
      <section className="sess-policy-section" aria-label="Attached surfaces">
        <h3>Attached</h3>
        {policy.surfaces.length === 0 ? (
          <p className="muted">Nothing is attached.</p>
        ) : (
          <ul className="sess-policy-list">
            {policy.surfaces.map((s) => (
              <li key={s.surfaceId} data-surface-kind={s.kind} data-surface-id={s.surfaceId} data-here={s.surfaceId === surfaceFor(policy.sessionId) || undefined}>
                <span className="sess-surface-label">{s.label}</span>
                {s.surfaceId === surfaceFor(policy.sessionId) && <span className="sess-surface-here"> (this {surfaceKind === 'app' ? 'window' : 'tab'})</span>}{' '}
                <span className="muted">
                  · {s.kind}
                  {s.via === 'pickup' ? ' · picked up' : ''} · since {new Date(s.attachedAt).toLocaleTimeString()}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

/** A link to the workspace's Hooks tab, where hooks and MCP servers are approved by digest. */
function HooksTabLink({ workspaceId, what }: { workspaceId: string; what: string }) {
  const select = useApp((s) => s.select);
  return (
    <button type="button" className="link-button sess-policy-link" onClick={() => select(workspaceId, 'hooks')}>
      {what}
    </button>
  );
}

function RuleList({ label, rules, workspaceId, note, detail }: { label: string; rules: PolicyRuleRef[]; workspaceId: string | null; note: string | null; detail?: (r: PolicyRuleRef) => string | null }) {
  const select = useApp((s) => s.select);
  return (
    <div className="sess-policy-rules">
      <div className="sess-policy-sub">
        {label} <span className="muted">({rules.length}{note ? `, ${note}` : ''})</span>
      </div>
      {rules.length > 0 && (
        <ul className="sess-policy-list">
          {rules.map((r) => {
            const why = detail?.(r);
            return (
              <li key={`${r.id}:${r.sha256}`}>
                {workspaceId ? (
                  <button type="button" className="link-button" title="Open the workspace's Rules tab" onClick={() => select(workspaceId, 'rules')}>
                    {r.relativePath}
                  </button>
                ) : (
                  <code>{r.relativePath}</code>
                )}{' '}
                <span className="muted">
                  {r.format}
                  {r.source !== 'project' ? ` · ${r.source}` : ''}
                </span>
                {why && <div className="muted sess-policy-why">{why}</div>}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
