import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import { repoRoot } from './corpus';

const ENTRY = path.join(repoRoot, 'src/main/cli/entry.ts');

/** How the test editor answers the agent's requests (what a real editor would do). */
export interface EditorBehaviour {
  /** Answers a permission request (default: the first allow_once option). */
  permission?(params: acp.RequestPermissionRequest): acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse>;
  /** Advertise and serve `fs/read_text_file` with this (default: not advertised). */
  readTextFile?(params: acp.ReadTextFileRequest): string | Promise<string>;
  /** Advertise and serve `fs/write_text_file` (the editor's buffers); the requests are recorded in `writes`. */
  writeTextFile?: boolean;
  /** Advertise terminals and run each as this fixed result (exit code and output), recording the requests. */
  terminal?: { exitCode: number; output: string };
}

/** An editor driving `atrium acp` over stdio with the ACP SDK's client side (as Zed would). */
export interface TestEditor {
  child: ChildProcess;
  conn: acp.ClientConnection;
  /** Every `session/update` received, in order, by session id. */
  updates: Map<string, acp.SessionUpdate[]>;
  /** Every permission request received. */
  permissions: acp.RequestPermissionRequest[];
  /** Every `fs/read_text_file` request received. */
  reads: acp.ReadTextFileRequest[];
  /** Every `fs/write_text_file` request received. */
  writes: acp.WriteTextFileRequest[];
  /** Every `terminal/*` request received: method and params. */
  terminals: Array<{ method: string; params: { terminalId?: string; command?: string } }>;
  /** Text of the agent message chunks received for a session so far. */
  agentText(sessionId: string): string;
  stderr(): string;
  /** Resolves once the process exited. */
  exited: Promise<{ status: number | null; signal: NodeJS.Signals | null }>;
  initialize(): Promise<acp.InitializeResponse>;
}

const running: ChildProcess[] = [];

/**
 * Starts `atrium acp --agent AGENT --data-dir DATA` from source (`node --import tsx`), with `env`
 * as its whole environment, and connects the SDK's client app to its stdio.
 */
export function startEditor(dataDir: string, agent: string, env: NodeJS.ProcessEnv, behaviour: EditorBehaviour = {}): TestEditor {
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, 'acp', '--agent', agent, '--data-dir', dataDir], { cwd: repoRoot, env, stdio: ['pipe', 'pipe', 'pipe'] });
  running.push(child);
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ status: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (status, signal) => resolve({ status, signal })));
  const updates = new Map<string, acp.SessionUpdate[]>();
  const permissions: acp.RequestPermissionRequest[] = [];
  const reads: acp.ReadTextFileRequest[] = [];
  let app = acp
    .client({ name: 'test-editor' })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      const list = updates.get(params.sessionId) ?? [];
      list.push(params.update);
      updates.set(params.sessionId, list);
    })
    .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
      permissions.push(params);
      if (behaviour.permission) return behaviour.permission(params);
      const allow = params.options.find((o) => o.kind === 'allow_once') ?? params.options[0];
      return { outcome: { outcome: 'selected', optionId: allow.optionId } };
    });
  if (behaviour.readTextFile) {
    const read = behaviour.readTextFile;
    app = app.onRequest(acp.methods.client.fs.readTextFile, async ({ params }) => {
      reads.push(params);
      return { content: await read(params) };
    });
  }
  const writes: acp.WriteTextFileRequest[] = [];
  if (behaviour.writeTextFile) {
    app = app.onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
      writes.push(params);
      return {};
    });
  }
  const terminals: TestEditor['terminals'] = [];
  if (behaviour.terminal) {
    const t = behaviour.terminal;
    app = app
      .onRequest(acp.methods.client.terminal.create, ({ params }) => {
        terminals.push({ method: 'create', params });
        return { terminalId: `editor-term-${terminals.length}` };
      })
      .onRequest(acp.methods.client.terminal.output, ({ params }) => {
        terminals.push({ method: 'output', params });
        return { output: t.output, truncated: false, exitStatus: { exitCode: t.exitCode } };
      })
      .onRequest(acp.methods.client.terminal.waitForExit, ({ params }) => {
        terminals.push({ method: 'wait_for_exit', params });
        return { exitCode: t.exitCode };
      })
      .onRequest(acp.methods.client.terminal.kill, ({ params }) => {
        terminals.push({ method: 'kill', params });
        return {};
      })
      .onRequest(acp.methods.client.terminal.release, ({ params }) => {
        terminals.push({ method: 'release', params });
        return {};
      });
  }
  const conn = app.connect(acp.ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>));
  return {
    child,
    conn,
    updates,
    permissions,
    reads,
    writes,
    terminals,
    agentText: (sessionId) =>
      (updates.get(sessionId) ?? [])
        .filter((u): u is acp.SessionUpdate & { sessionUpdate: 'agent_message_chunk' } => u.sessionUpdate === 'agent_message_chunk')
        .map((u) => (u.content.type === 'text' ? u.content.text : ''))
        .join(''),
    stderr: () => err,
    exited,
    initialize: () =>
      conn.agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {
          ...(behaviour.readTextFile || behaviour.writeTextFile ? { fs: { readTextFile: Boolean(behaviour.readTextFile), writeTextFile: Boolean(behaviour.writeTextFile) } } : {}), ...(behaviour.terminal ? { terminal: true } : {}) },
        clientInfo: { name: 'test-editor', version: '1.0.0' },
      }),
  };
}

/** Kills every `atrium acp` still running (SIGTERM) and waits for them; for `afterEach`. */
export async function stopEditors(): Promise<void> {
  await Promise.all(
    running.splice(0).map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
}
