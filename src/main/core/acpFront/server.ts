/**
 * `atrium acp`: Atrium as an ACP agent to an editor (Zed, JetBrains, Neovim/Emacs plugins) and,
 * through its own session runtime, an ACP client to the real agent — the proxy shape ACP's conductor
 * and proxy chains use. Every session the editor opens is an ordinary Atrium session (journaled
 * first, hosted by this process as `acp`, shown read-only in the Sessions view elsewhere, resumable
 * after a crash), so the workspace's folder trust, rule snapshot, approved hooks, first-write barrier
 * and approved MCP servers apply exactly as in sessions Atrium's own UI starts.
 *
 * The editor's session id IS the Atrium session id. Forwarded as they come, in order: prompts (the
 * editor's content blocks), the agent's live `session/update`s, permission requests (the editor
 * answers; recorded as the user's answer), `fs/*` and `terminal/*` to the editor's own implementations
 * when it advertised them (after Atrium's confinement and hooks), modes, config options, cancel.
 * Written against `@agentclientprotocol/sdk` 2.4.0 (ACP v1, app API).
 */
import * as acp from '@agentclientprotocol/sdk';
import type { Session } from '../../../shared/contract';
import { AtriumError } from '../../../shared/errors';
import type { Engine } from '../engine';
import type { ClientIo, HookContext } from '../sessions/hooks';
import { conversationUpdates } from './replay';
import { inactiveNotice, shellArg } from './notice';

/** What {@link serveAcp} needs. */
export interface AcpFrontOptions {
  engine: Engine;
  /** The agent sessions are created with (`atrium agents list`: a preset or a user-defined agent). */
  agentId: string;
  /** The editor's side: newline-delimited JSON-RPC (`acp.ndJsonStream` over stdio). */
  stream: acp.Stream;
  /** Atrium's version, reported as `agentInfo.version`. */
  version: string;
  /** The `--data-dir` given to `atrium acp` (undefined: the default), repeated in the commands the editor is told to run. */
  dataDir?: string;
  /** Where diagnostics go (never stdout: it carries only JSON-RPC). */
  log(message: string): void;
}

/** A session this connection drives. */
interface Attached {
  id: string;
  /** The editor's own MCP servers from its latest `session/new|load|resume` (added to the workspace's approved ones). */
  mcpServers: acp.McpServer[];
  /** Updates held until the editor has the answer that names the session (null = send at once). */
  held: acp.SessionUpdate[] | null;
  /** Permission requests forwarded to the editor and not answered yet, by Atrium request id. */
  permissions: Map<string, AbortController>;
  /** Terminal ids the editor created for this session. */
  editorTerminals: Set<string>;
}

/** Stop reasons ACP knows (Atrium adds `error`, `crashed` and `dropped`, reported as JSON-RPC errors). */
const ACP_STOP_REASONS = new Set(['end_turn', 'max_tokens', 'max_turn_requests', 'refusal', 'cancelled']);

/**
 * Turns an Atrium failure into the JSON-RPC error the editor receives: unknown sessions and folders
 * -32002 (resource not found), refused values -32602, everything else -32603 with Atrium's message
 * (which says what to do next) and its code in `data.code`.
 */
export function toEditorError(error: unknown): acp.RequestError {
  if (error instanceof acp.RequestError) return error;
  if (error instanceof AtriumError) {
    const notFound = ['SESSION_NOT_FOUND', 'NOT_FOUND', 'PATH_NOT_FOUND'].includes(error.code);
    const invalid = ['INVALID_PARAMS', 'PATH_NOT_ABSOLUTE', 'PATH_NOT_DIRECTORY', 'PATH_OUTSIDE_SESSION'].includes(error.code);
    return new acp.RequestError(notFound ? -32002 : invalid ? -32602 : -32603, error.message, { code: error.code });
  }
  return new acp.RequestError(-32603, error instanceof Error ? error.message : String(error));
}

/** Runs a handler, turning any failure into a JSON-RPC error (the editor never sees a crash). */
async function guarded<T>(run: () => Promise<T> | T): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toEditorError(error);
  }
}

/** The modes of a session record in ACP's shape, or undefined when the agent offers none. */
function acpModes(session: Session): acp.SessionModeState | undefined {
  const m = session.modes;
  if (!m) return undefined;
  return { currentModeId: m.currentModeId, availableModes: m.available.map((x) => ({ id: x.id, name: x.name, ...(x.description ? { description: x.description } : {}) })) };
}

