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
