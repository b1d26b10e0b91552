import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A part of a Gemini `Content` (the subset Gemini CLI sends and reads). */
export interface GeminiPart {
  text?: string;
  thought?: boolean;
  functionCall?: { name: string; args?: Record<string, unknown>; id?: string };
  functionResponse?: { name: string; response?: unknown; id?: string };
  [k: string]: unknown;
}

/** What the fake model answers to one main (tool-offering) request: text, or a function call (with optional text before it). */
export type GeminiReply = { text: string } | { functionCall: { name: string; args: Record<string, unknown> }; text?: string };

/** One request the fake received (body parsed); `kind` says how the fake classified it. */
export interface GeminiRequest {
  method: string;
  /** The URL path (`/v1beta/models/<model>:streamGenerateContent`), query removed. */
  path: string;
  /** The model named in the path, or null. */
  model: string | null;
  /** `main` (a turn of the conversation), `side` (a JSON-schema side query such as the router classifier), `count` (countTokens), `other`. */
  kind: 'main' | 'side' | 'count' | 'other';
  body: {
    contents?: Array<{ role?: string; parts?: GeminiPart[] }>;
    systemInstruction?: { parts?: GeminiPart[] } | string;
    tools?: Array<{ functionDeclarations?: Array<{ name: string }> }>;
    generationConfig?: { responseJsonSchema?: unknown; responseSchema?: unknown; responseMimeType?: string };
    [k: string]: unknown;
  };
}

/** A running fake Gemini API endpoint on 127.0.0.1. */
export interface FakeGemini {
  /** Base URL for `GOOGLE_GEMINI_BASE_URL` (`http://127.0.0.1:<port>`). */
  url: string;
  /** Every request received, in order (including side queries and probes). */
  requests: GeminiRequest[];
  /** The main (turn) requests only. */
  main(): GeminiRequest[];
  close(): Promise<void>;
}

/** A JSON value that satisfies `schema` (JSON Schema subset): first enum value, strings "Atrium test", numbers 1, booleans false, required object properties filled. */
export function fillFromSchema(schema: unknown, depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 8) return null;
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  if ('const' in s) return s.const;
  const anyOf = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(anyOf) && anyOf.length) return fillFromSchema(anyOf[0], depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (String(type ?? '').toLowerCase()) {
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(props)) out[k] = fillFromSchema(v, depth + 1);
      return out;
    }
    case 'array':
      return s.items ? [fillFromSchema(s.items, depth + 1)] : [];
    case 'string':
      return 'Atrium test';
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return false;
    default:
      return s.properties ? fillFromSchema({ ...s, type: 'object' }, depth) : null;
  }
}

/** The whole text of a request (system instruction, contents, tool results) as JSON, for substring checks. */
export const geminiRequestText = (req: GeminiRequest) => JSON.stringify(req.body.contents ?? []) + JSON.stringify(req.body.systemInstruction ?? null);

/** The parts of the last content of a request (what the model is being told now). */
export function lastParts(req: GeminiRequest): GeminiPart[] {
  const c = req.body.contents ?? [];
  return c[c.length - 1]?.parts ?? [];
}

/** True when the last content carries a `functionResponse` (the result of the previous function call). */
export const endsWithFunctionResponse = (req: GeminiRequest) => lastParts(req).some((p) => p.functionResponse);

/** The text of the user's last prompt in a request (the last content with text parts and no function response). */
export function lastUserText(req: GeminiRequest): string {
  const c = req.body.contents ?? [];
  for (let i = c.length - 1; i >= 0; i--) {
    if (c[i].role !== 'user') continue;
    const parts = c[i].parts ?? [];
    if (parts.some((p) => p.functionResponse)) continue;
    return parts.map((p) => (typeof p.text === 'string' ? p.text : '')).join('\n');
  }
  return '';
}

/** How many times `needle` occurs in `hay` (non-overlapping). */
export function occurrences(hay: string, needle: string): number {
  let n = 0;
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + needle.length)) n++;
  return n;
}

