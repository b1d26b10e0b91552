/**
 * What the Electron preload exposes as `window.atrium`: an untyped pipe the renderer's typed client
 * wraps. `invoke` resolves (never rejects for engine errors) with `{ok, result}` or
 * `{ok:false, error:{code, message}}`.
 */
export interface AtriumBridge {
  invoke(method: string, params: unknown): Promise<{ ok: true; result: unknown } | { ok: false; error: { code: string; message: string } }>;
  onEvent(listener: (event: string, payload: unknown) => void): () => void;
}
