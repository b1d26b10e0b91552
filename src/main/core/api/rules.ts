import type { Engine } from '../engine';
import type { Handlers } from '../handlers';

/** The `rules.*` requests of the contract (`src/shared/contract/rules.ts`). */
export type RulesHandlers = Pick<Handlers, Extract<keyof Handlers, `rules.${string}`>>;

/**
 * Maps each `rules.*` request to the engine's RulesService, for the folder of the workspace named
 * by `workspaceId` (NOT_FOUND when it is not listed).
 */
export function createRulesHandlers(engine: Engine): RulesHandlers {
  const { rules, workspaces } = engine;
  const dir = (workspaceId: string) => workspaces.get(workspaceId).path;
  return {
    'rules.list': ({ workspaceId }) => rules.list(dir(workspaceId)),
    'rules.file': ({ workspaceId, id }) => rules.file(dir(workspaceId), id),
    'rules.explain': ({ workspaceId, ...params }) => rules.explain(dir(workspaceId), params),
    'rules.agentView': ({ workspaceId, agent, from, path }) => rules.agentView(dir(workspaceId), agent, from, path),
    'rules.lint': ({ workspaceId }) => rules.lint(dir(workspaceId)),
    'rules.completePath': ({ workspaceId, prefix, limit }) => rules.completePath(dir(workspaceId), prefix, limit),
    'rules.refresh': ({ workspaceId }) => rules.refresh(dir(workspaceId)),
  };
}
