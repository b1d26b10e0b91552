import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the fake model answers to one Responses request: text; a shell command (sent as a
 * `function_call` of whichever shell tool the request offers: `exec_command {cmd}`, `shell_command
 * {command}` or `shell {command: [...]}`); any function call; or a freeform `custom_tool_call` (e.g.
 * Codex's `apply_patch` with its patch text as `input`). `extra` adds fields to the function arguments
 * (e.g. `sandbox_permissions`).
 */
export type FakeOpenAIReply =
  | { text: string }
  | { shell: string; extra?: Record<string, unknown> }
  | { functionCall: { name: string; arguments: Record<string, unknown> } }
  | { customToolCall: { name: string; input: string } };

/** One input item of a Responses request (the fields the tests look at). */
export interface ResponsesInputItem {
  type?: string;
  role?: string;
  content?: unknown;
  call_id?: string;
  output?: unknown;
  name?: string;
}

/** One request the fake received (body parsed); `side` marks a side query (no tools, or a JSON schema). */
export interface FakeOpenAIRequest {
  path: string;
  side: boolean;
  body: {
    model?: string;
    stream?: boolean;
    instructions?: string;
    input?: ResponsesInputItem[];
    tools?: Array<{ type?: string; name?: string }>;
    text?: { format?: { type?: string; schema?: unknown } };
  };
}

/** A running fake OpenAI Responses endpoint on 127.0.0.1; `url` is the `base_url` (ends in `/v1`). */
export interface FakeOpenAI {
  url: string;
  /** Every model request, side queries included, in order. */
  requests: FakeOpenAIRequest[];
  /** Every request that was not a model call (`GET`s, other paths). */
  others: Array<{ method: string; url: string }>;
  close(): Promise<void>;
}

/** The whole request as JSON text (instructions, input, tool outputs) for substring checks. */
export const openAIRequestText = (req: FakeOpenAIRequest) => JSON.stringify(req.body);

/** The last input item of a request as JSON text (e.g. the tool output the model is being told). */
export const lastInputText = (req: FakeOpenAIRequest) => JSON.stringify(req.body.input?.[req.body.input.length - 1] ?? null);

/** The text of the last `user` message of a request ('' when none). */
export function lastUserInput(req: FakeOpenAIRequest): string {
  const items = req.body.input ?? [];
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i];
    if (it.type === 'message' && it.role === 'user') return JSON.stringify(it.content ?? '');
  }
  return '';
}

/** True when the last input item is a tool result (`function_call_output` / `custom_tool_call_output`). */
export const endsWithToolOutput = (req: FakeOpenAIRequest) => /_call_output$/.test(String(req.body.input?.[req.body.input.length - 1]?.type ?? ''));

/**
 * Starts a local stand-in for the OpenAI Responses API as Codex 0.166.0 (through codex-acp 2.6.0)
 * calls it with a custom model provider (`wire_api = "responses"`, agents-offline.md "A."): `POST
 * {base}/responses` with `stream: true`, answered with the SSE events `response.created`,
 * `response.in_progress`, `response.output_item.added`, text / function-argument / custom-input
 * deltas, `response.output_item.done` and `response.completed` with `usage`. Side queries (no tools,
 * or `text.format.type = json_schema`, e.g. Codex's title generator) get a short answer (JSON from
 * the schema's shape when asked for one) without calling `reply`. Other requests get `{}` (GET) or
 * 404. Binds 127.0.0.1 on a free port.
 */
