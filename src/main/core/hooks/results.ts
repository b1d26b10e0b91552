import type { HookDecision, HookEvent, HookFormat } from '../../../shared/contract';
import { isRecord } from '../formats/text';

/** What one handler's output means, before combining (formats.md §2.5 "Exit codes", "JSON output"). */
export interface Interpreted {
  decision: HookDecision;
  reason: string | null;
  /** False when the JSON said `continue: false`. */
  continue: boolean;
  stopReason: string | null;
  systemMessage: string | null;
  /** Context for the agent: `additionalContext`, or plain stdout on UserPromptSubmit/SessionStart. */
  context: string | null;
  updatedInput: Record<string, unknown> | null;
  /** Explanation for non-blocking errors ("exit 1: …"), else null. */
  message: string | null;
}

const NOTHING: Interpreted = { decision: 'none', reason: null, continue: true, stopReason: null, systemMessage: null, context: null, updatedInput: null, message: null };

/** Events where exit 2 / `decision: "block"` blocks (PreToolUse blocks as `deny`). PermissionRequest ignores exit 2. */
const BLOCKING: ReadonlySet<HookEvent> = new Set(['UserPromptSubmit', 'Stop', 'PostToolUse', 'PostToolUseFailure']);
/** Events whose plain stdout on exit 0 becomes context. */
const STDOUT_CONTEXT: ReadonlySet<HookEvent> = new Set(['UserPromptSubmit', 'SessionStart']);

/**
 * Interprets a finished handler with Claude Code's semantics (formats.md §2.5), also used for Codex
 * and Gemini hooks, plus Blade's `decision: {behavior}` (seed-behaviour §9.4):
 * - timeout → no decision; exit 0 → success (stdout whose first non-blank character is `{` is the
 *   JSON protocol; otherwise plain stdout is context on UserPromptSubmit/SessionStart);
 * - exit 2 → blocking with stderr as the reason (PreToolUse deny; UserPromptSubmit, Stop,
 *   PostToolUse(Failure) block; not honoured elsewhere); JSON is ignored on exit 2;
 * - any other code → non-blocking error.
 */
export function interpret(event: HookEvent, format: HookFormat, run: { exitCode: number | null; timedOut: boolean; stdout: string; stderr: string }): Interpreted {
  if (run.timedOut) return { ...NOTHING, message: 'timed out; output discarded, no decision' };
  if (run.exitCode === 2) {
    const reason = run.stderr.trim() || (format === 'blade' ? run.stdout.trim() : '') || 'blocked by hook (exit 2)';
    if (event === 'PreToolUse') return { ...NOTHING, decision: 'deny', reason };
    if (BLOCKING.has(event)) return { ...NOTHING, decision: 'block', reason };
    return { ...NOTHING, message: `exit 2 cannot block ${event}: ${firstLine(run.stderr)}` };
  }
  if (run.exitCode !== 0) {
    return { ...NOTHING, message: run.exitCode === null ? 'did not finish' : `non-blocking error: exit ${run.exitCode}${run.stderr.trim() ? `: ${firstLine(run.stderr)}` : ''}` };
  }
  const trimmed = run.stdout.trimStart();
  if (trimmed.startsWith('{')) {
    let json: unknown;
    try {
      json = JSON.parse(run.stdout);
    } catch {
      json = undefined;
    }
    if (isRecord(json)) return fromJson(event, json);
    return { ...NOTHING, message: 'stdout starts with "{" but is not valid JSON; ignored' };
  }
  if (STDOUT_CONTEXT.has(event) && run.stdout.trim()) return { ...NOTHING, context: run.stdout.trim() };
  return NOTHING;
}

