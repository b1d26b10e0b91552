import fs from 'node:fs';
import type * as acp from '@agentclientprotocol/sdk';
import type { HookEvent, HookResult, HookRunOutcome, SessionHookRun } from '../../../../shared/contract';
import { AtriumError } from '../../../../shared/errors';
import type { HookVerdict } from '../hooks';
import { notRunWording } from './agentIsolation';
import { claudeToolOf, runSessionHooks, sessionRunOf, type ClaudeTool } from './sessionHooks';
import type { PolicyCore, PolicyState } from './state';

/** Most Stop-hook follow-up prompts in a row. */
export const MAX_STOP_FOLLOWUPS = 8;

/** Decisions that refuse an action. */
const REFUSALS = new Set(['deny', 'stop', 'block']);

/**
 * Runs the session's snapshot hooks for one event (see `runSessionHooks`: limited to the
 * snapshot's digests, re-verified right before running) and records the run with `effect` (what
 * Atrium did with the outcome, computed from it). Returns the outcome, or null when no hook ran.
 */
export async function runAndRecord(
  core: PolicyCore,
  st: PolicyState,
  event: HookEvent,
  input: Record<string, unknown>,
  tool: string | null,
  effect: (outcome: HookRunOutcome) => string | null,
): Promise<HookRunOutcome | null> {
  const res = await runSessionHooks(core.deps.hooks, st.hookTarget, event, input, tool, runExtras(core, st, event, tool));
  if (!res) return null;
  recordRun(core, st, res.run, effect(res.outcome));
  return res.outcome;
}

/** What an `async: true` handler's run says it did once it finished (it decides nothing, Claude Code semantics). */
export const ASYNC_EFFECT = 'ran in the background (async); its result decides nothing';

/**
 * The run context a session's hooks get: Atrium's closing signal (hooks still running when the
 * engine closes after its grace period are killed and recorded as interrupted), and for every
 * `async: true` handler a tracked task that records its real result on the session when it
 * finishes, so a CLI command waits for it ({@link PolicyCore.settleSession}) and reports it.
 */
function runExtras(core: PolicyCore, st: PolicyState, event: HookEvent, tool: string | null) {
  return {
    signal: core.closing.signal,
    onBackground: (_id: string, finished: Promise<HookResult>) =>
      core.track(
        finished.then((r) => recordRun(core, st, sessionRunOf(event, tool, { decision: 'none', reason: null, results: [r] }), ASYNC_EFFECT, false)),
        `recording an async ${event} hook`,
        st.sessionId,
      ),
  };
}

/** Longest command shown in a transcript line before it is cut with "…". */
const MAX_HOOK_LABEL = 80;

/**
 * How a transcript line names the hooks `ids` of the session's snapshot: the command (or URL) of
 * one, quoted and cut at {@link MAX_HOOK_LABEL} characters; "(N hooks)" for several; "" when the
 * snapshot does not know them.
 */
export function hookNames(st: PolicyState, ids: readonly string[]): string {
  if (ids.length > 1) return `(${ids.length} hooks)`;
  const h = (st.row.snapshot?.hooks.approved ?? []).find((a) => a.id === ids[0]);
  const label = h?.command ?? (h && 'url' in h ? (h.url ?? null) : null);
  if (!label) return '';
  return `“${label.length > MAX_HOOK_LABEL ? `${label.slice(0, MAX_HOOK_LABEL - 1)}…` : label}”`;
}

/**
 * Records a hook run on the session (its view keeps the last 200) and tells the transcript when a
 * hook decided something, and, once per hook until it runs again, when a snapshot hook was skipped
 * because its bytes no longer match the approved digest ("skipped: modified since approval").
 * `notify: false` records without the decision notice (an async handler's late result).
 */
