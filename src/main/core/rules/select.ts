import { formatBytes } from './readSource';
import { scopeContains } from './paths';
import { ScopeMatcher, type MatchPick } from './scopeMatcher';
import type { RuleFile, SelectedRule, UnselectedRule } from './types';

/**
 * Per-catalog lookup structure for selection: selectable files (status `active`, kind `always` or
 * `conditional`) grouped by scope directory, conditional ones behind a {@link ScopeMatcher}, so a
 * lookup visits only the target's ancestors (≤ 33 map lookups) and tests only plausible globs.
 */
export class SelectionIndex {
  private readonly scopes = new Map<string, { unconditional: RuleFile[]; matcher: ScopeMatcher | null }>();
  /** Selectable unconditional files in catalog order (static candidates). */
  readonly unconditional: readonly RuleFile[];

  constructor(files: readonly RuleFile[]) {
    const unconditional: RuleFile[] = [];
    const conditional = new Map<string, RuleFile[]>();
    for (const f of files) {
      if (f.status !== 'active' || (f.kind !== 'always' && f.kind !== 'conditional')) continue;
      let scope = this.scopes.get(f.scope);
      if (!scope) this.scopes.set(f.scope, (scope = { unconditional: [], matcher: null }));
      if (f.kind === 'always') {
        unconditional.push(f);
        scope.unconditional.push(f);
      } else {
        conditional.set(f.scope, [...(conditional.get(f.scope) ?? []), f]);
      }
    }
    for (const [scope, list] of conditional) this.scopes.get(scope)!.matcher = new ScopeMatcher(list);
    this.unconditional = unconditional;
  }

  /**
   * Static selection (seed §4.5): active unconditional files whose scope is an ancestor-or-self of
   * root-relative `fromRel`, in catalog order, each with its reason.
   */
  staticCandidates(fromRel: string): SelectedRule[] {
    return this.unconditional
      .filter((f) => scopeContains(f.scope, fromRel))
      .map((file) => ({ file, reason: file.source === 'user' ? 'user' : 'scope-contains-start', matchedPattern: null, triggerPath: null }));
  }

  /**
   * Contextual selection (seed §4.5, issue 4 §3): for each root-relative trigger, a file not in
   * `loaded` whose scope is an ancestor-or-self of the trigger is selected when it is conditional
   * and a pattern matches the trigger relative to the scope, or unconditional and its scope does
   * not contain `fromRel` (otherwise it was already static). Result in catalog order; the first
   * trigger (sorted) that selects a file, and its first matching pattern, are reported.
   */
  contextualCandidates(fromRel: string, triggers: readonly string[], loaded: ReadonlySet<string>): SelectedRule[] {
    const picked = new Map<RuleFile, MatchPick>();
    for (const trigger of triggers) {
      let end = -1;
      for (;;) {
        const scopeName = end < 0 ? '' : trigger.slice(0, end);
        const scope = this.scopes.get(scopeName);
        if (scope) {
          const inScope = scopeName === '' ? trigger : trigger.slice(scopeName.length + 1);
          if (scope.matcher && inScope !== '') scope.matcher.match(inScope, trigger, loaded, picked);
          for (const file of scope.unconditional) {
            if (picked.has(file) || loaded.has(file.id) || scopeContains(file.scope, fromRel)) continue;
            picked.set(file, { file, reason: 'nested-scope', patternIndex: -1, trigger });
          }
        }
        if (end === trigger.length) break;
        const next = trigger.indexOf('/', end + 1);
        end = next < 0 ? trigger.length : next;
      }
    }
    const out: SelectedRule[] = [];
    for (const p of picked.values()) {
      out.push({ file: p.file, reason: p.reason, matchedPattern: p.patternIndex >= 0 ? p.file.patterns[p.patternIndex] : null, triggerPath: p.trigger });
    }
    return out.length > 1 ? out.sort(byOrder) : out;
  }
}

/**
 * Budget (seed §4.5 retainWithinBudget): walk from the most specific end, keep each whole file
 * whose body bytes fit what remains, skip the rest (reason `budget`); never truncate. Only body
 * bytes count. Kept files are returned in catalog order.
 */
export function applyBudget(ordered: readonly SelectedRule[], maxBytes: number): { kept: SelectedRule[]; dropped: UnselectedRule[] } {
  let remaining = maxBytes;
  const kept: SelectedRule[] = [];
  const dropped: UnselectedRule[] = [];
  for (let i = ordered.length - 1; i >= 0; i--) {
    const s = ordered[i];
    if (s.file.bodyBytes <= remaining) {
      kept.push(s);
      remaining -= s.file.bodyBytes;
    } else {
      dropped.push({
        file: s.file,
        reason: 'budget',
        detail: `${formatBytes(s.file.bodyBytes)} does not fit the ${formatBytes(remaining)} left of the ${formatBytes(maxBytes)} budget after more specific files.`,
      });
    }
  }
  return { kept: kept.reverse(), dropped: dropped.reverse() };
}

function byOrder(a: SelectedRule, b: SelectedRule): number {
  return a.file.order - b.file.order;
}
