import type * as acp from '@agentclientprotocol/sdk';
import type { LoadedContextualRule, RuleDelivery, RuleTrigger } from '../../../../shared/contract';
import type { RuleSelection, SelectedRule } from '../../rules/types';
import type { HookVerdict } from '../hooks';
import { toSourcePaths } from './pathMapping';
import { barrierMessage, ruleBlocks } from './ruleInjection';
import type { PolicyCore, PolicyState } from './state';
import { refsOf } from './store';

/**
 * New contextual rules for touched paths (seed §6 path mapping: execution directory → source
 * project; seed §4.5 `contextualRules`), or null when none apply. `withOutbox` also leaves out
 * rules already waiting for the next prompt. Never throws (a failing lookup is logged).
 */
export function selectRules(st: PolicyState, paths: readonly unknown[], withOutbox: boolean): RuleSelection | null {
  if (!st.catalog || !paths.length) return null;
  const mapped = toSourcePaths(paths, st.mapping);
  if (!mapped.length) return null;
  const loaded = withOutbox ? new Set([...st.loaded, ...st.outbox.keys()]) : st.loaded;
  try {
    return st.catalog.contextualRules(st.row.fromDir, mapped, loaded);
  } catch (error) {
    console.error('[atrium] contextual rule lookup failed:', error);
    return null;
  }
}

/** Queues rules triggered by a read, terminal, tool call or permission request for the next prompt. */
export function queueRules(st: PolicyState, paths: readonly unknown[], trigger: RuleTrigger): void {
  const sel = selectRules(st, paths, true);
  if (!sel) return;
  for (const f of sel.files) st.outbox.set(f.file.id, { rule: f, trigger, recorded: false });
}

/** Records rules as loaded (references and trigger paths only, seed §7 step 4) with a compact `rules_loaded` notice. */
export function markLoaded(core: PolicyCore, st: PolicyState, files: readonly SelectedRule[], trigger: RuleTrigger, delivery: RuleDelivery, blockedWrite: boolean, what: string): void {
  const now = new Date().toISOString();
  const refs = refsOf(files);
  for (const f of files) {
    st.loaded.add(f.file.id);
    st.outbox.delete(f.file.id);
  }
  const byId = new Map(files.map((f) => [f.file.id, f]));
  for (const ref of refs) {
    const f = byId.get(ref.id)!;
    const entry: LoadedContextualRule = { ...ref, triggerPaths: f.triggerPath ? [f.triggerPath] : [], trigger, blockedWrite, delivery, loadedAt: now };
    st.row.loaded = [...st.row.loaded.filter((l) => l.id !== ref.id), entry];
  }
  core.keepTexts(files);
  core.save(st, 'rules');
  const triggers = [...new Set(files.map((f) => f.triggerPath).filter((t): t is string => Boolean(t)))].sort();
  core.notice(st, {
    severity: blockedWrite ? 'warning' : 'info',
    code: 'rules_loaded',
    title: `Contextual rules loaded (${files.length} file${files.length === 1 ? '' : 's'}): ${what}`,
    detail: null,
    rules: refs,
    triggerPaths: triggers,
  });
}

/**
 * The seed §7 first-write barrier for a direct write (`fs/write_text_file`, or a Claude write
 * tool through the bridge): when the path has contextual rules the agent has not loaded, they are
 * marked loaded and the write is refused before any side effect, with the rules in the message.
 * Returns null when the write may go on.
 */
export function writeBarrier(core: PolicyCore, st: PolicyState, paths: readonly unknown[], delivery: RuleDelivery, what: string): (HookVerdict & { allow: false }) | null {
  const sel = selectRules(st, paths, false);
  if (!sel || !sel.files.length) return null;
  markLoaded(core, st, sel.files, 'write', delivery, true, what);
  return {
    allow: false,
    message: barrierMessage(sel.files, sel.triggerPaths),
    transcript: `Refused the first write to "${String(paths[0])}": applicable project rules were loaded (${sel.files.map((f) => f.file.relativePath).join(', ')}); the agent reviews them and retries.`,
  };
}

