import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { shellQuote } from '../../formats/shell/quote';
import { nodeRuntime } from '../../process/nodeRuntime';

/** What a bridged Claude hook call answers: what the hook command prints and its exit code (Claude Code hook protocol). */
export interface BridgeAnswer {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Handles one Claude Code hook call of a session: `event` (PreToolUse, PostToolUse, …) and Claude's hook input JSON. */
export type BridgeHandler = (event: string, input: Record<string, unknown>) => Promise<BridgeAnswer>;

/** Claude events Atrium listens to through the bridge. */
export const BRIDGED_EVENTS = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'] as const;

/** Largest hook input accepted (bytes; Claude sends the tool input and response). */
const MAX_BODY = 8 * 1024 * 1024;
/** Seconds Claude waits for a bridged hook (approved hooks may be slow). */
const HOOK_TIMEOUT_S = 600;

/**
 * The command script Claude Code runs for a bridged hook: reads the hook input on stdin, posts it
 * to Atrium's bridge (URL and token from the environment the agent inherited), prints the answer
 * and exits with its code. If Atrium cannot be reached a PreToolUse call exits 2 (the tool is
 * denied: fail closed); others exit 1 (a non-blocking error).
 */
const SCRIPT = `'use strict';
// Atrium bridge for Claude Code hooks. Generated; do not edit.
const http = require('node:http');
const event = process.argv[2] || '';
const fail = (msg) => { process.stderr.write('Atrium bridge: ' + msg + '\\n'); process.exit(event === 'PreToolUse' ? 2 : 1); };
const url = process.env.ATRIUM_BRIDGE_URL;
const token = process.env.ATRIUM_BRIDGE_TOKEN;
if (!url || !token) fail('ATRIUM_BRIDGE_URL / ATRIUM_BRIDGE_TOKEN are not set');
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => { input += d; });
process.stdin.on('end', () => {
  let parsed = {};
  try { parsed = input.trim() ? JSON.parse(input) : {}; } catch { fail('the hook input is not JSON'); }
  const body = JSON.stringify({ event, input: parsed });
  const req = http.request(url + '/hook', { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer ' + token, 'content-length': Buffer.byteLength(body) } }, (res) => {
    let out = '';
    res.setEncoding('utf8');
    res.on('data', (d) => { out += d; });
    res.on('end', () => {
      if (res.statusCode !== 200) fail('Atrium answered HTTP ' + res.statusCode + ': ' + out.slice(0, 500));
      let answer;
      try { answer = JSON.parse(out); } catch { fail('Atrium answered something that is not JSON'); }
      if (answer.stdout) process.stdout.write(answer.stdout);
      if (answer.stderr) process.stderr.write(answer.stderr);
      process.exitCode = Number.isInteger(answer.exitCode) ? answer.exitCode : 0;
    });
  });
  req.on('error', (e) => fail('Atrium is not reachable: ' + e.message));
  req.end(body);
});
`;

/**
 * Atrium's end of the Claude Code hook bridge (acp.md §7): a loopback HTTP server (127.0.0.1,
 * ephemeral port, started on first use) that answers bridged hook calls for registered sessions,
 * each identified by a random bearer token. The command Claude runs is `<node> <dataDir>/bridge/
 * claude-hook.cjs <Event>`, `<node>` being the absolute path `node()` answers (default
 * {@link nodeRuntime}: the engine's Node, or in the desktop app `$ATRIUM_NODE` / `node` on PATH);
 * it finds the server through `ATRIUM_BRIDGE_URL` and `ATRIUM_BRIDGE_TOKEN` in the agent's
 * environment. Unknown tokens get 401; bad bodies 400.
 */
export class ClaudeHookBridge {
  private server: http.Server | null = null;
  private starting: Promise<string> | null = null;
  private readonly handlers = new Map<string, BridgeHandler>();
  private scriptPath: string | null = null;

  constructor(
    private readonly dataDir: string,
    private readonly node: () => string = () => nodeRuntime(),
  ) {}

  /**
   * Registers a session's handler. Returns its token, the environment to give the agent, and the
   * Claude `settings.hooks` object that routes every bridged event to it.
   * @throws AtriumError NODE_UNAVAILABLE when no Node can run the hook command (nothing is registered)
   */
  async register(handler: BridgeHandler): Promise<{ token: string; env: Record<string, string>; hooks: Record<string, unknown> }> {
    // first, so a missing Node fails the start before anything is registered or written
    const node = shellQuote(this.node());
    const url = await this.start();
    const token = crypto.randomBytes(24).toString('hex');
    this.handlers.set(token, handler);
    const script = this.writeScript();
    const hooks: Record<string, unknown> = {};
    for (const event of BRIDGED_EVENTS) {
      hooks[event] = [{ hooks: [{ type: 'command', command: `${node} ${shellQuote(script)} ${event}`, timeout: HOOK_TIMEOUT_S }] }];
    }
    return { token, env: { ATRIUM_BRIDGE_URL: url, ATRIUM_BRIDGE_TOKEN: token }, hooks };
  }

  /** Forgets a token (its calls get 401 from now on). */
  unregister(token: string): void {
    this.handlers.delete(token);
  }

  /** Stops the server. Idempotent. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.starting = null;
    this.handlers.clear();
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private start(): Promise<string> {
    if (this.starting) return this.starting;
    const server = http.createServer((req, res) => void this.serve(req, res));
    this.server = server;
    this.starting = new Promise<string>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.unref();
        resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      });
    });
    return this.starting;
  }

  private writeScript(): string {
    if (this.scriptPath) return this.scriptPath;
    const dir = path.join(this.dataDir, 'bridge');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, 'claude-hook.cjs');
    let current: string | null = null;
    try {
      current = fs.readFileSync(file, 'utf8');
    } catch {
      current = null;
    }
    if (current !== SCRIPT) {
      const temp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(temp, SCRIPT, { mode: 0o700 });
      fs.renameSync(temp, file);
    }
    this.scriptPath = file;
    return file;
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const send = (status: number, body: unknown) => {
      if (res.headersSent) return;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const auth = req.headers.authorization ?? '';
    const handler = auth.startsWith('Bearer ') ? this.handlers.get(auth.slice(7)) : undefined;
    if (req.method !== 'POST' || (req.url ?? '') !== '/hook') return send(404, { error: 'not found' });
    if (!handler) return send(401, { error: 'unknown session' });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY) return send(413, { error: 'too large' });
      chunks.push(chunk);
    }
    let body: { event?: unknown; input?: unknown };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
    } catch {
      return send(400, { error: 'not JSON' });
    }
    if (typeof body.event !== 'string' || !body.input || typeof body.input !== 'object' || Array.isArray(body.input)) return send(400, { error: 'need {event, input}' });
    try {
      send(200, await handler(body.event, body.input as Record<string, unknown>));
    } catch (error) {
      send(200, { stdout: '', stderr: `Atrium: ${(error as Error).message}`, exitCode: body.event === 'PreToolUse' ? 2 : 1 });
    }
  }
}
