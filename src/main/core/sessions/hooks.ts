import type * as acp from '@agentclientprotocol/sdk';
import type { ResumeOutcome } from '../../../shared/contract';
import type { JournalEvent } from './events';
import type { LaunchSpec } from './supervisor';
import type { SessionRecord } from './records';
import type { WorktreeInfo } from './workspacePolicy/worktree';

/** What a hook sees of the session it runs for (read-only snapshot of the record). */
export interface HookContext {
  readonly session: Readonly<SessionRecord>;
  /** Appends to the session's journal (e.g. a policy notice); failures are logged, never thrown. */
  append(event: JournalEvent): void;
}

/**
 * Another implementation of the client's file and terminal I/O for one session: the editor's own
 * when an editor drives the session through `atrium acp` and advertised them. Atrium still
 * confines paths, asks the hooks (the first-write barrier included) and journals every call; only
 * the reading, writing and running happens here. A missing member means Atrium's own.
 */
export interface ClientIo {
  /** Reads a text file (absolute, already confined); errors reach the agent as they are. */
  readTextFile?(params: { path: string; line?: number | null; limit?: number | null }): Promise<string>;
  /** Writes a text file (absolute, already confined). */
  writeTextFile?(params: { path: string; content: string }): Promise<void>;
  /** Terminals (cwd already confined); ids are the implementation's own. */
  terminals?: {
    create(params: acp.CreateTerminalRequest & { cwd: string }): Promise<string>;
    /** True for ids `create` returned (other ids are Atrium's own terminals). */
    owns(terminalId: string): boolean;
    output(terminalId: string): Promise<acp.TerminalOutputResponse>;
    waitForExit(terminalId: string): Promise<acp.WaitForTerminalExitResponse>;
    kill(terminalId: string): Promise<void>;
    release(terminalId: string): Promise<void>;
  };
}

/**
 * What `afterAttach` learns and may do: how the agent session was attached, and the live agent's
 * settings (`session/set_config_option`, `session/set_mode`; both throw AtriumError
 * AGENT_UNSUPPORTED | AGENT_ERROR), e.g. to select the workspace's default model.
 */
export interface AttachInfo {
  via: 'new' | 'load' | 'resume';
  outcome: ResumeOutcome | 'new';
  setConfigOption?(configId: string, value: string | boolean): Promise<void>;
  setMode?(modeId: string): Promise<void>;
}

/** Why an agent process stopped (see {@link SessionHooks.onAgentStopped}). */
export type AgentStopReason = 'closed' | 'idle' | 'quit' | 'crashed';

/**
 * A hook's verdict on an action: allow, or deny with a message the agent receives; `transcript`
 * (optional) is what the transcript records instead (e.g. without the rule bodies the agent gets).
 */
export type HookVerdict = { allow: true } | { allow: false; message: string; transcript?: string };

/**
 * Seams where later capabilities plug into the session runtime (rules injection, hooks
 * around tools, snapshots, worktrees). Every hook is optional and may be async; hooks run in
 * registration order, each receiving the previous one's output. A hook that throws fails the
 * action it guards (the agent gets an error), never the engine.
 */
