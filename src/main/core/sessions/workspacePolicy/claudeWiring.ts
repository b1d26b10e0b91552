import type * as acp from '@agentclientprotocol/sdk';
import type { BridgeAnswer } from './claudeBridge';
import { runAndRecord } from './boundaryHooks';
import { markLoaded, selectRules, writeBarrier } from './contextRules';
import { pathsOfInput } from './pathMapping';
import { renderRules } from './ruleInjection';
import { ensureSnapshot } from './snapshot';
import type { PolicyCore, PolicyState } from './state';
import { refsOf } from './store';

/** Claude Code tools that write files (seed §7 write kinds). */
const WRITE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);
/** Claude Code tools whose path is read (contextual rules go back as `additionalContext`). */
const READ_TOOLS = new Set(['Read', 'NotebookRead', 'Grep', 'Glob', 'LS']);

const EMPTY: BridgeAnswer = { stdout: '', stderr: '', exitCode: 0 };
const json = (o: unknown): BridgeAnswer => ({ stdout: JSON.stringify(o), stderr: '', exitCode: 0 });

/**
 * Claude Code's session setup (acp.md §7): none of its own settings sources, Atrium's bridge hooks
 * as its only hooks, the manual permission mode, and the static rules appended to its system
 * prompt (recorded once as sent, `system-prompt` delivery).
 */
export function claudeSessionParams(core: PolicyCore, st: PolicyState, params: acp.NewSessionRequest): acp.NewSessionRequest {
  const meta = { ...((params._meta as Record<string, unknown> | undefined) ?? {}) };
  const claudeCode = { ...((meta.claudeCode as Record<string, unknown> | undefined) ?? {}) };
  const options = { ...((claudeCode.options as Record<string, unknown> | undefined) ?? {}) };
  options.settingSources = [];
  options.settings = { hooks: st.bridge?.hooks ?? {} };
  options.permissionMode = 'default';
  claudeCode.options = options;
  meta.claudeCode = claudeCode;
  if (st.staticSent.length) {
    meta.systemPrompt = { append: renderRules('project-instructions', st.staticSent) };
    const info = st.row.snapshot?.staticRules;
    if (info && !info.sentAt) {
      info.sentAt = new Date().toISOString();
      info.delivery = 'system-prompt';
      core.save(st, 'rules');
      const n = st.staticSent.length;
      core.notice(st, { severity: 'info', code: 'rules_loaded', title: `Static rules sent in the system prompt (${n} file${n === 1 ? '' : 's'})`, detail: null, rules: refsOf(st.staticSent), triggerPaths: [] });
    }
  }
  return { ...params, _meta: meta };
}

/**
 * Answers a call of Claude's own hook mechanism through the loopback bridge (acp.md §7): PreToolUse
 * of a write tool applies the first-write barrier (deny with the rules), then the session's
 * approved PreToolUse hooks decide (deny / ask / allow, `updatedInput`); PostToolUse of a read tool
 * returns the contextual rules it triggered as `additionalContext`, plus the approved
 * PostToolUse(Failure) hooks' context or block. Anything else: an empty answer (no opinion).
 */
export async function bridgeCall(core: PolicyCore, st: PolicyState, event: string, input: Record<string, unknown>): Promise<BridgeAnswer> {
  const tool = typeof input.tool_name === 'string' ? input.tool_name : '';
  const toolInput = input.tool_input && typeof input.tool_input === 'object' && !Array.isArray(input.tool_input) ? (input.tool_input as Record<string, unknown>) : {};
  await ensureSnapshot(core, st).catch(() => undefined);
  if (event === 'PreToolUse') {
    if (WRITE_TOOLS.has(tool)) {
      const refused = writeBarrier(core, st, pathsOfInput(toolInput), 'claude-hook', `refused the first ${tool}`);
      if (refused) return json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: refused.message } });
    }
    const decisionOf = (d: string) => (d === 'deny' || d === 'stop' || d === 'block' ? 'deny' : d === 'ask' || d === 'defer' ? 'ask' : d === 'allow' ? 'allow' : null);
    const outcome = await runAndRecord(core, st, 'PreToolUse', { ...input, hook_event_name: 'PreToolUse' }, tool || null, (o) => {
      const d = decisionOf(o.decision);
      return d === 'deny' ? `refused ${tool}` : d === 'ask' ? 'asks the user' : d === 'allow' ? `allowed ${tool}` : null;
    });
    const decision = outcome && decisionOf(outcome.decision);
    if (!outcome || !decision) return EMPTY;
    return json({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: decision,
        permissionDecisionReason: outcome.reason ?? `${decision} by an approved PreToolUse hook`,
        ...(outcome.updatedInput ? { updatedInput: outcome.updatedInput } : {}),
      },
    });
  }
  if (event === 'PostToolUse' || event === 'PostToolUseFailure') {
    const contexts: string[] = [];
    if (event === 'PostToolUse' && READ_TOOLS.has(tool)) {
      const sel = selectRules(st, pathsOfInput(toolInput), false);
      if (sel && sel.files.length) {
        markLoaded(core, st, sel.files, 'read', 'claude-hook', false, `after ${tool}`);
        contexts.push(sel.content);
      }
    }
    const blockOf = (o: { decision: string; reason: string | null }) => (o.decision === 'block' ? (o.reason ?? 'blocked by an approved hook') : null);
    const outcome = await runAndRecord(core, st, event, { ...input, hook_event_name: event }, tool || null, (o) => (blockOf(o) ? 'sent the reason to the agent' : null));
    const block = outcome ? blockOf(outcome) : null;
    if (outcome?.additionalContext) contexts.push(outcome.additionalContext);
    if (!contexts.length && !block) return EMPTY;
    return json({
      ...(block ? { decision: 'block', reason: block } : {}),
      hookSpecificOutput: { hookEventName: event, ...(contexts.length ? { additionalContext: contexts.join('\n\n') } : {}) },
    });
  }
  return EMPTY;
}