/** What lists show of a prompt: its text blocks, else a short description of what it carries. */
function promptText(blocks: acp.ContentBlock[]): string {
  const text = blocks
    .filter((b): b is acp.ContentBlock & { type: 'text' } => b.type === 'text')
    .map((b) => b.text)
    .join('\n');
  if (text.trim()) return text;
  return blocks.map((b) => (b.type === 'resource_link' ? `[${b.name}]` : `[${b.type}]`)).join(' ');
}

/**
 * Serves ACP on `stream` for one editor until the stream closes. Registers hooks on the engine's
 * session runtime for the sessions this connection drives (updates, file and terminal I/O, the
 * editor's MCP servers) and follows the engine's permission pushes for them.
 * @returns the connection; `closed` resolves when the editor went away (the caller then closes the engine)
 */
export function serveAcp(options: AcpFrontOptions): acp.AgentConnection {
  const { engine, agentId, log } = options;
  const attached = new Map<string, Attached>();
  let clientCaps: acp.ClientCapabilities = {};
  let client: acp.AgentContext | null = null;

  const mine = (ctx: HookContext) => attached.get(ctx.session.id) ?? null;

  const send = (a: Attached, update: acp.SessionUpdate) => {
    if (a.held) {
      a.held.push(update);
      return;
    }
    client?.notify(acp.methods.client.session.update, { sessionId: a.id, update }).catch((error: unknown) => log(`sending session/update failed: ${String(error)}`));
  };

  /** What to do once the answer to an editor request (by JSON-RPC id, JSON-encoded) has been written. */
  const afterAnswer = new Map<string, () => void>();

  /**
   * Sends what was held for `a`, `first` before it, once the answer to request `requestId` (the one
   * naming the session: session/new, load or resume) has been written to the editor's stream. An
   * editor drops updates for a session id it does not know yet, so nothing for the session may
   * overtake that answer; updates keep being held until then, so none overtakes the held ones.
   */
  const release = (a: Attached, requestId: acp.JsonRpcId | undefined, first: acp.SessionUpdate[] = []) => {
    const flush = () => {
      if (attached.get(a.id) !== a) return;
      const held = a.held ?? [];
      a.held = null;
      for (const u of [...first, ...held]) send(a, u);
    };
    if (requestId === undefined) flush();
    else afterAnswer.set(JSON.stringify(requestId), flush);
  };

  /** The editor's stream, reporting each answer once written (the SDK writes messages one at a time, in order). */
  const stream: acp.Stream = {
    readable: options.stream.readable,
    writable: new WritableStream<acp.AnyMessage>({
      async write(message) {
        const writer = options.stream.writable.getWriter();
        try {
          await writer.write(message);
        } finally {
          writer.releaseLock();
        }
        if ('id' in message && !('method' in message)) {
          const key = JSON.stringify(message.id);
          const then = afterAnswer.get(key);
          afterAnswer.delete(key);
          then?.();
        }
      },
      close: () => options.stream.writable.close(),
      abort: (reason) => options.stream.writable.abort(reason),
    }),
  };

  const editorIo = (a: Attached): ClientIo | null => {
    const c = client;
    if (!c) return null;
    const io: ClientIo = {};
    if (clientCaps.fs?.readTextFile) {
      io.readTextFile = async (p) => (await c.request(acp.methods.client.fs.readTextFile, { sessionId: a.id, path: p.path, ...(p.line != null ? { line: p.line } : {}), ...(p.limit != null ? { limit: p.limit } : {}) })).content;
    }
    if (clientCaps.fs?.writeTextFile) {
      io.writeTextFile = async (p) => {
        await c.request(acp.methods.client.fs.writeTextFile, { sessionId: a.id, path: p.path, content: p.content });
      };
    }
    if (clientCaps.terminal) {
      io.terminals = {
        create: async (p) => {
          const { terminalId } = await c.request(acp.methods.client.terminal.create, { ...p, sessionId: a.id });
          a.editorTerminals.add(terminalId);
          return terminalId;
        },
        owns: (terminalId) => a.editorTerminals.has(terminalId),
        output: (terminalId) => c.request(acp.methods.client.terminal.output, { sessionId: a.id, terminalId }),
        waitForExit: (terminalId) => c.request(acp.methods.client.terminal.waitForExit, { sessionId: a.id, terminalId }),
        kill: async (terminalId) => {
          await c.request(acp.methods.client.terminal.kill, { sessionId: a.id, terminalId });
        },
        release: async (terminalId) => {
          a.editorTerminals.delete(terminalId);
          await c.request(acp.methods.client.terminal.release, { sessionId: a.id, terminalId });
        },
      };
    }
    return Object.keys(io).length ? io : null;
  };

  const removeHooks = engine.sessions.addHooks({
    onSessionUpdate(ctx, update) {
      const a = mine(ctx);
      if (a) send(a, update);
    },
    clientIo(ctx) {
      const a = mine(ctx);
      return a ? editorIo(a) : null;
    },
    beforeSessionSetup(ctx, _method, params) {
      const a = mine(ctx);
      if (!a?.mcpServers.length) return params;
      // the editor's own servers (the user's) next to the workspace's approved ones; same name: the editor's
      const names = new Set(a.mcpServers.map((s) => s.name));
      return { ...params, mcpServers: [...(params.mcpServers ?? []).filter((s) => !names.has(s.name)), ...a.mcpServers] };
    },
  });

  const rawPermission = (sessionId: string, requestId: string): { toolCall: acp.ToolCallUpdate; options: acp.PermissionOption[] } | null => {
    const row = engine.store.db
      .prepare("SELECT data FROM session_events WHERE session_id = ? AND kind = 'permission_requested' AND json_extract(data, '$.requestId') = ? ORDER BY seq DESC LIMIT 1")
      .get(sessionId, requestId) as { data: string } | undefined;
    if (!row) return null;
    try {
      const d = JSON.parse(row.data) as { toolCall: acp.ToolCallUpdate; options: acp.PermissionOption[] };
      return { toolCall: d.toolCall, options: d.options };
    } catch {
      return null;
    }
  };

  /** Records the editor's answer: an option is the user's choice; `cancelled` is what ACP clients answer when the turn is cancelled. */
  const answer = (a: Attached, requestId: string, optionId: string | null) => {
    try {
      engine.sessions.answerPermission(a.id, requestId, optionId, optionId === null ? 'cancel' : 'user');
    } catch (error) {
      // answered meanwhile (cancel, a hook, shutdown): nothing to do
      if (!(error instanceof AtriumError)) log(`answering permission ${requestId} failed: ${String(error)}`);
    }
  };

  const forwardPermission = (a: Attached, requestId: string) => {
    const c = client;
    if (!c || a.permissions.has(requestId)) return;
    const raw = rawPermission(a.id, requestId);
    if (!raw) return;
    const ac = new AbortController();
    a.permissions.set(requestId, ac);
    c.request(acp.methods.client.session.requestPermission, { sessionId: a.id, toolCall: raw.toolCall, options: raw.options }, { cancellationSignal: ac.signal })
      .then((res) => answer(a, requestId, res?.outcome?.outcome === 'selected' ? res.outcome.optionId : null))
      .catch((error: unknown) => {
        if (!ac.signal.aborted) {
          log(`the editor failed a permission request: ${String(error)}`);
          answer(a, requestId, null);
        }
      })
      .finally(() => a.permissions.delete(requestId));
  };

  const unsubscribe = engine.bus.subscribe((event, payload) => {
    if (event === 'permissionRequested') {
      const p = payload as { sessionId: string; permission: { requestId: string; state: string } };
      const a = attached.get(p.sessionId);
      if (a && p.permission.state === 'pending') forwardPermission(a, p.permission.requestId);
    } else if (event === 'sessionEvent') {
      const p = payload as { sessionId: string; items: Array<{ kind: string; requestId?: string; state?: string }> };
      const a = attached.get(p.sessionId);
      if (!a || !a.permissions.size) return;
      // answered elsewhere (cancel, an approved hook, shutdown): withdraw the editor's question
      for (const item of p.items) {
        if (item.kind !== 'permission' || item.state === 'pending' || !item.requestId) continue;
        const ac = a.permissions.get(item.requestId);
        if (ac) {
          a.permissions.delete(item.requestId);
          ac.abort();
        }
      }
    }
  });

  const attach = (id: string, mcpServers: acp.McpServer[] | undefined): Attached => {
    const existing = attached.get(id);
    if (existing) {
      existing.mcpServers = mcpServers ?? [];
      existing.held ??= [];
      return existing;
    }
    const a: Attached = { id, mcpServers: mcpServers ?? [], held: [], permissions: new Map(), editorTerminals: new Set() };
    attached.set(id, a);
    return a;
  };

  const detach = (id: string) => {
    const a = attached.get(id);
    if (!a) return;
    attached.delete(id);
    for (const ac of a.permissions.values()) ac.abort();
  };

  const attachedOr404 = (sessionId: string): Attached => {
    const a = attached.get(sessionId);
    if (!a) throw new acp.RequestError(-32002, `Session ${sessionId} is not open on this connection: open it with session/new or session/load first.`);
    return a;
  };

  /** Starts (or re-attaches) the agent; a failure detaches and reaches the editor with Atrium's message. */
  const start = async (a: Attached): Promise<Session> => {
    try {
      await engine.sessions.load(a.id).ensureStarted();
    } catch (error) {
      detach(a.id);
      const s = engine.sessions.load(a.id).summary();
      throw new acp.RequestError(-32603, s.lastError ?? (error instanceof Error ? error.message : String(error)), { code: error instanceof AtriumError ? error.code : 'AGENT_START_FAILED', state: s.state });
    }
    return engine.sessions.load(a.id).summary();
  };

  /**
   * Refuses to open a session when the agent cannot be launched (not installed, no Node to run it):
   * the editor shows the message, which names the command that installs it (with this data
   * directory), and the connection keeps serving so it can retry after installing.
   */
  const agentReady = () => {
    try {
      engine.sessions.agents.resolve(agentId);
    } catch (error) {
      const e = toEditorError(error);
      const dd = options.dataDir ? ` --data-dir ${shellArg(options.dataDir)}` : '';
      const install = `atrium agents install ${agentId}`;
      const message = e.message.includes(install) ? e.message.replace(install, `${install}${dd}`) : e.message;
      throw new acp.RequestError(e.code, message, e.data);
    }
  };

  const sessionAnswer = (s: Session) => ({ ...(acpModes(s) ? { modes: acpModes(s) } : {}), ...(s.configOptions.length ? { configOptions: s.configOptions as acp.SessionConfigOption[] } : {}) });

  const noticeUpdates = (a: Attached, cwd: string): acp.SessionUpdate[] => {
    try {
      const text = inactiveNotice(engine.policy.view(a.id), cwd, options.dataDir);
      return text ? [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `${text}\n\n` } }] : [];
    } catch (error) {
      log(`describing the session's policy failed: ${String(error)}`);
      return [];
    }
  };

  /** The last error a turn ended with (its `turn_end`), or the session's. */
  const turnError = (sessionId: string): string => {
    const row = engine.store.db.prepare("SELECT data FROM session_events WHERE session_id = ? AND kind = 'turn_end' ORDER BY seq DESC LIMIT 1").get(sessionId) as { data: string } | undefined;
    try {
      const e = row ? (JSON.parse(row.data) as { error?: string | null }).error : null;
      if (e) return e;
    } catch {
      // fall through
    }
    return engine.sessions.load(sessionId).summary().lastError ?? 'The turn failed.';
  };

  const lastKnownCapabilities = () => {
    try {
      return engine.sessions.list({ limit: 50 }).find((s) => s.agentId === agentId && s.capabilities)?.capabilities ?? null;
    } catch {
      return null;
    }
  };

  const app = acp
    .agent({ name: 'atrium' })
    .onRequest(acp.methods.agent.initialize, ({ params }) => {
      clientCaps = params.clientCapabilities ?? {};
      // prompt content beyond text and links only when this agent is known to take it
      const known = lastKnownCapabilities();
      const promptCapabilities: acp.PromptCapabilities = { ...(known?.image ? { image: true } : {}), ...(known?.audio ? { audio: true } : {}), ...(known?.embeddedContext ? { embeddedContext: true } : {}) };
      return {
        protocolVersion: acp.PROTOCOL_VERSION,
        agentCapabilities: {
          // Atrium replays every session it journaled, whatever the agent supports
          loadSession: true,
          promptCapabilities,
          sessionCapabilities: { list: {}, resume: {}, close: {}, ...(known?.additionalDirectories ? { additionalDirectories: {} } : {}) },
        },
        agentInfo: { name: 'atrium', title: `Atrium (${agentId})`, version: options.version },
        authMethods: [],
      };
    })
    .onRequest(acp.methods.agent.session.new, ({ params, requestId }) =>
      guarded(async () => {
        agentReady();
        const created = engine.sessions.create({ cwd: params.cwd, agentId, additionalDirectories: params.additionalDirectories ?? undefined });
        const a = attach(created.id, params.mcpServers);
        const s = await start(a);
        release(a, requestId, noticeUpdates(a, s.cwd));
        return { sessionId: s.id, ...sessionAnswer(s) };
      }),
    )
    .onRequest(acp.methods.agent.session.load, ({ params, client: c, requestId }) =>
      guarded(async () => {
        agentReady();
        engine.sessions.loadForWrite(params.sessionId);
        const a = attach(params.sessionId, params.mcpServers);
        // the whole conversation, from Atrium's journal, before the answer (ACP session/load)
        for (const update of conversationUpdates(engine.store, a.id)) await c.notify(acp.methods.client.session.update, { sessionId: a.id, update });
        const s = await start(a);
        release(a, requestId);
        return sessionAnswer(s);
      }),
    )
    .onRequest(acp.methods.agent.session.resume, ({ params, requestId }) =>
      guarded(async () => {
        agentReady();
        engine.sessions.loadForWrite(params.sessionId);
        const a = attach(params.sessionId, params.mcpServers ?? undefined);
        const s = await start(a);
        release(a, requestId);
        return sessionAnswer(s);
      }),
    )
    .onRequest(acp.methods.agent.session.list, ({ params }) =>
      guarded(() => {
        const sessions = engine.sessions
          .list(params.cwd ? { cwd: params.cwd } : {})
          .filter((s) => s.agentId === agentId)
          .map((s) => ({ sessionId: s.id, cwd: s.cwd, title: s.title, updatedAt: s.updatedAt }));
        return { sessions };
      }),
    )
    .onRequest(acp.methods.agent.session.close, ({ params }) =>
      guarded(async () => {
        attachedOr404(params.sessionId);
        detach(params.sessionId);
        await engine.sessions.closeSession(params.sessionId);
        return {};
      }),
    )
    .onRequest(acp.methods.agent.session.prompt, ({ params }) =>
      guarded(async () => {
        const a = attachedOr404(params.sessionId);
        const { promptId } = engine.sessions.prompt(a.id, promptText(params.prompt), undefined, params.prompt);
        const stop = await engine.sessions.waitForTurn(a.id, promptId);
        if (ACP_STOP_REASONS.has(stop)) return { stopReason: stop as acp.StopReason };
        // dropped: cancelled before it ran (session/cancel clears the queue), or the agent could not start
        if (stop === 'dropped') {
          const s = engine.sessions.load(a.id).summary();
          if (s.state !== 'failed' && s.state !== 'paused') return { stopReason: 'cancelled' as const };
          throw new acp.RequestError(-32603, s.lastError ?? 'The agent could not start.', { code: 'AGENT_START_FAILED', state: s.state });
        }
        throw new acp.RequestError(-32603, turnError(a.id), { code: stop === 'crashed' ? 'AGENT_CRASHED' : 'AGENT_ERROR' });
      }),
    )
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      if (!attached.has(params.sessionId)) return;
      try {
        engine.sessions.cancel(params.sessionId, true);
      } catch (error) {
        log(`cancelling ${params.sessionId} failed: ${String(error)}`);
      }
    })
    .onRequest(acp.methods.agent.session.setMode, ({ params }) =>
      guarded(async () => {
        attachedOr404(params.sessionId);
        await engine.sessions.setMode(params.sessionId, params.modeId);
        return {};
      }),
    )
    .onRequest(acp.methods.agent.session.setConfigOption, ({ params }) =>
      guarded(async () => {
        attachedOr404(params.sessionId);
        const s = await engine.sessions.setConfigOption(params.sessionId, params.configId, params.value);
        return { configOptions: s.configOptions as acp.SessionConfigOption[] };
      }),
    );

  const connection = app.connect(stream);
  client = connection.client;
  void connection.closed.finally(() => {
    removeHooks();
    unsubscribe();
    for (const id of [...attached.keys()]) detach(id);
  });
  return connection;
}
