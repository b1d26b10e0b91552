import { formatBytes } from './readSource';
import { scopeContains } from './paths';
import { PLAIN_ASCII, ScopeMatcher, type FolderTests, type GlobGroup, type MatchPick, type SegmentEntry } from './scopeMatcher';
import type { RuleFile, SelectedRule, UnselectedRule } from './types';

/**
 * Per-catalog lookup structure for selection: selectable files (status `active`, kind `always` or
 * `conditional`) grouped by scope directory, conditional ones behind a {@link ScopeMatcher}, so a
 * lookup visits only the target's ancestors (≤ 33 map lookups) and tests only plausible globs.
 */
export class SelectionIndex {
  private readonly scopes = new Map<string, { unconditional: RuleFile[]; matcher: ScopeMatcher | null }>();
  /** Names of scopes by their parent folder ('' for the root's children). */
  private readonly childScopes = new Map<string, Set<string>>();
  /** Folder views by root-relative folder (null: not a plain ASCII folder); cleared when full. */
  private readonly views = new Map<string, FolderView | null>();
  /** The folder of the last lookup and its view. */
  private lastDir = '';
  private lastView: FolderView | null = null;
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
    for (const scope of this.scopes.keys()) {
      if (scope === '') continue;
      const slash = scope.lastIndexOf('/');
      const parent = slash < 0 ? '' : scope.slice(0, slash);
      let names = this.childScopes.get(parent);
      if (!names) this.childScopes.set(parent, (names = new Set()));
      names.add(scope.slice(slash + 1));
    }
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
    if (triggers.length === 1) {
      const template = this.templateFor(triggers[0]);
      if (template) return this.fromTemplate(template, triggers[0], fromRel, loaded, null);
    } else if (triggers.length > 1) {
      const templates = triggers.map((t) => this.templateFor(t));
      if (templates.every((t) => t !== null)) {
        // the first trigger that selects a file keeps it, as below
        const seen = new Set<RuleFile>();
        const out: SelectedRule[] = [];
        templates.forEach((t, i) => this.fromTemplate(t!, triggers[i], fromRel, loaded, seen, out));
        return out.length > 1 ? out.sort(byOrder) : out;
      }
    }
    return this.contextualSlow(fromRel, triggers, loaded);
  }

  /**
   * The selection of one trigger before the session's `loaded` files and the start folder are
   * taken into account, in catalog order, memoised per folder by the outcome of the tests its name
   * needs (for a monorepo's folder that is usually one test per extension: every `.ts` file of a
   * folder selects the same rules). Null when the trigger is not a plain ASCII path, names a folder
   * that is a scope itself, or its folder needs more name tests than a mask holds (the general path
   * answers then).
   */
  private templateFor(trigger: string): readonly TemplateEntry[] | null {
    const slash = trigger.lastIndexOf('/');
    if (slash === 0 || slash === trigger.length - 1) return null;
    const name = slash < 0 ? trigger : trigger.slice(slash + 1);
    if (!PLAIN_ASCII.test(name)) return null;
    let view: FolderView | null | undefined;
    // consecutive lookups in one folder (a listing, a session working on a package) skip the map
    if (slash > 0 && slash === this.lastDir.length && trigger.startsWith(this.lastDir)) view = this.lastView;
    else {
      const dir = slash < 0 ? '' : trigger.slice(0, slash);
      view = this.views.get(dir);
      if (view === undefined) {
        if (this.views.size >= VIEW_CACHE_MAX) this.views.clear();
        view = this.viewFor(dir);
        this.views.set(dir, view);
      }
      this.lastDir = dir;
      this.lastView = view;
    }
    // a trigger that is itself a scope (a folder with rules) is left to the general path
    if (view === null || (view.childScopes !== null && view.childScopes.has(name))) return null;
    const dot = name.lastIndexOf('.');
    const ext = dot >= 0 ? name.slice(dot + 1) : null;
    const extKey = ext ?? '\0';
    let tester = view.testers.get(extKey);
    if (tester === undefined) {
      tester = makeTester(view, ext);
      view.testers.set(extKey, tester);
    }
    if (tester === null) return null; // more tests than a mask holds: the general path
    let mask = 0;
    const names = tester.nameTests;
    for (let i = 0; i < names.length; i++) if (names[i](name)) mask |= 1 << i;
    const wholes = tester.wholeTests;
    for (let j = 0; j < wholes.length; j++) {
      const skip = wholes[j].skip;
      if (wholes[j].group.alternative.test(skip === 0 ? trigger : trigger.slice(skip))) mask |= 1 << (names.length + j);
    }
    let template = tester.memo.get(mask);
    if (template === undefined) {
      template = testerTemplate(view, tester, mask);
      if (tester.memo.size >= MEMO_MAX) tester.memo.clear();
      tester.memo.set(mask, template);
    }
    return template;
  }

  /** The scopes a file of plain ASCII folder `dir` lies in, with what decides their groups there. */
  private viewFor(dir: string): FolderView | null {
    if (dir !== '' && !PLAIN_ASCII.test(dir)) return null;
    const scopes: ViewScope[] = [];
    let end = -1;
    for (;;) {
      const scopeName = end < 0 ? '' : dir.slice(0, end);
      const scope = this.scopes.get(scopeName);
      if (scope) {
        const inScopeDir = scopeName === '' ? dir : end === dir.length ? '' : dir.slice(end + 1);
        scopes.push({ skip: scopeName === '' ? 0 : scopeName.length + 1, tests: scope.matcher ? scope.matcher.folderTests(inScopeDir) : null, unconditional: scope.unconditional });
      }
      if (end === dir.length || dir === '') break;
      const next = dir.indexOf('/', end + 1);
      end = next < 0 ? dir.length : next;
    }
    return { scopes, testers: new Map(), childScopes: this.childScopes.get(dir) ?? null };
  }

  /** Adds the template's entries that apply (not loaded; nested scopes not containing `fromRel`) for `trigger`. */
  private fromTemplate(template: readonly TemplateEntry[], trigger: string, fromRel: string, loaded: ReadonlySet<string>, seen: Set<RuleFile> | null, out: SelectedRule[] = []): SelectedRule[] {
    for (let i = 0; i < template.length; i++) {
      const entry = template[i];
      const file = entry.file;
      if (loaded.size > 0 && loaded.has(file.id)) continue;
      if (entry.reason === 'nested-scope' && scopeContains(file.scope, fromRel)) continue;
      if (seen) {
        if (seen.has(file)) continue;
        seen.add(file);
      }
      out.push({ file, reason: entry.reason, matchedPattern: entry.matchedPattern, triggerPath: trigger });
    }
    return out;
  }

  /** {@link contextualCandidates} for any triggers, scope by scope. */
  private contextualSlow(fromRel: string, triggers: readonly string[], loaded: ReadonlySet<string>): SelectedRule[] {
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
        detail: `${sizeText(s.file.bodyBytes)} does not fit the ${sizeText(remaining)} left of the ${sizeText(maxBytes)} budget after more specific files.`,
      });
    }
  }
  return { kept: kept.reverse(), dropped: dropped.reverse() };
}