/**
 * Starts a local stand-in for the Gemini API (Generative Language v1beta) that speaks the wire format
 * Gemini CLI 0.61.0 uses: `POST /v1beta/models/{model}:streamGenerateContent?alt=sse` answered with
 * `data: {candidates:[{content:{role:"model",parts},finishReason}],usageMetadata}` SSE chunks,
 * `:generateContent` answered with one such JSON object, `:countTokens` with `{totalTokens}`.
 * A request whose `generationConfig` has a `responseJsonSchema`/`responseSchema` (e.g. the model-router
 * classifier, the next-speaker check) is a side query: it gets JSON filled from the schema
 * ({@link fillFromSchema}) and never reaches `reply`. Every other generate request is a main turn
 * answered by `reply` (text is streamed in two chunks; a function call as one part). Every request is
 * recorded. Binds 127.0.0.1, port 0.
 */
export async function startFakeGemini(reply: (req: GeminiRequest) => GeminiReply): Promise<FakeGemini> {
  const requests: GeminiRequest[] = [];
  let counter = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const urlPath = (req.url ?? '/').split('?')[0];
      let body: GeminiRequest['body'] = {};
      try {
        body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
      } catch {
        body = {};
      }
      const m = /\/models\/([^/:]+):(\w+)$/.exec(urlPath);
      const model = m ? decodeURIComponent(m[1]) : null;
      const op = m?.[2] ?? '';
      const schema = body.generationConfig?.responseJsonSchema ?? body.generationConfig?.responseSchema;
      const kind: GeminiRequest['kind'] = op === 'countTokens' ? 'count' : op === 'streamGenerateContent' || op === 'generateContent' ? (schema ? 'side' : 'main') : 'other';
      const entry: GeminiRequest = { method: req.method ?? 'GET', path: urlPath, model, kind, body };
      requests.push(entry);
      const usageMetadata = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };
      if (kind === 'count') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ totalTokens: 10 }));
        return;
      }
      if (kind === 'other') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 404, message: 'not here', status: 'NOT_FOUND' } }));
        return;
      }
      let chunksOut: Array<{ parts: GeminiPart[]; finish: boolean }>;
      if (kind === 'side') {
        chunksOut = [{ parts: [{ text: JSON.stringify(fillFromSchema(schema)) }], finish: true }];
      } else {
        let answer: GeminiReply;
        try {
          answer = reply(entry);
        } catch (error) {
          answer = { text: `fake endpoint error: ${(error as Error).message}` };
        }
        if ('functionCall' in answer) {
          chunksOut = [];
          if (answer.text) chunksOut.push({ parts: [{ text: answer.text }], finish: false });
          chunksOut.push({ parts: [{ functionCall: { name: answer.functionCall.name, args: answer.functionCall.args, id: `call_fake_${++counter}` } }], finish: true });
        } else {
          const t = answer.text;
          const cut = Math.max(1, Math.floor(t.length / 2));
          chunksOut = t.length > 1 ? [{ parts: [{ text: t.slice(0, cut) }], finish: false }, { parts: [{ text: t.slice(cut) }], finish: true }] : [{ parts: [{ text: t }], finish: true }];
        }
      }
      const frame = (c: { parts: GeminiPart[]; finish: boolean }) => ({
        candidates: [{ content: { role: 'model', parts: c.parts }, ...(c.finish ? { finishReason: 'STOP' } : {}), index: 0 }],
        ...(c.finish ? { usageMetadata } : {}),
        modelVersion: model ?? 'gemini-fake',
      });
      if (op === 'generateContent') {
        const parts = chunksOut.flatMap((c) => c.parts);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(frame({ parts, finish: true })));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      for (const c of chunksOut) res.write(`data: ${JSON.stringify(frame(c))}\r\n\r\n`);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    main: () => requests.filter((r) => r.kind === 'main'),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
