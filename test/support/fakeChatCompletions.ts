import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake model answers to one chat completions request. */
export type ChatReply = { text: string } | { toolCall: { name: string; arguments: Record<string, unknown> } };

/** One model request the fake received (body parsed). */
export interface ChatRequest {
  path: string;
  body: {
    model?: string;
    stream?: boolean;
    messages: Array<{ role: string; content?: unknown; tool_call_id?: string }>;
    tools?: Array<{ type: string; function?: { name: string } }>;
  };
  /** The whole body as text (to look for a rule's text anywhere in the request). */
  raw: string;
}

/** A running fake OpenAI-compatible chat completions endpoint on 127.0.0.1. */
export interface FakeChatCompletions {
  /** Base URL to configure, ending in `/v1`. */
  url: string;
  requests: ChatRequest[];
  close(): Promise<void>;
}

let callCounter = 0;

/**
 * Starts a local stand-in for the OpenAI Chat Completions API (`POST /v1/chat/completions`,
 * `stream: true`): SSE `data:` lines of `chat.completion.chunk` objects (`delta.content` or
 * `delta.tool_calls`, then a chunk with `finish_reason` and one with `usage`), then `data: [DONE]`.
 * That is what OpenCode 1.18.33 reads through its bundled `@ai-sdk/openai-compatible` provider.
 * `reply` decides each answer from the request. Other paths get 404. Binds 127.0.0.1, port 0.
 */
export async function startFakeChatCompletions(reply: (req: ChatRequest) => ChatReply): Promise<FakeChatCompletions> {
  const requests: ChatRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = (req.url ?? '/').split('?')[0];
      const raw = Buffer.concat(chunks).toString('utf8');
      if (req.method !== 'POST' || !url.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not here' } }));
        return;
      }
      let body: ChatRequest['body'];
      try {
        body = JSON.parse(raw) as ChatRequest['body'];
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'bad json' } }));
        return;
      }
      const entry: ChatRequest = { path: url, body, raw };
      requests.push(entry);
      const answer = reply(entry);
      const id = `chatcmpl-${++callCounter}`;
      const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
        res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: body.model ?? 'fake', choices, ...extra })}\n\n`);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      if ('toolCall' in answer) {
        chunk([{ index: 0, delta: { role: 'assistant', tool_calls: [{ index: 0, id: `call_${callCounter}`, type: 'function', function: { name: answer.toolCall.name, arguments: JSON.stringify(answer.toolCall.arguments) } }] }, finish_reason: null }]);
        chunk([{ index: 0, delta: {}, finish_reason: 'tool_calls' }]);
      } else {
        chunk([{ index: 0, delta: { role: 'assistant', content: answer.text }, finish_reason: null }]);
        chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]);
      }
      chunk([], { usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