function fromJson(event: HookEvent, j: Record<string, unknown>): Interpreted {
  const s = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  const out: Interpreted = { ...NOTHING };
  out.systemMessage = s(j.systemMessage);
  const hso = isRecord(j.hookSpecificOutput) ? j.hookSpecificOutput : {};
  out.context = s(hso.additionalContext);
  const legacy = typeof j.decision === 'string' ? j.decision : isRecord(j.decision) && typeof j.decision.behavior === 'string' ? j.decision.behavior : null;
  const reason = s(j.reason);
  if (event === 'PreToolUse') {
    const pd = typeof hso.permissionDecision === 'string' ? hso.permissionDecision : null;
    if (pd === 'allow' || pd === 'deny' || pd === 'ask' || pd === 'defer') {
      out.decision = pd;
      out.reason = s(hso.permissionDecisionReason) ?? reason;
    } else if (legacy === 'approve' || legacy === 'allow') {
      out.decision = 'allow';
      out.reason = reason;
    } else if (legacy === 'block' || legacy === 'deny') {
      out.decision = 'deny';
      out.reason = reason ?? s(j.systemMessage);
    }
    if (isRecord(hso.updatedInput)) out.updatedInput = hso.updatedInput;
  } else if (event === 'PermissionRequest') {
    const d = isRecord(hso.decision) ? hso.decision : {};
    const behavior = typeof d.behavior === 'string' ? d.behavior : legacy;
    if (behavior === 'allow' || behavior === 'approve') out.decision = 'allow';
    else if (behavior === 'deny' || behavior === 'block') out.decision = 'deny';
    out.reason = s(d.message) ?? reason;
    if (isRecord(d.updatedInput)) out.updatedInput = d.updatedInput;
  } else if (BLOCKING.has(event) && (legacy === 'block' || legacy === 'deny')) {
    out.decision = 'block';
    out.reason = reason ?? s(j.systemMessage) ?? 'blocked by hook';
  }
  if (j.continue === false) {
    out.continue = false;
    out.decision = 'stop';
    out.stopReason = s(j.stopReason);
    out.reason = out.stopReason ?? out.reason;
  }
  return out;
}

/** Precedence of PreToolUse permission decisions across handlers: deny > defer > ask > allow. */
const PRE_TOOL_RANK: Record<HookDecision, number> = { stop: 6, deny: 5, block: 5, defer: 4, ask: 3, allow: 2, none: 0 };

/** The combined outcome fields of several handlers' interpretations (in handler order). */
export interface Combined {
  decision: HookDecision;
  reason: string | null;
  continue: boolean;
  stopReason: string | null;
  additionalContext: string | null;
  systemMessages: string[];
  updatedInput: Record<string, unknown> | null;
}

/**
 * Combines parallel handlers as Claude Code documents: `continue: false` beats everything; for
 * PreToolUse deny > defer > ask > allow (and PermissionRequest deny > allow), the reason and
 * `updatedInput` coming from the winning handler(s); for blocking events any block blocks (reasons
 * joined); every context is kept, joined by blank lines, in handler order.
 */
export function combine(items: readonly Interpreted[]): Combined {
  let best: Interpreted | null = null;
  for (const i of items) {
    if (i.decision === 'none') continue;
    if (!best || PRE_TOOL_RANK[i.decision] > PRE_TOOL_RANK[best.decision]) best = i;
  }
  const decision = best?.decision ?? 'none';
  const sameDecision = items.filter((i) => i.decision === decision && decision !== 'none');
  const reasons = [...new Set(sameDecision.map((i) => i.reason).filter((r): r is string => Boolean(r)))];
  const updated = [...sameDecision].reverse().find((i) => i.updatedInput)?.updatedInput ?? null;
  const stop = items.find((i) => !i.continue);
  const contexts = items.map((i) => i.context).filter((c): c is string => Boolean(c));
  return {
    decision,
    reason: reasons.length ? reasons.join('\n') : null,
    continue: !stop,
    stopReason: stop?.stopReason ?? null,
    additionalContext: contexts.length ? contexts.join('\n\n') : null,
    systemMessages: items.map((i) => i.systemMessage).filter((m): m is string => Boolean(m)),
    updatedInput: decision === 'allow' || decision === 'ask' ? updated : null,
  };
}

function firstLine(text: string): string {
  return text.trim().split(/\r?\n/)[0]?.slice(0, 300) ?? '';
}