export function recordRun(core: PolicyCore, st: PolicyState, run: SessionHookRun, effect: string | null, notify = true): void {
  st.row.hookRuns = [...st.row.hookRuns, { ...run, effect }].slice(-200);
  core.save(st, 'hooks');
  core.noteRun(st.sessionId, { ...run, effect });
  if (notify && (run.decision !== 'none' || effect)) {
    const who = run.results.filter((r) => r.decision !== 'none').map((r) => r.id);
    // name the hook by what it runs (its command or URL), never by its internal id
    const named = hookNames(st, who.length ? who : run.results.map((r) => r.id));
    core.notice(st, {
      severity: REFUSALS.has(run.decision) ? 'warning' : 'info',
      code: 'hook_run',
      title: `${run.event}${run.tool ? ` (${run.tool})` : ''} hook${named ? ` ${named}` : ''}: ${run.decision}${effect ? ` — ${effect}` : ''}`,
      detail: run.reason,
      link: { tab: 'hooks', ids: who.length ? who : run.results.map((r) => r.id) },
    });
  }
  for (const r of run.results) if (r.skipped === null) st.reportedModified.delete(r.id);
  const modified = run.results.filter((r) => r.skipped === 'modified' && !st.reportedModified.has(r.id));
  if (!modified.length) return;
  for (const r of modified) st.reportedModified.add(r.id);
  const approved = new Map((st.row.snapshot?.hooks.approved ?? []).map((h) => [h.id, h]));
  core.notice(st, {
    severity: 'warning',
    code: 'hooks_skipped',
    title: `${run.event} hook${modified.length === 1 ? '' : 's'} ${notRunWording(st.isolation).hooks}: modified since approval`,
    detail: modified
      .map((r) => {
        const h = approved.get(r.id);
        return h ? `${h.event} ${h.file}${h.command ? `: ${h.command}` : ''}` : r.id;
      })
      .join('\n'),
    link: { tab: 'hooks', ids: modified.map((r) => r.id) },
  });
}

/** SessionStart after new/load/resume: its context goes into the first prompt. */
export async function sessionStart(core: PolicyCore, st: PolicyState, source: 'startup' | 'resume'): Promise<void> {
  const outcome = await runAndRecord(core, st, 'SessionStart', { hook_event_name: 'SessionStart', source }, null, (o) => (o.additionalContext ? 'context goes into the first prompt' : null));
  if (outcome?.additionalContext) oweContext(core, st, [outcome.additionalContext]);
}

/**
 * UserPromptSubmit before `session/prompt`; a blocking result stops the prompt.
 * @throws AtriumError PROMPT_BLOCKED with the hook's reason
 */
export async function userPromptSubmit(core: PolicyCore, st: PolicyState, text: string): Promise<void> {
  const blocked = (o: HookRunOutcome) => o.decision === 'block' || o.decision === 'stop' || !o.continue;
  const outcome = await runAndRecord(core, st, 'UserPromptSubmit', { hook_event_name: 'UserPromptSubmit', prompt: text }, null, (o) => (blocked(o) ? 'stopped the prompt' : null));
  if (!outcome) return;
  if (blocked(outcome)) throw new AtriumError('PROMPT_BLOCKED', `A UserPromptSubmit hook blocked the prompt: ${outcome.reason ?? outcome.stopReason ?? 'no reason given'}`);
  if (outcome.additionalContext) oweContext(core, st, [outcome.additionalContext]);
}

/**
 * Hook context (SessionStart, UserPromptSubmit, PostToolUse…) owed to the agent with the next
 * prompt, stored with the session at once (a PostToolUse hook may end after the turn, in a process
 * that then exits: the next prompt, from any process, still carries it).
 */
export function oweContext(core: PolicyCore, st: PolicyState, texts: readonly string[]): void {
  if (!texts.length) return;
  st.row.owed.contexts.push(...texts.map((text) => ({ text, sentWith: null })));
  core.save(st, 'hooks');
}

/**
 * The hook context owed for the next prompt, as one text block, or null; marks it as carried by
 * `promptId` (see `settleSent` in contextRules.ts: dropped once the agent answered that prompt).
 */