export async function startFakeOpenAI(reply: (req: FakeOpenAIRequest) => FakeOpenAIReply): Promise<FakeOpenAI> {
  const requests: FakeOpenAIRequest[] = [];
  const others: FakeOpenAI['others'] = [];
  let counter = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = (req.url ?? '/').split('?')[0];
      if (req.method !== 'POST' || !url.endsWith('/responses')) {
        others.push({ method: req.method ?? '?', url: req.url ?? '/' });
        if (req.method === 'GET' && url.endsWith('/models')) res.writeHead(200, { 'content-type': 'application/json' }).end('{"models":[]}');
        else if (req.method === 'GET') res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
        else res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not here', type: 'invalid_request_error' } }));
        return;
      }
      let body: FakeOpenAIRequest['body'] = {};
      try {
        body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
      } catch {
        body = {};
      }
      const side = !Array.isArray(body.tools) || body.tools.length === 0 || body.text?.format?.type === 'json_schema';
      const entry: FakeOpenAIRequest = { path: url, side, body };
      requests.push(entry);
      let answer: FakeOpenAIReply;
      if (side) answer = { text: body.text?.format?.type === 'json_schema' ? JSON.stringify(fromSchema(body.text.format.schema)) : 'Atrium test' };
      else {
        try {
          answer = reply(entry);
        } catch (error) {
          answer = { text: `fake error: ${String(error)}` };
        }
      }
      const id = `resp_${++counter}`;
      const events = responseEvents(id, answer, body.tools ?? []);
      if (body.stream === false) {
        const done = events[events.length - 1] as { response: unknown };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(done.response));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      for (const e of events) res.write(`event: ${(e as { type: string }).type}\ndata: ${JSON.stringify(e)}\n\n`);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    others,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/** A JSON value of a JSON schema's shape: first enum value, "Atrium test" for strings, objects filled. */
function fromSchema(schema: unknown): unknown {
  const s = (schema ?? {}) as { type?: string | string[]; enum?: unknown[]; properties?: Record<string, unknown>; items?: unknown };
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === 'object' || s.properties) return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, fromSchema(v)]));
  if (type === 'array') return [];
  if (type === 'number' || type === 'integer') return 0;
  if (type === 'boolean') return false;
  return 'Atrium test';
}

/** The shell function call of `cmd` for the shell tool the request offers (Codex picks one per model). */
function shellCall(cmd: string, tools: Array<{ name?: string }>, extra: Record<string, unknown>): { name: string; arguments: Record<string, unknown> } {
  const names = new Set(tools.map((t) => t.name));
  if (names.has('exec_command')) return { name: 'exec_command', arguments: { cmd, ...extra } };
  if (names.has('shell_command')) return { name: 'shell_command', arguments: { command: cmd, ...extra } };
  return { name: 'shell', arguments: { command: ['bash', '-lc', cmd], ...extra } };
}

function responseEvents(id: string, answer: FakeOpenAIReply, tools: Array<{ name?: string }>): object[] {
  const itemId = `item_${id}`;
  const callId = `call_${id}`;
  let item: Record<string, unknown>;
  const deltas: object[] = [];
  if ('text' in answer) {
    item = { type: 'message', id: itemId, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: answer.text, annotations: [] }] };
    deltas.push({ type: 'response.content_part.added', item_id: itemId, output_index: 0, content_index: 0, part: { type: 'output_text', text: '' } });
    deltas.push({ type: 'response.output_text.delta', item_id: itemId, output_index: 0, content_index: 0, delta: answer.text });
  } else if ('customToolCall' in answer) {
    item = { type: 'custom_tool_call', id: itemId, call_id: callId, name: answer.customToolCall.name, input: answer.customToolCall.input, status: 'completed' };
    deltas.push({ type: 'response.custom_tool_call_input.delta', item_id: itemId, output_index: 0, delta: answer.customToolCall.input });
  } else {
    const fc = 'shell' in answer ? shellCall(answer.shell, tools, answer.extra ?? {}) : answer.functionCall;
    const args = JSON.stringify(fc.arguments);
    item = { type: 'function_call', id: itemId, call_id: callId, name: fc.name, arguments: args, status: 'completed' };
    deltas.push({ type: 'response.function_call_arguments.delta', item_id: itemId, output_index: 0, delta: args });
  }
  const added = { ...item, ...(item.type === 'message' ? { content: [], status: 'in_progress' } : {}), ...(item.type === 'function_call' ? { arguments: '' } : {}), ...(item.type === 'custom_tool_call' ? { input: '' } : {}) };
  const usage = { input_tokens: 100, input_tokens_details: { cached_tokens: 0 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 110 };
  const base = { id, object: 'response', created_at: Math.floor(Date.now() / 1000), model: 'gpt-5.5' };
  return [
    { type: 'response.created', response: { ...base, status: 'in_progress', output: [] } },
    { type: 'response.in_progress', response: { ...base, status: 'in_progress', output: [] } },
    { type: 'response.output_item.added', output_index: 0, item: added },
    ...deltas,
    { type: 'response.output_item.done', output_index: 0, item },
    { type: 'response.completed', response: { ...base, status: 'completed', output: [item], usage } },
  ];
}
