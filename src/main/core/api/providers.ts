import type { Engine } from '../engine';
import type { Handlers } from '../handlers';

/** The `providers.*` requests of the contract (`src/shared/contract/providers.ts`). */
export type ProvidersHandlers = Pick<Handlers, Extract<keyof Handlers, `providers.${string}`>>;

/** Maps each `providers.*` request to the engine's ProviderService. Keys go in, never out. */
export function createProvidersHandlers(engine: Engine): ProvidersHandlers {
  const { providers } = engine;
  return {
    'providers.list': () => ({ providers: providers.list(), store: providers.storeInfo() }),
    'providers.save': (input) => providers.save(input),
    'providers.remove': ({ id, force }) => ({ removed: providers.remove(id, force ?? false) }),
    'providers.test': ({ id, workspaceId }) => providers.test(id, workspaceId),
    'providers.setKey': ({ id, key }) => ({ provider: providers.setKey(id, key), store: providers.storeInfo() }),
    'providers.removeKey': ({ id }) => providers.removeKey(id),
    'providers.setOverride': ({ workspaceId, providerId, baseUrl }) => ({ settings: providers.setOverride(workspaceId, providerId, baseUrl) }),
    'providers.agentSettings': ({ workspaceId }) => providers.agentSettings(workspaceId),
    'providers.setAgentSettings': ({ workspaceId, agentId, providerId, model, modeId }) => ({ setting: providers.setAgentSettings(workspaceId, agentId, { providerId, model, modeId }) }),
    'providers.approveEndpoint': ({ workspaceId, digest, approved }) => ({ endpoints: providers.approveEndpoint(workspaceId, digest, approved) }),
    'providers.sessionEndpoint': ({ sessionId }) => ({ endpoint: providers.sessionEndpoint(sessionId) }),
  };
}
