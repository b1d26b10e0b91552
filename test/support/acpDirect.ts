import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';

/** What {@link runAgentDirect} needs: the agent's command line, its folder and its environment. */
export interface DirectAgentLaunch {
  command: string;
  args: readonly string[];
  /** The agent's working folder and the session's `cwd`. */
  cwd: string;
  /** The whole environment of the agent process (nothing is inherited). */
  env: Record<string, string>;
  /** Client capabilities to advertise (default: none, so the agent reads and runs by itself). */
  capabilities?: acp.ClientCapabilities;
  /** Prompts sent one after the other in one session. */
  prompts: readonly string[];
  /** Overall limit in ms (default 120 s). */
  timeoutMs?: number;
}

/** What one direct run saw. */
export interface DirectAgentRun {
  stopReasons: string[];
  updates: acp.SessionNotification[];
  stderr: string;
}

/**
 * Runs a real ACP agent with no Atrium in between (ACP SDK 2.4.0 client API): `initialize`,
 * `session/new` in `cwd` with no MCP servers, then each prompt. Every permission request is
 * answered with its first allow option; file-system requests are served from the disk when the
 * capabilities advertise them. The agent's own loading of instruction files is what the run shows,
 * which is what the conformance tests compare with Atrium's agent views.
 * @throws Error with the agent's stderr when it exits early or the run times out.
 */
export async function runAgentDirect(launch: DirectAgentLaunch): Promise<DirectAgentRun> {
  // Its own process group, so the agent's children (Claude's CLI, Codex's app-server) stop with it.
  const child: ChildProcess = spawn(launch.command, [...launch.args], { cwd: launch.cwd, env: launch.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += String(d)));
  const exited = new Promise<never>((_, reject) => child.once('exit', (code, signal) => reject(new Error(`agent exited (${code ?? signal}) before the run ended:\n${stderr}`))));
  const updates: acp.SessionNotification[] = [];
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>);
  const conn = acp
    .client({ name: 'atrium-conformance' })
    .onNotification(acp.methods.client.session.update, ({ params }) => void updates.push(params))
    .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
      const allow = params.options.find((o) => o.kind === 'allow_once' || o.kind === 'allow_always') ?? params.options[0];
      return { outcome: { outcome: 'selected', optionId: allow.optionId } };
    })
    .onRequest(acp.methods.client.fs.readTextFile, async ({ params }) => ({ content: await fs.readFile(params.path, 'utf8') }))
    .onRequest(acp.methods.client.fs.writeTextFile, async ({ params }) => {
      await fs.writeFile(params.path, params.content);
      return {};
    })
    .connect(stream);
  const run = (async () => {
    await conn.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: launch.capabilities ?? {} });
    const session = await conn.agent.request(acp.methods.agent.session.new, { cwd: launch.cwd, mcpServers: [] });
    const stopReasons: string[] = [];
    for (const text of launch.prompts) {
      const res = await conn.agent.request(acp.methods.agent.session.prompt, { sessionId: session.sessionId, prompt: [{ type: 'text', text }] });
      stopReasons.push(res.stopReason);
    }
    return stopReasons;
  })();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`agent run timed out:\n${stderr}`)), launch.timeoutMs ?? 120_000);
  });
  try {
    const stopReasons = await Promise.race([run, exited, timeout]);
    return { stopReasons, updates, stderr };
  } finally {
    clearTimeout(timer);
    await stopGroup(child, gone);
  }
}

/**
 * Stops the agent's whole process group and waits until it is gone (SIGTERM, then SIGKILL after
 * 3 s), so no agent process still writes into the test's temp folders when they are removed.
 */
async function stopGroup(child: ChildProcess, gone: Promise<void>): Promise<void> {
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  const exited = await Promise.race([gone.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 3000))]);
  // The leader may exit first while its children linger: the group is killed either way.
  signal('SIGKILL');
  if (!exited) await Promise.race([gone, new Promise((r) => setTimeout(r, 2000))]);
}
