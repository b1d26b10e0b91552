import type { Engine } from '../engine';
import type { Handlers } from '../handlers';

/** The `extensions.*` requests of the contract (`src/shared/contract/extensions.ts`). */
export type ExtensionsHandlers = Pick<Handlers, Extract<keyof Handlers, `extensions.${string}`>>;

/** Maps each `extensions.*` request to the engine's ExtensionsService for the workspace's folder (NOT_FOUND when not listed). */
export function createExtensionsHandlers(engine: Engine): ExtensionsHandlers {
  const { extensions, workspaces } = engine;
  const dir = (workspaceId: string) => workspaces.get(workspaceId).path;
  return {
    'extensions.list': ({ workspaceId, kind }) => extensions.list(dir(workspaceId), kind),
    'extensions.skillBody': ({ workspaceId, id }) => extensions.skillBody(dir(workspaceId), id),
    'extensions.commandPreview': ({ workspaceId, name, args, argumentText }) => extensions.commandPreview(dir(workspaceId), name, { args, argumentText }),
    'extensions.runCommandEmbeds': ({ workspaceId, confirmToken }) => extensions.runCommandEmbeds(dir(workspaceId), confirmToken),
    'extensions.setPluginEnabled': ({ workspaceId, id, scope, enabled }) => extensions.setPluginEnabled(dir(workspaceId), id, scope, enabled),
  };
}