export function takeHookContext(core: PolicyCore, st: PolicyState, promptId: string): acp.ContentBlock | null {
  const unsent = st.row.owed.contexts.filter((c) => c.sentWith === null);
  if (!unsent.length) return null;
  const block: acp.ContentBlock = { type: 'text', text: `<hook-context>\n${unsent.map((c) => c.text).join('\n\n')}\n</hook-context>` };
  for (const c of unsent) c.sentWith = promptId;
  core.save(st, 'hooks');
  return block;
}

/** PreToolUse for a direct file write (Claude's Write or Edit `{file_path, content}`); deny or ask refuses it. */
export async function preToolWrite(core: PolicyCore, st: PolicyState, path: string, content: string): Promise<HookVerdict> {
  const tool = fs.existsSync(path) ? 'Edit' : 'Write';
  const refuses = (o: HookRunOutcome) => REFUSALS.has(o.decision) || o.decision === 'ask';
  const outcome = await runAndRecord(core, st, 'PreToolUse', { hook_event_name: 'PreToolUse', tool_name: tool, tool_input: { file_path: path, content } }, tool, (o) => (refuses(o) ? 'refused the write' : null));
  if (outcome && refuses(outcome)) {
    return { allow: false, message: `A PreToolUse hook refused this write${outcome.decision === 'ask' ? ' (it asks for confirmation, which a direct file write cannot show)' : ''}: ${outcome.reason ?? 'no reason given'}` };
  }
  return { allow: true };
}

/** PostToolUse / PostToolUseFailure after a direct file write. */
export async function postToolWrite(core: PolicyCore, st: PolicyState, path: string, content: string, error: string | null): Promise<void> {
  const event: HookEvent = error ? 'PostToolUseFailure' : 'PostToolUse';
  const input = { hook_event_name: event, tool_name: 'Write', tool_input: { file_path: path, content }, ...(error ? { error } : { tool_response: { filePath: path, success: true } }) };
  await postTool(core, st, event, input, 'Write');
}

/** PreToolUse for a terminal command (Claude's Bash `{command}`); deny or ask refuses it. */
export async function preToolTerminal(core: PolicyCore, st: PolicyState, line: string): Promise<HookVerdict> {
  const refuses = (o: HookRunOutcome) => REFUSALS.has(o.decision) || o.decision === 'ask';
  const outcome = await runAndRecord(core, st, 'PreToolUse', { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: line } }, 'Bash', (o) => (refuses(o) ? 'refused the command' : null));
  if (outcome && refuses(outcome)) return { allow: false, message: `A PreToolUse hook refused this command: ${outcome.reason ?? 'no reason given'}` };
  return { allow: true };
}

/** PostToolUse(Failure) for a finished tool call the agent reported (once per tool call; not awaited by the agent). */
export function postToolCall(core: PolicyCore, st: PolicyState, toolCallId: string, known: Record<string, unknown>, failed: boolean): void {
  if (st.posted.has(toolCallId)) return;
  st.posted.add(toolCallId);
  const tool = claudeToolOf(known);
  const event: HookEvent = failed ? 'PostToolUseFailure' : 'PostToolUse';
  core.track(postTool(core, st, event, { hook_event_name: event, tool_name: tool.name, tool_input: tool.input, tool_use_id: toolCallId, tool_response: known.rawOutput ?? null }, tool.name), `running ${event} hooks`, st.sessionId);
}

/** PostToolUse hooks: additional context and a block's reason go into the next prompt. */
async function postTool(core: PolicyCore, st: PolicyState, event: HookEvent, input: Record<string, unknown>, tool: string): Promise<void> {
  const parts = (o: HookRunOutcome) => [o.additionalContext, o.decision === 'block' ? o.reason : null].filter((p): p is string => Boolean(p));
  const outcome = await runAndRecord(core, st, event, input, tool, (o) => (parts(o).length ? 'context goes into the next prompt' : null));
  if (outcome) oweContext(core, st, parts(outcome));
}

