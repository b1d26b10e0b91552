import { useCallback, useEffect, useRef, useState } from 'react';
import type { EventName, ParamsOf, RequestName, ResultOf } from '../../../shared/contract';
import { useApp } from '../state/appStore';

/** State of a live request: the last result, the last error message, and whether a load is running. */
export interface Live<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  reload(): void;
}

/**
 * Runs `method(params)` now and again whenever one of `refreshOn` events arrives (or params change),
 * so a view stays current without reloads. Pass `params = null` to skip (e.g. nothing selected).
 * Stale responses (from older params) are dropped.
 */
export function useLive<M extends RequestName>(method: M, params: ParamsOf<M> | null, refreshOn: EventName[] = []): Live<ResultOf<M>> {
  const client = useApp((s) => s.client);
  const [state, setState] = useState<{ data: ResultOf<M> | null; error: string | null; loading: boolean }>({ data: null, error: null, loading: params !== null });
  const key = params === null ? null : JSON.stringify(params);
  const seq = useRef(0);

  const load = useCallback(() => {
    if (!client || key === null) return;
    const mine = ++seq.current;
    setState((s) => ({ ...s, loading: true }));
    client
      .request(method, JSON.parse(key) as ParamsOf<M>)
      .then((data) => mine === seq.current && setState({ data, error: null, loading: false }))
      .catch((e: Error) => mine === seq.current && setState((s) => ({ data: s.data, error: e.message, loading: false })));
  }, [client, method, key]);

  useEffect(() => {
    setState({ data: null, error: null, loading: key !== null });
    load();
  }, [load, key]);

  const events = refreshOn.join(',');
  useEffect(() => {
    if (!client || !events) return;
    const offs = events.split(',').map((e) => client.on(e as EventName, () => load()));
    return () => offs.forEach((off) => off());
  }, [client, events, load]);

  return { ...state, reload: load };
}