export interface SessionHooks {
  /**
   * A session record was just created (synchronously, before its agent starts): `sourceDir` is the
   * workspace folder it belongs to, `worktree` the execution worktree when it runs in one.
   */
  onCreated?(ctx: HookContext, info: { sourceDir: string; worktree: WorktreeInfo | null }): void;
  /**
   * Before the agent process is spawned: adjust command, args, env or cwd (e.g. a worktree). A hook
   * that throws fails the start (state `failed`, its message as `lastError`): fail closed.
   */
  beforeSpawn?(ctx: HookContext, launch: LaunchSpec): LaunchSpec | Promise<LaunchSpec>;
  /**
   * The client capabilities Atrium advertises to this agent at `initialize` (synchronous; e.g. an
   * agent that cannot tell a missing file from a failed `fs/read_text_file` reads from disk itself).
   */
  clientCapabilities?(ctx: HookContext, capabilities: acp.ClientCapabilities): acp.ClientCapabilities;
  /**
   * Before `session/new`, `session/load` or `session/resume` is sent: add `_meta` (e.g. Claude's
   * `systemPrompt.append`, `settings.hooks`), MCP servers or additional directories.
   */
  beforeSessionSetup?(
    ctx: HookContext,
    method: 'new' | 'load' | 'resume',
    params: acp.NewSessionRequest,
  ): acp.NewSessionRequest | Promise<acp.NewSessionRequest>;
  /**
   * After the agent session was created or re-attached (`via` new/load/resume, `outcome` `new` or
   * the resume outcome), before the session becomes idle. Awaited; a throw is logged, not fatal.
   */
  afterAttach?(ctx: HookContext, info: AttachInfo): void | Promise<void>;
  /**
   * Before a prompt is sent: rewrite or extend its content blocks (e.g. contextual rules). A throw
   * stops the prompt (turn ends `error` with the message), e.g. a blocking UserPromptSubmit hook.
   */
  beforePrompt?(ctx: HookContext, prompt: acp.ContentBlock[], info: { promptId: string; text: string }): acp.ContentBlock[] | Promise<acp.ContentBlock[]>;
  /** Before `fs/read_text_file` is answered (path already confined). */
  beforeRead?(ctx: HookContext, path: string): HookVerdict | Promise<HookVerdict>;
  /** Before `fs/write_text_file` writes (path already confined): deny, or snapshot first. */
  beforeWrite?(ctx: HookContext, path: string, content: string): HookVerdict | Promise<HookVerdict>;
  /** After `fs/write_text_file` wrote (`error` null) or failed to write; awaited before the agent gets the answer. */
  afterWrite?(ctx: HookContext, path: string, content: string, error: string | null): void | Promise<void>;
  /** Before a terminal command starts. */
  beforeTerminal?(ctx: HookContext, command: string, args: string[], cwd: string): HookVerdict | Promise<HookVerdict>;
  /** Observes every tool call / tool call update the agent reports (after it is durable). */
  onToolCall?(ctx: HookContext, update: acp.ToolCall | acp.ToolCallUpdate): void;
  /**
   * Observes every live `session/update` the agent sends (not a `session/load` replay), in order,
   * after it is durable (e.g. `atrium acp` forwards it to the editor). Synchronous.
   */
  onSessionUpdate?(ctx: HookContext, update: acp.SessionUpdate): void;
  /** The file and terminal I/O of this session when not Atrium's own (see {@link ClientIo}); the first non-null wins. */
  clientIo?(ctx: HookContext): ClientIo | null;
  /**
   * A permission request arrived (already persisted as pending): return an option id to answer it
   * on the user's behalf (recorded as answered by `hook`), or null to let the user decide.
   */
  onPermissionRequest?(ctx: HookContext, request: acp.RequestPermissionRequest): string | null | Promise<string | null>;
  /** After a turn ended (its events durable). */
  afterTurn?(ctx: HookContext, stopReason: string): void;
  /** The agent process is gone: closed by the user, idle shutdown, Atrium quitting, or a crash. */
  onAgentStopped?(ctx: HookContext, reason: AgentStopReason): void | Promise<void>;
}

/** Runs a list of hooks as one. */
export class HookChain {
  private readonly hooks: SessionHooks[] = [];

  /** Adds hooks; returns a function that removes them. */
  add(hooks: SessionHooks): () => void {
    this.hooks.push(hooks);
    return () => {
      const i = this.hooks.indexOf(hooks);
      if (i >= 0) this.hooks.splice(i, 1);
    };
  }

  async beforeSpawn(ctx: HookContext, launch: LaunchSpec): Promise<LaunchSpec> {
    for (const h of this.hooks) if (h.beforeSpawn) launch = await h.beforeSpawn(ctx, launch);
    return launch;
  }

