import path from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import type { LoadedContextualRule, RuleDelivery, RuleTrigger } from '../../../../shared/contract';
import type { RuleSelection, SelectedRule } from '../../rules/types';
import type { HookVerdict } from '../hooks';
import { toSourcePaths } from './pathMapping';
import { barrierMessage, ruleBlocks } from './ruleInjection';
import type { PolicyCore, PolicyState } from './state';
import { refsOf, type OwedRule } from './store';

/**
 * New contextual rules for touched paths (seed §6 path mapping: execution directory → source
 * project; seed §4.5 `contextualRules`), or null when none apply. `withOwed` also leaves out
 * rules already owed to the agent (waiting for the next prompt). Never throws (a failing lookup is logged).
 */
export function selectRules(st: PolicyState, paths: readonly unknown[], withOwed: boolean): RuleSelection | null {
  if (!st.catalog || !paths.length) return null;
  const mapped = toSourcePaths(paths, st.mapping);
  if (!mapped.length) return null;
  const loaded = withOwed ? new Set([...st.loaded, ...st.row.owed.rules.map((r) => r.id)]) : st.loaded;
  try {
    return st.catalog.contextualRules(st.row.fromDir, mapped, loaded);
  } catch (error) {
    console.error('[atrium] contextual rule lookup failed:', error);
    return null;
  }
}

/**
 * Queues rules triggered by a read, terminal, tool call or permission request for the next prompt.
 * They are owed to the agent from now on and stored with the session before the read (or the
 * command, the answer) goes back to the agent, so whichever process sends the next prompt sends
 * them, even when this one ends first.
 */
export function queueRules(core: PolicyCore, st: PolicyState, paths: readonly unknown[], trigger: RuleTrigger): void {
  const sel = selectRules(st, paths, true);
  if (!sel || !sel.files.length) return;
  owe(st, sel.files, trigger, false);
  core.save(st, 'rules');
}

/** Adds rules to what the session owes (not saved; the caller saves). A rule owed and not yet sent is not added twice. */
function owe(st: PolicyState, files: readonly SelectedRule[], trigger: RuleTrigger, recorded: boolean): void {
  const owed = st.row.owed.rules;
  for (const ref of refsOf(files)) {
    if (owed.some((o) => o.id === ref.id && o.sentWith === null)) continue;
    const f = files.find((x) => x.file.id === ref.id)!;
    owed.push({ id: ref.id, relativePath: ref.relativePath, source: ref.source, sha256: ref.sha256, triggerPath: f.triggerPath, trigger, recorded, sentWith: null });
  }
}

/** Records rules as loaded (references and trigger paths only, seed §7 step 4) with a compact `rules_loaded` notice. */
export function markLoaded(core: PolicyCore, st: PolicyState, files: readonly SelectedRule[], trigger: RuleTrigger, delivery: RuleDelivery, blockedWrite: boolean, what: string): void {
  const now = new Date().toISOString();
  const refs = refsOf(files);
  const ids = new Set(files.map((f) => f.file.id));
  for (const id of ids) st.loaded.add(id);
  // delivered now (a write error, Claude's additionalContext): no longer owed with the next prompt
  st.row.owed.rules = st.row.owed.rules.filter((o) => o.sentWith !== null || !ids.has(o.id));
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
  // markLoaded took them off as delivered: the permission answer did not carry them, the next prompt does
  owe(st, sel.files, 'permission', true);
  core.save(st, 'rules');
  return rejectOption;
}

/**
 * After the agent lost its context (`replaced-by-new`): the static rules and every contextual
 * rule the session had loaded are owed again with the next prompt (hydrated from the snapshot
 * catalog when sent, seed §7 step 1), without recording them twice. Stored at once, so the
 * process that sends the next prompt need not be this one.
 */
export function rehydrateForNewAgentSession(core: PolicyCore, st: PolicyState): void {
  const owed = st.row.owed;
  if (st.row.snapshot?.staticRules.sentAt && !st.isolation.claudeBridge && !owed.staticAgain) owed.staticAgain = { sentWith: null };
  for (const l of st.row.loaded) {
    if (owed.rules.some((o) => o.id === l.id && o.sentWith === null)) continue;
    owed.rules.push({ id: l.id, relativePath: l.relativePath, source: l.source, sha256: l.sha256, triggerPath: l.triggerPaths[0] ?? null, trigger: l.trigger, recorded: true, sentWith: null });
  }
  core.save(st, 'rules');
}

/**
 * The owed rules that are not sent yet, re-materialised from the session's catalog (seed §4.5
 * hydrate: same id, digest, path and source). A rule that no longer hydrates (its file changed or
 * went away since it was triggered, e.g. before another process sends it) is selected again for
 * its trigger path, so the agent gets the rule as it is now; one that no longer applies is dropped
 * (logged).
 */
