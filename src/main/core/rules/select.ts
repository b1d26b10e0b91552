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
   * Contextual selection (seed §4.5): for each root-relative trigger, a file not in
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

/**
 * Collapses candidates that carry the same text as another candidate or an already loaded file,
 * before budgeting, so one text is never loaded twice (and a duplicate cannot push another file
 * out of the budget). Three cases, in this order:
 *
 * - same real path (`CLAUDE.md -> AGENTS.md`, a common recommendation): the file that is not a
 *   symlink is kept (else the first in catalog order); the other is collapsed into it;
 * - a file whose body is nothing but `@imports` of files that are themselves selected or loaded
 *   (`CLAUDE.md` = `@AGENTS.md`): its content is their text, so it is collapsed into the first;
 * - a file imported (at any depth) by a kept or loaded file with text of its own: its text is
 *   already inside the importer's content, so it is collapsed into the importer.
 *
 * `anchors` are files already loaded in the session (never collapsed themselves). Kept candidates
 * stay in their input order; collapsed ones carry reason `same-file` and `sameAs`.
 */
export function collapseSameText(candidates: readonly SelectedRule[], anchors: readonly RuleFile[] = []): { kept: SelectedRule[]; collapsed: UnselectedRule[] } {
  if (candidates.length === 0 || (candidates.length === 1 && anchors.length === 0)) return { kept: [...candidates], collapsed: [] };
  if (anchors.length === 0 && nothingToCollapse(candidates)) return { kept: [...candidates], collapsed: [] };
  const collapsedBy = new Map<RuleFile, UnselectedRule>();
  const collapse = (file: RuleFile, into: RuleFile, detail: string) => {
    if (!collapsedBy.has(file)) collapsedBy.set(file, { file, reason: 'same-file', detail, sameAs: into.relativePath });
  };
  // 1. Same real path.
  const byReal = new Map<string, RuleFile>();
  for (const a of anchors) if (a.realPath && !byReal.has(a.realPath)) byReal.set(a.realPath, a);
  const isAnchor = new Set(anchors);
  const real = candidates.filter((c) => c.file.realPath);
  for (const c of [...real.filter((c) => c.file.linkTarget === null), ...real.filter((c) => c.file.linkTarget !== null)]) {
    const key = c.file.realPath!;
    const first = byReal.get(key);
    if (!first) {
      byReal.set(key, c.file);
      continue;
    }
    const how = c.file.linkTarget !== null ? `a symlink to ${c.file.linkTarget}` : `the same file through a symlinked folder`;
    collapse(c.file, first, `Same file as ${first.relativePath} (${how})${isAnchor.has(first) ? ', already loaded' : ''}: its text is loaded once.`);
  }
  // 2. and 3. Imports of files that are themselves selected or loaded.
  const live = () => [...anchors, ...candidates.map((c) => c.file).filter((f) => !collapsedBy.has(f))];
  const byPath = new Map<string, RuleFile>();
  for (const f of live()) byPath.set(f.relativePath, f);
  for (const importer of live()) {
    if (collapsedBy.has(importer) || importer.imports.length === 0) continue;
    const targets = importer.imports.map((imp) => ({ imp, file: byPath.get(imp.path) })).filter((t) => t.file && t.file !== importer && !collapsedBy.has(t.file));
    if (targets.length === 0) continue;
    const direct = importer.imports.filter((imp) => imp.depth === 1);
    const onlyImports = !isAnchor.has(importer) && importsOnly(importer.body) && direct.every((imp) => targets.some((t) => t.imp === imp));
    if (onlyImports) {
      const into = targets.find((t) => t.imp.depth === 1)!.file!;
      collapse(importer, into, `Same text as ${into.relativePath}: this file only imports it (@${into.relativePath}, line ${direct[0].line}), so the text is loaded once.`);
      continue;
    }
    for (const t of targets) {
      if (isAnchor.has(t.file!)) continue;
      collapse(t.file!, importer, `Same text as part of ${importer.relativePath}, which imports it (line ${t.imp.line} of ${t.imp.from}): the text is loaded once, inside ${importer.relativePath}.`);
    }
  }
  return { kept: candidates.filter((c) => !collapsedBy.has(c.file)), collapsed: candidates.flatMap((c) => collapsedBy.get(c.file) ?? []) };
}

/**
 * True when no case of {@link collapseSameText} can apply without anchors: no candidate imports
 * anything and no two share a real path (the common case, checked without building its maps).
 */
function nothingToCollapse(candidates: readonly SelectedRule[]): boolean {
  let reals: Set<string> | null = null;
  for (let i = 0; i < candidates.length; i++) {
    const file = candidates[i].file;
    if (file.imports.length > 0) return false;
    if (!file.realPath) continue;
    reals ??= new Set();
    if (reals.has(file.realPath)) return false;
    reals.add(file.realPath);
  }
  return true;
}

/** True when a body holds nothing but `@path` tokens (and whitespace). */
function importsOnly(body: string | null): boolean {
  return body !== null && body.trim() !== '' && body.replace(/(^|\s)@\S+/g, '$1').trim() === '';
}
