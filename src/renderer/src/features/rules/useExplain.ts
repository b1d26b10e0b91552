import { useCallback, useEffect, useRef, useState } from 'react';
import type { ParamsOf, RulesExplainResult } from '../../../../shared/contract';
import { RequestError } from '../../api/client';
import { useApp } from '../../state/appStore';

/** An engine error with its contract code (`PATH_NOT_FOUND`, `NOT_A_DIRECTORY`, `INVALID_PARAMS`…). */
export interface ExplainError {
  code: string;
  message: string;
}

/** Codes the engine uses for an unusable start folder (src/main/core/rules/startFolder.ts). */
const START_FOLDER_CODES = new Set(['PATH_NOT_FOUND', 'NOT_A_DIRECTORY', 'INVALID_PARAMS']);

/** True when `error` is about the "Session starts in" value, so it belongs next to that field. */
export function isStartFolderError(error: ExplainError | null, from: string | undefined): boolean {
  return error !== null && from !== undefined && START_FOLDER_CODES.has(error.code);
}

/**
 * `rules.explain` for "Test a path", re-run when rules or trust change (like `useLive`), but keeping
 * the error's code: a start folder that does not exist is shown at its field, not as a page error.
 * `params = null` runs nothing. Responses to older params are dropped.
 */
export function useExplain(params: ParamsOf<'rules.explain'> | null): { data: RulesExplainResult | null; error: ExplainError | null } {
  const client = useApp((s) => s.client);
  const [state, setState] = useState<{ data: RulesExplainResult | null; error: ExplainError | null }>({ data: null, error: null });
  const key = params === null ? null : JSON.stringify(params);
  const seq = useRef(0);

  const load = useCallback(() => {
    if (!client || key === null) return;
    const mine = ++seq.current;
    client
      .request('rules.explain', JSON.parse(key) as ParamsOf<'rules.explain'>)
      .then((data) => mine === seq.current && setState({ data, error: null }))
      .catch((e: Error) => mine === seq.current && setState({ data: null, error: { code: e instanceof RequestError ? e.code : 'INTERNAL', message: e.message } }));
  }, [client, key]);

  useEffect(() => {
    setState({ data: null, error: null });
    load();
  }, [load]);

  useEffect(() => {
    if (!client) return;
    const offs = [client.on('rulesChanged', () => load()), client.on('trustChanged', () => load())];
    return () => offs.forEach((off) => off());
  }, [client, load]);

  return state;
}
