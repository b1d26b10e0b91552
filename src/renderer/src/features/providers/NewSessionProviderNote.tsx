import { useLive } from '../../api/useLive';
import './providers.css';

/**
 * In the New session dialog: which provider, endpoint and model the workspace's Agent settings give
 * the chosen agent (what the session will record), or that it uses the environment Atrium was
 * started with, and whether the repository's own endpoint is withheld.
 */
export function NewSessionProviderNote({ workspaceId, agentId }: { workspaceId: string; agentId: string | null }) {
  const live = useLive('providers.agentSettings', workspaceId && agentId ? { workspaceId } : null, ['providersChanged']);
  if (!agentId || !live.data) return null;
  const setting = live.data.settings.find((s) => s.agentId === agentId);
  const repo = agentId === 'claude' ? live.data.endpoints.find((e) => e.appliedBy === 'atrium') : undefined;
  return (
    <p className="hint" data-testid="new-session-provider">
      Model:{' '}
      {setting?.providerId ? (
        <>
          provider <strong>{setting.providerId}</strong> at <code>{setting.endpoint}</code>
          {setting.model ? `, model ${setting.model}` : ''}
        </>
      ) : (
        <>the environment Atrium was started with{setting?.model ? `, model ${setting.model}` : ''}</>
      )}
      {repo && (repo.approved ? ` · the repository's endpoint ${repo.path} is approved and applies when the folder is trusted` : ` · the repository's endpoint in ${repo.path} is withheld (not approved)`)}
      . Change it in the workspace's Agent settings.
    </p>
  );
}
