import type * as acp from '@agentclientprotocol/sdk';
import type { LaunchSpec } from './supervisor';
import type { SessionRecord } from './records';

/** What a hook sees of the session it runs for (read-only snapshot of the record). */
export interface HookContext {
  readonly session: Readonly<SessionRecord>;
}

/** A hook's verdict on an action: allow, or deny with a message the agent receives. */
export type HookVerdict = { allow: true } | { allow: false; message: string };

/**
 * Seams where later capabilities plug into the session runtime (issue 8: rules injection, hooks
 * around tools, snapshots, worktrees). Every hook is optional and may be async; hooks run in
 * registration order, each receiving the previous one's output. A hook that throws fails the
 * action it guards (the agent gets an error), never the engine.
 */
export interface SessionHooks {
  /** Before the agent process is spawned: adjust command, args, env or cwd (e.g. a worktree). */
  beforeSpawn?(ctx: HookContext, launch: LaunchSpec): LaunchSpec | Promise<LaunchSpec>;
  /**
   * Before `session/new`, `session/load` or `session/resume` is sent: add `_meta` (e.g. Claude's
   * `systemPrompt.append`, `settings.hooks`), MCP servers or additional directories.
   */
  beforeSessionSetup?(
    ctx: HookContext,
    method: 'new' | 'load' | 'resume',
    params: acp.NewSessionRequest,
  ): acp.NewSessionRequest | Promise<acp.NewSessionRequest>;
  /** Before a prompt is sent: rewrite or extend its content blocks (e.g. contextual rules). */
  beforePrompt?(ctx: HookContext, prompt: acp.ContentBlock[]): acp.ContentBlock[] | Promise<acp.ContentBlock[]>;
  /** Before `fs/read_text_file` is answered (path already confined). */
  beforeRead?(ctx: HookContext, path: string): HookVerdict | Promise<HookVerdict>;
  /** Before `fs/write_text_file` writes (path already confined): deny, or snapshot first. */
  beforeWrite?(ctx: HookContext, path: string, content: string): HookVerdict | Promise<HookVerdict>;
  /** Before a terminal command starts. */
  beforeTerminal?(ctx: HookContext, command: string, args: string[], cwd: string): HookVerdict | Promise<HookVerdict>;
  /** Observes every tool call / tool call update the agent reports (after it is durable). */
  onToolCall?(ctx: HookContext, update: acp.ToolCall | acp.ToolCallUpdate): void;
  /**
   * A permission request arrived (already persisted as pending): return an option id to answer it
   * on the user's behalf (recorded as answered by `hook`), or null to let the user decide.
   */
  onPermissionRequest?(ctx: HookContext, request: acp.RequestPermissionRequest): string | null | Promise<string | null>;
  /** After a turn ended (its events durable). */
  afterTurn?(ctx: HookContext, stopReason: string): void;
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

  async beforeSessionSetup(ctx: HookContext, method: 'new' | 'load' | 'resume', params: acp.NewSessionRequest): Promise<acp.NewSessionRequest> {
    for (const h of this.hooks) if (h.beforeSessionSetup) params = await h.beforeSessionSetup(ctx, method, params);
    return params;
  }

  async beforePrompt(ctx: HookContext, prompt: acp.ContentBlock[]): Promise<acp.ContentBlock[]> {
    for (const h of this.hooks) if (h.beforePrompt) prompt = await h.beforePrompt(ctx, prompt);
    return prompt;
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