function hydrateOwed(st: PolicyState, owed: readonly OwedRule[]): Array<{ rule: SelectedRule; owed: OwedRule }> {
  const out: Array<{ rule: SelectedRule; owed: OwedRule }> = [];
  if (!st.catalog) return out;
  for (const o of owed) {
    let rule: SelectedRule | undefined;
    try {
      const file = st.catalog.hydrate([{ id: o.id, relativePath: o.relativePath, source: o.source, sha256: o.sha256 }]).files[0];
      if (file) rule = { ...file, triggerPath: o.triggerPath };
    } catch {
      const again = o.triggerPath ? selectRules(st, [path.join(st.mapping.execRoot, o.triggerPath)], false) : null;
      rule = again?.files.find((f) => f.file.relativePath === o.relativePath);
      if (!rule) console.error(`[atrium] session ${st.sessionId}: the owed rule ${o.relativePath} changed and no longer applies; it is not sent`);
    }
    if (rule) out.push({ rule, owed: o });
  }
  return out;
}

/**
 * Settles what earlier prompts carried (see {@link OwedRule.sentWith}): an item whose prompt the
 * agent answered (the session journal shows a reply or the end of that turn: `answered`) was
 * delivered and is dropped; one whose process ended before the agent showed it had the prompt (a
 * crash, a kill) is owed again with the next prompt. So an owed item reaches the agent once per
 * answered prompt, never twice and never not at all, whichever process sends it. Saves when
 * anything changed.
 */
export function settleSent(core: PolicyCore, st: PolicyState, answered: (promptId: string) => boolean): void {
  const owed = st.row.owed;
  const verdict = new Map<string, boolean>();
  const done = (promptId: string) => {
    if (!verdict.has(promptId)) verdict.set(promptId, answered(promptId));
    return verdict.get(promptId)!;
  };
  let changed = false;
  const keep = <T extends { sentWith: string | null }>(item: T): boolean => {
    if (item.sentWith === null) return true;
    changed = true;
    if (done(item.sentWith)) return false;
    item.sentWith = null;
    return true;
  };
  owed.rules = owed.rules.filter(keep);
  // once sent, a rule is recorded as loaded: sending it again must not record it twice
  for (const r of owed.rules) if (!r.recorded && st.row.loaded.some((l) => l.id === r.id)) r.recorded = true;
  owed.contexts = owed.contexts.filter(keep);
  if (owed.staticAgain && !keep(owed.staticAgain)) owed.staticAgain = null;
  if (changed) core.save(st, 'rules');
}

/**
 * The rule blocks that go before a prompt's own content:
 * static rules with the first prompt (or again after `replaced-by-new`; Claude gets them in its
 * system prompt instead), then the contextual rules the session owes (queued since the last
 * prompt, by this process or another). Records what was sent (delivery, time, `rules_loaded`
 * notices) and marks what this prompt (`promptId`) carries, for {@link settleSent}.
 */
export function rulePrefix(core: PolicyCore, st: PolicyState, embedded: boolean, promptId: string): acp.ContentBlock[] {
  const prefix: acp.ContentBlock[] = [];
  const info = st.row.snapshot?.staticRules;
  const owed = st.row.owed;
  const staticAgain = owed.staticAgain !== null && owed.staticAgain.sentWith === null;
  if (info && (!info.sentAt || staticAgain) && !st.isolation.claudeBridge && st.staticSent.length) {
    const again = Boolean(info.sentAt);
    const { blocks, delivery } = ruleBlocks('project-instructions', st.staticSent, embedded);
    prefix.push(...blocks);
    // owed until the agent answers this prompt (a process that ends first leaves them owed: settleSent)
    owed.staticAgain = { sentWith: promptId };
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
  const unsent = owed.rules.filter((o) => o.sentWith === null);
  if (unsent.length) {
    const pending = hydrateOwed(st, unsent);
    // marked as carried by this prompt before it goes (and stored by the saves below): settleSent decides after the turn
    for (const o of unsent) o.sentWith = promptId;
    owed.rules = owed.rules.filter((o) => o.sentWith !== promptId || pending.some((p) => p.owed === o));
    if (pending.length) {
      const files = pending.map((p) => p.rule).sort((a, b) => a.file.order - b.file.order);
      const triggers = [...new Set(pending.map((p) => p.rule.triggerPath).filter((t): t is string => Boolean(t)))].sort();
      const { blocks, delivery } = ruleBlocks('contextual-project-instructions', files, embedded, triggers);
      prefix.push(...blocks);
      const fresh = pending.filter((p) => !p.owed.recorded);
      for (const p of fresh) p.owed.recorded = true;
      if (fresh.length) markLoaded(core, st, fresh.map((p) => p.rule), fresh[0].owed.trigger, delivery, false, 'attached to the prompt');
    }
    core.save(st, 'rules');
  }
  return prefix;
}
