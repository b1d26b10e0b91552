import type { Engine } from '../engine';
import type { Handlers } from '../handlers';

/** The `hooks.*` requests of the contract (`src/shared/contract/hooks.ts`). */
export type HooksHandlers = Pick<Handlers, Extract<keyof Handlers, `hooks.${string}`>>;

/** Maps each `hooks.*` request to the engine's HookService. Targets are a workspace id or an absolute folder. */
export function createHooksHandlers(engine: Engine): HooksHandlers {
  const { hooks } = engine;
  return {
    'hooks.list': ({ includeHeldBack, ...target }) => hooks.list(target, { includeHeldBack }),
    'hooks.approve': async ({ items, via, ...target }) => ({ changes: await hooks.approve(target, items, via) }),
    'hooks.approveAllUser': ({ via, ...target }) => hooks.approveAllUser(target, via),
    'hooks.revoke': async ({ ids, via, ...target }) => ({ changes: await hooks.revoke(target, ids, via) }),
    'hooks.diff': ({ id, ...target }) => hooks.diff(target, id),
    'hooks.readScript': ({ id, script, ...target }) => hooks.readScript(target, id, script),
    'hooks.run': ({ event, input, sessionId, ...target }) => hooks.run(event, input, { ...target, sessionId }),
    'hooks.runs': ({ id, limit, ...target }) => ({ runs: hooks.runs(target, id, limit) }),
    'hooks.history': ({ limit, ...target }) => ({ entries: hooks.history(target, limit) }),
    'hooks.allowHttpHost': ({ host, allowed }) => ({ hosts: hooks.allowHttpHost(host, allowed) }),
  };
}