/** {@link formatBytes}, remembered: a budget pass writes the same few sizes for every lookup. */
function sizeText(bytes: number): string {
  let text = sizeTexts.get(bytes);
  if (text === undefined) {
    if (sizeTexts.size >= 10_000) sizeTexts.clear();
    text = formatBytes(bytes);
    sizeTexts.set(bytes, text);
  }
  return text;
}

const sizeTexts = new Map<number, string>();

function byOrder(a: { file: RuleFile }, b: { file: RuleFile }): number {
  return a.file.order - b.file.order;
}

/** Most folder views an index keeps, and most templates per tester (both are small). */
const VIEW_CACHE_MAX = 50_000;
const MEMO_MAX = 256;

/** One scope above a folder: how much of a trigger to cut for its scope-relative path, and its tests there. */
interface ViewScope {
  skip: number;
  tests: FolderTests | null;
  unconditional: readonly RuleFile[];
}

/** The scopes of one folder (root first) and its testers by extension. */
interface FolderView {
  scopes: ViewScope[];
  /** By the name's extension ('\0' for none); null when it needs more tests than a mask holds. */
  testers: Map<string, Tester | null>;
  /** Names of the folder's children that are scopes themselves (null: none). */
  childScopes: Set<string> | null;
}

/**
 * Every test a name with one extension needs in one folder, each distinct test once (the `*.ts`
 * of many scopes is one test), so a lookup is a handful of tests and a mask: bit i for
 * `nameTests[i]`, then one bit per `wholeTests` entry.
 */
