import type { HookEvent, HookRunOutcome, SessionHookRun } from '../../../../shared/contract';
import { posixShellJoin } from '../../formats/shell';
import type { HookRunContext, HookService } from '../../hooks/service';

/** A tool call as Claude Code's hooks see it (seed §9, formats.md §2.5): tool name and input. */
export interface ClaudeTool {
  name: string;
  input: Record<string, unknown>;
}

const KIND_TO_TOOL: Record<string, string> = {
  read: 'Read',
  edit: 'Edit',
  delete: 'Bash',
  move: 'Bash',
  search: 'Grep',
  execute: 'Bash',
  think: 'Task',
  fetch: 'WebFetch',
  switch_mode: 'ExitPlanMode',
};

/**
 * Maps an ACP tool call (or permission request's tool call) to Claude's tool name and input for
 * hook matching (Write/Edit `{file_path, content}`, Bash `{command}`). The Claude adapter
 * names the tool in `_meta.claudeCode.toolName` and passes Claude's input as `rawInput`; for other
 * agents the ACP `kind` decides (edit → Edit, or Write when the input carries whole `content`;
 * execute → Bash; read → Read; …) and `file_path` comes from the first location when missing.
 * Never throws.
 */
export function claudeToolOf(toolCall: unknown): ClaudeTool {
  const tc = (toolCall && typeof toolCall === 'object' ? toolCall : {}) as Record<string, unknown>;
  const raw = tc.rawInput && typeof tc.rawInput === 'object' && !Array.isArray(tc.rawInput) ? { ...(tc.rawInput as Record<string, unknown>) } : {};
  const meta = (tc._meta && typeof tc._meta === 'object' ? tc._meta : {}) as Record<string, unknown>;
  const claude = (meta.claudeCode && typeof meta.claudeCode === 'object' ? meta.claudeCode : {}) as Record<string, unknown>;
  if (typeof claude.toolName === 'string' && claude.toolName) return { name: claude.toolName, input: raw };
  const kind = typeof tc.kind === 'string' ? tc.kind : 'other';
  const first = Array.isArray(tc.locations) ? (tc.locations as Array<{ path?: unknown }>).find((l) => l && typeof l.path === 'string')?.path : undefined;
  let name = KIND_TO_TOOL[kind] ?? (typeof tc.title === 'string' && /^[A-Za-z][\w-]{0,40}$/.test(tc.title) ? tc.title : 'Other');
  if (kind === 'edit' && typeof raw.content === 'string' && typeof raw.old_string !== 'string') name = 'Write';
  if ((name === 'Edit' || name === 'Write' || name === 'Read') && typeof raw.file_path !== 'string' && typeof first === 'string') raw.file_path = first;
  // an argv (codex-acp sends `["bash", "-lc", "git push"]`) becomes the shell text that runs it, so
  // a Bash `if` rule or a guard script reads the script inside `-lc`, not a title made for people
  if (name === 'Bash' && Array.isArray(raw.command) && raw.command.length && raw.command.every((w) => typeof w === 'string')) raw.command = posixShellJoin(raw.command as string[]);
  if (name === 'Bash' && typeof raw.command !== 'string' && typeof tc.title === 'string') raw.command = tc.title;
  return { name, input: raw };
}

/** Where and for whom a session's hooks run. */
export interface SessionHookTarget {
  /** Execution folder (the workspace folder or its worktree counterpart): hooks' cwd and `$CLAUDE_PROJECT_DIR`. */
  path: string;
  sessionId: string;
  /**
   * The snapshot's approved hooks (id → digest); nothing else runs. They keep running after a
   * revocation, a trust or plugin change, but only while their
   * definition and scripts still hash to this digest (else: skipped `modified`).
   */
  only: ReadonlyMap<string, string>;
  /** Events that have at least one approved hook in the snapshot (fast path: others are not run at all). */
  events: ReadonlySet<HookEvent>;
}

/**
 * Runs a session's approved hooks for one event through the
 * hook service (scripts re-hashed before running, every run recorded), limited to and
 * pinned at the session's snapshot (see {@link SessionHookTarget.only}), and summarises the
 * outcome for the session view. Returns null (and runs nothing) when no approved hook of the
 * snapshot fires on `event`. `extra.signal` cancels the handlers (Atrium closing), and
 * `extra.onBackground` learns of `async: true` handlers (see `HookRunContext.onBackground`).
 * Never throws.
 */
export async function runSessionHooks(
  hooks: HookService,
  target: SessionHookTarget,
  event: HookEvent,
  input: Record<string, unknown>,
  tool: string | null,
  extra: Pick<HookRunContext, 'signal' | 'onBackground'> = {},
): Promise<{ outcome: HookRunOutcome; run: SessionHookRun } | null> {
  if (!target.events.has(event)) return null;
  let outcome: HookRunOutcome;
  try {
    outcome = await hooks.run(event, { session_id: target.sessionId, cwd: target.path, ...input }, { path: target.path, sessionId: target.sessionId, only: target.only, pinned: true, ...extra });
  } catch (error) {
    console.error(`[atrium] running ${event} hooks failed:`, error);
    return null;
  }
  if (!outcome.results.length) return null;
  return { outcome, run: sessionRunOf(event, tool, outcome) };
}

/** A hook outcome as the session records it (the view keeps the last 200), `effect` still unset. */
export function sessionRunOf(event: HookEvent, tool: string | null, outcome: Pick<HookRunOutcome, 'decision' | 'reason' | 'results'>): SessionHookRun {
  return {
    at: new Date().toISOString(),
    event,
    tool,
    decision: outcome.decision,
    reason: outcome.reason,
    effect: null,
    results: outcome.results.map((r) => ({ id: r.id, decision: r.decision, exitCode: r.exitCode, skipped: r.skipped, message: r.message, durationMs: r.durationMs })),
  };
}
