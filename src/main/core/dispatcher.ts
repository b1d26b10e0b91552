import { requests, type RequestName, type ResultOf } from '../../shared/contract';
import { AtriumError, toWireError, type WireError } from '../../shared/errors';
import type { Engine } from './engine';
import { createHandlers, type HostHandlers } from './handlers';

/** Outcome of one request as it crosses a transport. */
export type DispatchOutcome = { ok: true; result: unknown } | { ok: false; error: WireError };

/**
 * Who is calling, as the transport vouches for it (never a value the client sent): `caller` is
 * the WebSocket connection (`ws-<uuid>`) or the desktop window (`electron:<webContents id>`);
 * null or absent is this process itself (the CLI's in-process engine, tests), which is trusted.
 * Handover rules (who may attach, issue or redeem) key on it.
 */
export interface CallContext {
  caller: string | null;
}

/** Dispatches contract requests by name; the single entry point for every transport. */
export interface Dispatcher {
  /**
   * Validates `rawParams` with the contract's zod schema, runs the handler, validates the result.
   * Never throws: failures become `{ok: false, error: {code, message}}` without a stack.
   */
  dispatch(method: string, rawParams: unknown, context?: CallContext): Promise<DispatchOutcome>;
  /** Same, typed, for in-process callers (CLI); throws AtriumError on failure. */
  call<M extends RequestName>(method: M, params: unknown): Promise<ResultOf<M>>;
}

/**
 * Builds the dispatcher for one engine. `host` supplies what only the host can do (app info, the
 * native folder picker); the browser server and CLI supply their own.
 */
export function createDispatcher(engine: Engine, host: HostHandlers): Dispatcher {
  const handlers = createHandlers(engine, host) as Record<string, (params: unknown, context: CallContext) => unknown>;
  const call = async (method: string, rawParams: unknown, context: CallContext = { caller: null }): Promise<unknown> => {
    if (!Object.hasOwn(requests, method)) {
      throw new AtriumError('UNKNOWN_METHOD', `Unknown request "${method}".`);
    }
    const def = requests[method as RequestName];
    const parsed = def.params.safeParse(rawParams ?? {});
    if (!parsed.success) {
      const detail = parsed.error.issues.map((i) => `${i.path.join('.') || 'params'}: ${i.message}`).join('; ');
      throw new AtriumError('INVALID_PARAMS', `Invalid parameters for ${method}: ${detail}`);
    }
    const result = await handlers[method](parsed.data, context);
    return def.result.parse(result);
  };
  return {
    async dispatch(method, rawParams, context) {
      try {
        return { ok: true, result: await call(method, rawParams, context) };
      } catch (error) {
        return { ok: false, error: toWireError(error) };
      }
    },
    call: (method, params) => call(method, params) as never,
  };
}
