import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake model answers to one Messages request. */
/**
 * A reply of the fake model; `paceMs` streams a text reply one word per `paceMs` milliseconds (a long,
 * slow answer), and `hold` stops that stream after `afterWords` words until `until` settles, so a test
 * can act while the answer is provably still streaming, however loaded the machine is.
 */
export type FakeReply =
  | { text: string; paceMs?: number; hold?: { afterWords: number; until: Promise<unknown> } }
  | { toolUse: { name: string; input: Record<string, unknown> }; text?: string };

/** One request the fake endpoint received (body parsed). */
export interface FakeRequest {
  path: string;
  /** The request's headers (lowercase names), e.g. `x-api-key`: which key reached this endpoint. */
  headers?: Record<string, string | string[] | undefined>;
  body: {
    model?: string;
    stream?: boolean;
    system?: unknown;
    messages?: Array<{ role: string; content: string | Array<{ type: string; text?: string; content?: unknown; tool_use_id?: string }> }>;
  };
}

/** A running fake Anthropic Messages endpoint on 127.0.0.1. */
export interface FakeAnthropic {
  url: string;
  requests: FakeRequest[];
  close(): Promise<void>;
}

/**
 * Starts a local stand-in for the Anthropic Messages API that speaks the real SSE protocol
 * (`message_start`, `content_block_start|delta|stop`, `message_delta`, `message_stop`), enough for
 * the Claude Code ACP adapter to run full turns offline (acp.md §3.1). `reply` decides each answer
 * from the request; text is streamed word by word. Non-streaming requests get a JSON message;
 * `/v1/messages/count_tokens` and other probes get harmless answers. Binds 127.0.0.1, port 0.
 */
export async function startFakeAnthropic(reply: (req: FakeRequest) => FakeReply): Promise<FakeAnthropic> {
  const requests: FakeRequest[] = [];
  let counter = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = (req.url ?? '/').split('?')[0];
      let body: FakeRequest['body'] = {};
      try {
        body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
      } catch {
        body = {};
      }
      if (req.method !== 'POST') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      if (url.endsWith('/count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: 10 }));
        return;
      }
      if (!url.endsWith('/v1/messages')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'not here' } }));
        return;
      }
      const entry: FakeRequest = { path: url, headers: req.headers, body };
      requests.push(entry);
      let answer: FakeReply;
      try {
        answer = reply(entry);
      } catch (error) {
        answer = { text: `fake endpoint error: ${(error as Error).message}` };
      }
      const id = `msg_fake_${++counter}`;
      const model = body.model ?? 'claude-fake';
      const blocks: Array<Record<string, unknown>> = [];
      if ('toolUse' in answer) {
        if (answer.text) blocks.push({ type: 'text', text: answer.text });
        blocks.push({ type: 'tool_use', id: `toolu_fake_${counter}`, name: answer.toolUse.name, input: answer.toolUse.input });
      } else {
        blocks.push({ type: 'text', text: answer.text });
      }
      const stopReason = 'toolUse' in answer ? 'tool_use' : 'end_turn';
      const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
      if (!body.stream) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({ id, type: 'message', role: 'assistant', model, content: blocks, stop_reason: stopReason, stop_sequence: null, usage }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      const paceMs = 'paceMs' in answer ? (answer.paceMs ?? 0) : 0;
      if (paceMs > 0 && !('toolUse' in answer)) {
        void (async () => {
          send('message_start', { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } });
          send('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
          const hold = 'hold' in answer ? answer.hold : undefined;
          let sent = 0;
          for (const word of answer.text.match(/\S+\s*/g) ?? ['']) {
            if (res.destroyed) return;
            if (hold && sent === hold.afterWords) await hold.until.catch(() => undefined);
            send('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: word } });
            sent++;
            await new Promise((r) => setTimeout(r, paceMs));
          }
          send('content_block_stop', { type: 'content_block_stop', index: 0 });
          send('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } });
          send('message_stop', { type: 'message_stop' });
          res.end();
        })();
        return;
      }
      send('message_start', { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } });
      blocks.forEach((block, index) => {
        if (block.type === 'text') {
          send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
          for (const word of String(block.text).match(/\S+\s*/g) ?? ['']) {
            send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: word } });
          }
        } else {
          send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
          send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
        }
        send('content_block_stop', { type: 'content_block_stop', index });
      });
      send('message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } });
      send('message_stop', { type: 'message_stop' });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The text of the last user turn of a Messages request (string content or text blocks joined). */
export function lastUserText(req: FakeRequest): string {
  const messages = req.body.messages ?? [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    const texts = m.content.filter((b) => b.type === 'text').map((b) => b.text ?? '');
    if (texts.length) return texts.join('\n');
  }
  return '';
}

/** True when the last user message carries a tool_result (the model is being told a tool's outcome). */
export function endsWithToolResult(req: FakeRequest): boolean {
  const messages = req.body.messages ?? [];
  const last = messages[messages.length - 1];
  return Boolean(last && last.role === 'user' && Array.isArray(last.content) && last.content.some((b) => b.type === 'tool_result'));
}