  /** Each hook's `clientCapabilities` in turn (a throw is logged and that hook's change skipped). */
  clientCapabilities(ctx: HookContext, capabilities: acp.ClientCapabilities): acp.ClientCapabilities {
    for (const h of this.hooks) {
      try {
        if (h.clientCapabilities) capabilities = h.clientCapabilities(ctx, capabilities);
      } catch (error) {
        console.error('[atrium] clientCapabilities hook failed:', error);
      }
    }
    return capabilities;
  }

  async beforeSessionSetup(ctx: HookContext, method: 'new' | 'load' | 'resume', params: acp.NewSessionRequest): Promise<acp.NewSessionRequest> {
    for (const h of this.hooks) if (h.beforeSessionSetup) params = await h.beforeSessionSetup(ctx, method, params);
    return params;
  }

  onCreated(ctx: HookContext, info: { sourceDir: string; worktree: WorktreeInfo | null }): void {
    for (const h of this.hooks) {
      try {
        h.onCreated?.(ctx, info);
      } catch (error) {
        console.error('[atrium] onCreated hook failed:', error);
      }
    }
  }

  async afterAttach(ctx: HookContext, info: AttachInfo): Promise<void> {
    for (const h of this.hooks) {
      try {
        await h.afterAttach?.(ctx, info);
      } catch (error) {
        console.error('[atrium] afterAttach hook failed:', error);
      }
    }
  }

  async beforePrompt(ctx: HookContext, prompt: acp.ContentBlock[], info: { promptId: string; text: string }): Promise<acp.ContentBlock[]> {
    for (const h of this.hooks) if (h.beforePrompt) prompt = await h.beforePrompt(ctx, prompt, info);
    return prompt;
  }

  async afterWrite(ctx: HookContext, path: string, content: string, error: string | null): Promise<void> {
    for (const h of this.hooks) {
      try {
        await h.afterWrite?.(ctx, path, content, error);
      } catch (e) {
        console.error('[atrium] afterWrite hook failed:', e);
      }
    }
  }

  async onAgentStopped(ctx: HookContext, reason: AgentStopReason): Promise<void> {
    for (const h of this.hooks) {
      try {
        await h.onAgentStopped?.(ctx, reason);
      } catch (error) {
        console.error('[atrium] onAgentStopped hook failed:', error);
      }
    }
  }

  async verdict(run: (h: SessionHooks) => HookVerdict | Promise<HookVerdict> | undefined): Promise<HookVerdict> {
    for (const h of this.hooks) {
      const v = await run(h);
      if (v && !v.allow) return v;
    }
    return { allow: true };
  }

  onToolCall(ctx: HookContext, update: acp.ToolCall | acp.ToolCallUpdate): void {
    for (const h of this.hooks) {
      try {
        h.onToolCall?.(ctx, update);
      } catch (error) {
        console.error('[atrium] onToolCall hook failed:', error);
      }
    }
  }

  onSessionUpdate(ctx: HookContext, update: acp.SessionUpdate): void {
    for (const h of this.hooks) {
      try {
        h.onSessionUpdate?.(ctx, update);
      } catch (error) {
        console.error('[atrium] onSessionUpdate hook failed:', error);
      }
    }
  }

  /** The first hook's file and terminal I/O for this session, or null (Atrium's own). */
  clientIo(ctx: HookContext): ClientIo | null {
    for (const h of this.hooks) {
      const io = h.clientIo?.(ctx);
      if (io) return io;
    }
    return null;
  }

  async onPermissionRequest(ctx: HookContext, request: acp.RequestPermissionRequest): Promise<string | null> {
    for (const h of this.hooks) {
      if (!h.onPermissionRequest) continue;
      const answer = await h.onPermissionRequest(ctx, request);
      if (answer) return answer;
    }
    return null;
  }

  afterTurn(ctx: HookContext, stopReason: string): void {
    for (const h of this.hooks) {
      try {
        h.afterTurn?.(ctx, stopReason);
      } catch (error) {
        console.error('[atrium] afterTurn hook failed:', error);
      }
    }
  }
}