interface Tester {
  nameTests: Array<(name: string) => boolean>;
  wholeTests: Array<{ group: GlobGroup; skip: number }>;
  /** Per scope of the view: its segment entries with their bits, whole groups with theirs, and `always`. */
  scopes: Array<{ entries: Array<{ entry: SegmentEntry; bit: number; groupBits: number[] }>; wholes: Array<{ group: GlobGroup; bit: number }>; always: readonly GlobGroup[] }>;
  memo: Map<number, readonly TemplateEntry[]>;
}

/** Most tests one mask holds (bits of a small integer). */
const MAX_TESTS = 30;

/** The {@link Tester} of names with extension `ext` (null: none) in `view`, or null when it would need more than {@link MAX_TESTS} tests. */
function makeTester(view: FolderView, ext: string | null): Tester | null {
  const nameTests: Tester['nameTests'] = [];
  const wholeTests: Tester['wholeTests'] = [];
  const nameBit = new Map<(name: string) => boolean, number>();
  const scopes: Tester['scopes'] = [];
  const wholeBit = (group: GlobGroup, skip: number) => {
    wholeTests.push({ group, skip });
    return -wholeTests.length; // made absolute below, once the name tests are counted
  };
  for (const { tests, skip } of view.scopes) {
    const scope: Tester['scopes'][number] = { entries: [], wholes: [], always: tests?.always ?? [] };
    scopes.push(scope);
    if (!tests) continue;
    const lists: Array<readonly SegmentEntry[] | undefined> = [];
    if (tests.plan) {
      if (ext !== null) lists.push(tests.plan.byExt.get(ext), tests.plan.byFoldedExt.get(ext.toLowerCase()));
      lists.push(tests.plan.anyName);
    }
    for (const list of lists) {
      for (const entry of list ?? []) {
        let bit = nameBit.get(entry.segment);
        if (bit === undefined) {
          bit = nameTests.length;
          nameTests.push(entry.segment);
          nameBit.set(entry.segment, bit);
        }
        scope.entries.push({ entry, bit, groupBits: entry.full ? entry.groups.map((g) => wholeBit(g, skip)) : [] });
      }
    }
    for (const group of tests.whole) scope.wholes.push({ group, bit: wholeBit(group, skip) });
  }
  if (nameTests.length + wholeTests.length > MAX_TESTS) return null;
  const absolute = (bit: number) => (bit < 0 ? nameTests.length + (-bit - 1) : bit);
  for (const scope of scopes) {
    for (const e of scope.entries) e.groupBits = e.groupBits.map(absolute);
    for (const w of scope.wholes) w.bit = absolute(w.bit);
  }
  return { nameTests, wholeTests, scopes, memo: new Map() };
}

/** The template for one outcome `mask` of a tester's tests. */
function testerTemplate(view: FolderView, tester: Tester, mask: number): readonly TemplateEntry[] {
  // each matched file with its lowest matching pattern index, as the general path records it
  const best = new Map<RuleFile, number>();
  const hit = (group: GlobGroup) => {
    for (const { file, patternIndex } of group.members) {
      const known = best.get(file);
      if (known === undefined || patternIndex < known) best.set(file, patternIndex);
    }
  };
  const set = (bit: number) => (mask & (1 << bit)) !== 0;
  for (const scope of tester.scopes) {
    for (const { entry, bit, groupBits } of scope.entries) {
      if (!set(bit)) continue;
      entry.groups.forEach((group, g) => {
        if (!entry.full || set(groupBits[g])) hit(group);
      });
    }
    for (const { group, bit } of scope.wholes) if (set(bit)) hit(group);
    for (const group of scope.always) hit(group);
  }
  return templateOf(view, best);
}

/** One selected file of a template: what {@link SelectedRule} holds besides the trigger. */
interface TemplateEntry {
  file: RuleFile;
  reason: 'pattern-match' | 'nested-scope';
  matchedPattern: string | null;
}

/** Template entries of the matched files (lowest pattern index each) and the view's unconditional files, in catalog order. */
function templateOf(view: FolderView, best: ReadonlyMap<RuleFile, number>): readonly TemplateEntry[] {
  const entries: TemplateEntry[] = [];
  for (const [file, index] of best) entries.push({ file, reason: 'pattern-match', matchedPattern: file.patterns[index] });
  for (const scope of view.scopes) for (const file of scope.unconditional) entries.push({ file, reason: 'nested-scope', matchedPattern: null });
  return Object.freeze(entries.sort(byOrder));
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