/**
 * The barrier for a write-kind permission request: a permission answer cannot carry the rules, so
 * the request is refused (the returned reject option), the rules are recorded as loaded and go
 * with the next prompt. Returns null when nothing new applies or the request offers no reject.
 */
export function permissionBarrier(core: PolicyCore, st: PolicyState, paths: readonly unknown[], rejectOption: string | null, embedded: boolean): string | null {
  const sel = selectRules(st, paths, false);
  if (!sel || !sel.files.length || !rejectOption) return null;
  markLoaded(core, st, sel.files, 'permission', embedded ? 'embedded' : 'text', true, 'refused the write; the rules go with the next prompt');
  for (const f of sel.files) st.outbox.set(f.file.id, { rule: f, trigger: 'permission', recorded: true });
  return rejectOption;
}

/**
 * After the agent lost its context (`replaced-by-new`): the static rules and every contextual
 * rule the session had loaded go again with the next prompt (hydrated from the snapshot catalog,
 * seed §7 step 1), without recording them twice.
 */
export function rehydrateForNewAgentSession(st: PolicyState): void {
  if (st.row.snapshot?.staticRules.sentAt && !st.isolation.claudeBridge) st.resendStatic = true;
  if (!st.catalog || !st.row.loaded.length) return;
  try {
    const sel = st.catalog.hydrate(st.row.loaded.map((l) => ({ id: l.id, relativePath: l.relativePath, source: l.source, sha256: l.sha256 })));
    const trigger = new Map(st.row.loaded.map((l) => [l.id, l.trigger]));
    for (const f of sel.files) st.outbox.set(f.file.id, { rule: f, trigger: trigger.get(f.file.id) ?? 'read', recorded: true });
  } catch (error) {
    // verified at attach; a catalog that cannot hydrate now is logged and the rules load again when triggered
    console.error('[atrium] re-sending loaded contextual rules failed:', error);
  }
}

/**
 * The rule blocks that go before a prompt's own content (issue 8 "Rules reaching the agent"):
 * static rules with the first prompt (or again after `replaced-by-new`; Claude gets them in its
 * system prompt instead), then contextual rules queued since the last prompt. Records what was
 * sent (delivery, time, `rules_loaded` notices).
 */
export function rulePrefix(core: PolicyCore, st: PolicyState, embedded: boolean): acp.ContentBlock[] {
  const prefix: acp.ContentBlock[] = [];
  const info = st.row.snapshot?.staticRules;
  if (info && (!info.sentAt || st.resendStatic) && !st.isolation.claudeBridge && st.staticSent.length) {
    const again = Boolean(info.sentAt);
    const { blocks, delivery } = ruleBlocks('project-instructions', st.staticSent, embedded);
    prefix.push(...blocks);
    st.resendStatic = false;
    info.sentAt = new Date().toISOString();
    info.delivery = delivery;
    core.save(st, 'rules');
    const n = st.staticSent.length;
    core.notice(st, {
      severity: 'info',
      code: 'rules_loaded',
      title: `Static rules sent ${again ? 'again (the agent started a new session)' : 'with the first prompt'} (${n} file${n === 1 ? '' : 's'}, ${delivery === 'embedded' ? 'embedded resources' : 'text'})`,
      detail: null,
      rules: refsOf(st.staticSent),
      triggerPaths: [],
    });
  }
  if (st.outbox.size) {
    const pending = [...st.outbox.values()];
    st.outbox.clear();
    const files = pending.map((p) => p.rule).sort((a, b) => a.file.order - b.file.order);
    const triggers = [...new Set(pending.map((p) => p.rule.triggerPath).filter((t): t is string => Boolean(t)))].sort();
    const { blocks, delivery } = ruleBlocks('contextual-project-instructions', files, embedded, triggers);
    prefix.push(...blocks);
    const fresh = pending.filter((p) => !p.recorded);
    if (fresh.length) markLoaded(core, st, fresh.map((p) => p.rule), fresh[0].trigger, delivery, false, 'attached to the prompt');
  }
  return prefix;
}