/**
 * Hooks on a permission request: PreToolUse (agents without the Claude bridge; Claude
 * runs it through its own hooks) and PermissionRequest. Deny selects a reject option, allow the
 * allow-once option; otherwise a Notification hook runs (not awaited) and the user decides (null).
 */
export async function permissionHooks(core: PolicyCore, st: PolicyState, tool: ClaudeTool, title: string, toolUseId: string | null, pick: (...kinds: string[]) => string | null): Promise<string | null> {
  const answerOf = (o: HookRunOutcome) => (REFUSALS.has(o.decision) ? pick('reject_once', 'reject_always') : o.decision === 'allow' ? pick('allow_once') : null);
  const effect = (o: HookRunOutcome, ask: string | null) => (answerOf(o) ? (o.decision === 'allow' ? 'allowed once' : 'refused the tool') : o.decision === 'ask' ? ask : null);
  if (!st.isolation.claudeBridge) {
    const pre = await runAndRecord(core, st, 'PreToolUse', { hook_event_name: 'PreToolUse', tool_name: tool.name, tool_input: tool.input, tool_use_id: toolUseId }, tool.name, (o) => effect(o, 'asks the user'));
    const answer = pre && answerOf(pre);
    if (answer) return answer;
  }
  const perm = await runAndRecord(core, st, 'PermissionRequest', { hook_event_name: 'PermissionRequest', tool_name: tool.name, tool_input: tool.input }, tool.name, (o) => effect(o, null));
  const answer = perm && answerOf(perm);
  if (answer) return answer;
  core.track(runAndRecord(core, st, 'Notification', { hook_event_name: 'Notification', notification_type: 'permission_prompt', message: `The agent needs your permission to use ${title}` }, null, () => null), 'running Notification hooks', st.sessionId);
  return null;
}

/**
 * Stop after a turn ended: a block sends its reason as a follow-up prompt, at most
 * {@link MAX_STOP_FOLLOWUPS} times in a row (a user prompt starts a new series).
 */
export async function stopHooks(core: PolicyCore, st: PolicyState): Promise<void> {
  const res = await runSessionHooks(core.deps.hooks, st.hookTarget, 'Stop', { hook_event_name: 'Stop', stop_hook_active: st.stopFollowups > 0 }, null, runExtras(core, st, 'Stop', null));
  if (!res) return;
  if (res.outcome.decision !== 'block') {
    recordRun(core, st, res.run, null);
    return;
  }
  if (st.stopFollowups >= MAX_STOP_FOLLOWUPS) {
    recordRun(core, st, res.run, `ignored: ${MAX_STOP_FOLLOWUPS} follow-up prompts in a row already`);
    core.notice(st, { severity: 'warning', code: 'hook_run', title: `A Stop hook blocked ${MAX_STOP_FOLLOWUPS} times in a row; Atrium stopped sending its reason as a follow-up prompt`, detail: res.outcome.reason });
    return;
  }
  st.stopFollowups += 1;
  recordRun(core, st, res.run, `sent the reason as follow-up prompt ${st.stopFollowups}/${MAX_STOP_FOLLOWUPS}`);
  try {
    const { promptId } = core.deps.sessions.prompt(st.sessionId, res.outcome.reason ?? 'A Stop hook asks you to continue.');
    st.followupPromptIds.add(promptId);
    core.noteFollowup(st.sessionId, promptId);
  } catch (error) {
    console.error('[atrium] queueing a Stop hook follow-up failed:', error);
  }
}

/** SessionEnd when the user closes the session. */
export async function sessionEnd(core: PolicyCore, st: PolicyState): Promise<void> {
  await runAndRecord(core, st, 'SessionEnd', { hook_event_name: 'SessionEnd', reason: 'other' }, null, () => null);
}
