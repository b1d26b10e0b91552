import { requests, type RequestName, type ResultOf } from '../../shared/contract';
import { AtriumError, toWireError, type WireError } from '../../shared/errors';
import type { Engine } from './engine';
import { createHandlers, type HostHandlers } from './handlers';

/** Outcome of one request as it crosses a transport. */
export type DispatchOutcome = { ok: true; result: unknown } | { ok: false; error: WireError };

/** Dispatches contract requests by name; the single entry point for every transport. */
export interface Dispatcher {
  /**
   * Validates `rawParams` with the contract's zod schema, runs the handler, validates the result.
   * Never throws: failures become `{ok: false, error: {code, message}}` without a stack.
   */
  dispatch(method: string, rawParams: unknown): Promise<DispatchOutcome>;
  /** Same, typed, for in-process callers (CLI); throws AtriumError on failure. */
  call<M extends RequestName>(method: M, params: unknown): Promise<ResultOf<M>>;
}

/**
 * Builds the dispatcher for one engine. `host` supplies what only the host can do (app info, the
 * native folder picker); the browser server and CLI supply their own.
 */
export function createDispatcher(engine: Engine, host: HostHandlers): Dispatcher {
  const handlers = createHandlers(engine, host) as Record<string, (params: unknown) => unknown>;
  const call = async (method: string, rawParams: unknown): Promise<unknown> => {
    if (!Object.hasOwn(requests, method)) {
      throw new AtriumError('UNKNOWN_METHOD', `Unknown request "${method}".`);
    }
    const def = requests[method as RequestName];
    const parsed = def.params.safeParse(rawParams ?? {});
    if (!parsed.success) {
      const detail = parsed.error.issues.map((i) => `${i.path.join('.') || 'params'}: ${i.message}`).join('; ');
      throw new AtriumError('INVALID_PARAMS', `Invalid parameters for ${method}: ${detail}`);
    }
    const result = await handlers[method](parsed.data);
    return def.result.parse(result);
  };
  return {
    async dispatch(method, rawParams) {
      try {
        return { ok: true, result: await call(method, rawParams) };
      } catch (error) {
        return { ok: false, error: toWireError(error) };
      }
    },
    call: (method, params) => call(method, params) as never,
  };
}
