import { AtriumError } from '../../shared/errors';
import type { ParamsOf, RequestName, Requests, ResultOf } from '../../shared/contract';
import type { z } from 'zod';
import type { CallContext } from './dispatcher';
import type { Engine } from './engine';
import { createExtensionsHandlers } from './api/extensions';
import { createHooksHandlers } from './api/hooks';
import { createProvidersHandlers } from './api/providers';
import { createRulesHandlers } from './api/rules';
import { createSettingsHandlers } from './api/settings';
import { createSessionHandlers } from './api/sessions';
import { createTrustHandlers } from './api/trust';
import { completeFolder, expandHome } from './workspaces/folderInput';

type Params<M extends RequestName> = z.output<Requests[M]['params']>;
/** `context`: who is calling, as the transport vouches for it (see dispatcher `CallContext`). */
type Handler<M extends RequestName> = (params: Params<M>, context: CallContext) => ResultOf<M> | Promise<ResultOf<M>>;

/** A handler for every request in the contract; the type makes a missing one a compile error. */
export type Handlers = { [M in RequestName]: Handler<M> };

/** Requests only the desktop app answers; every other host leaves them out and they answer UNSUPPORTED. */
type DesktopOnly = 'app.pickupServer' | 'app.openExternal' | 'app.updateStatus' | 'app.installUpdate';

/**
 * Requests only the host (Electron shell, browser server, CLI) can answer. The {@link DesktopOnly}
 * ones exist only in the desktop app; other hosts leave them out and they answer UNSUPPORTED.
 */
export type HostHandlers = Pick<Handlers, 'app.info' | 'app.pickFolder'> & Partial<Pick<Handlers, DesktopOnly>>;

const desktopOnly = (): never => {
  throw new AtriumError('UNSUPPORTED', 'Only the desktop app does this.');
};

/** Maps each engine request to the capability that answers it. */
export function createHandlers(engine: Engine, host: HostHandlers): Handlers {
  const { workspaces } = engine;
  return {
    'app.pickupServer': () => {
      throw new AtriumError('UNSUPPORTED', 'Only the desktop app starts a pickup server; this page is already served to a browser.');
    },
    'app.openExternal': desktopOnly,
    'app.updateStatus': desktopOnly,
    'app.installUpdate': desktopOnly,
    ...host,
    'workspaces.list': () => ({ workspaces: workspaces.list() }),
    'workspaces.add': ({ path, name }) => workspaces.add(expandHome(path, engine.homeDir), name),
    'workspaces.completeFolder': ({ prefix }) => ({ folders: completeFolder(prefix, engine.homeDir) }),
    'workspaces.rename': ({ id, name }) => ({ workspace: workspaces.rename(id, name) }),
    'workspaces.relocate': ({ id, path }) => ({ workspace: workspaces.relocate(id, expandHome(path, engine.homeDir)) }),
    'workspaces.remove': ({ id }) => ({ removed: workspaces.remove(id) }),
    'workspaces.details': ({ id }) => ({ workspace: workspaces.details(id) }),
    ...createTrustHandlers(engine),
    ...createRulesHandlers(engine),
    ...createSessionHandlers(engine),
    ...createHooksHandlers(engine),
    ...createExtensionsHandlers(engine),
    ...createProvidersHandlers(engine),
    ...createSettingsHandlers(engine),
  };
}

export type { ParamsOf };
