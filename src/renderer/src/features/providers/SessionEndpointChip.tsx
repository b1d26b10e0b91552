import { useLive } from '../../api/useLive';
import './providers.css';

/**
 * The provider, endpoint and model a session started with (its snapshot), for the session header.
 * Nothing for a session without a record (created before providers existed) or with no provider
 * and no repository endpoint (the inherited environment: today's behaviour).
 */
export function SessionEndpointChip({ sessionId }: { sessionId: string }) {
  const live = useLive('providers.sessionEndpoint', { sessionId });
  const e = live.data?.endpoint;
  if (!e || (e.source === 'inherited' && !e.model)) return null;
  const label = e.source === 'repository' ? `repository endpoint ${e.endpoint ?? ''}` : e.source === 'provider' ? `${e.providerName} · ${e.endpoint ?? ''}` : 'inherited environment';
  return (
    <span
      className={`prov-session-chip${e.source === 'repository' ? ' repository' : ''}`}
      data-testid="session-endpoint"
      title={`Recorded when the session started; later changes to the workspace or provider do not change it.${e.repository ? ` Repository definition ${e.repository.path} (${e.repository.applied ? 'applied' : 'withheld'}).` : ''}`}
    >
      {label}
      {e.model ? ` · ${e.model}` : ''}
    </span>
  );
}

/**
 * The Workspace panel's "Model endpoint" section: which provider, endpoint and model the session
 * talks to (recorded at its start), and the repository endpoint definition applied or withheld.
 */
export function SessionEndpointSection({ sessionId }: { sessionId: string }) {
  const live = useLive('providers.sessionEndpoint', { sessionId });
  const e = live.data?.endpoint;
  if (live.data === null) return null;
  return (
    <section className="sess-policy-section" aria-label="Model endpoint">
      <h3>Model endpoint</h3>
      {!e ? (
        <p className="muted">Not recorded: this session started before Atrium managed providers; its agent uses the environment Atrium was started with.</p>
      ) : (
        <dl className="facts compact sess-diag-facts" data-testid="session-endpoint-facts">
          <dt>Provider</dt>
          <dd>{e.providerName ? `${e.providerName} (${e.kind})` : e.source === 'repository' ? "the repository's endpoint (approved)" : 'none: the environment Atrium was started with'}</dd>
          <dt>Endpoint</dt>
          <dd>{e.endpoint ? <code className="selectable">{e.endpoint}</code> : <span className="muted">the agent&apos;s own default or your environment</span>}</dd>
          <dt>Model</dt>
          <dd>{e.model ?? <span className="muted">the agent&apos;s default</span>}</dd>
          {e.repository && (
            <>
              <dt>Repository</dt>
              <dd>
                {e.repository.path}: {e.repository.applied ? 'applied (approved)' : 'withheld (not approved or not trusted)'} <code>{e.repository.digest.slice(0, 12)}…</code>
              </dd>
            </>
          )}
        </dl>
      )}
      <p className="muted">Recorded when the session started; changing the workspace&apos;s choice or the provider later does not change it. A rotated key is used from the next agent start.</p>
    </section>
  );
}
