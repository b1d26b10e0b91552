import { Minimatch } from 'minimatch';
import { isAscii } from './patterns';
import type { PatternAlternative, RuleFile } from './types';

/** A distinct expanded glob of one scope and the (file, pattern index) pairs that use it. */
export interface GlobGroup {
  /** Unique in the process (a memo key part, see {@link FolderTests}). */
  readonly id: number;
  alternative: PatternAlternative;
  members: Array<{ file: RuleFile; patternIndex: number }>;
}

/** Ids of groups and segment entries: distinct across every matcher of the process. */
let nextId = 1;

/** Below this many distinct globs a scope is scanned linearly (cheaper than the index). */
const LINEAR_MAX = 16;

/** Literal-path, leading-folder and extension buckets of globs (see {@link ScopeMatcher}). */
class Buckets {
  readonly literal = new Map<string, GlobGroup[]>();
  readonly byPrefix = new Map<string, GlobGroup[]>();
  readonly byExt = new Map<string, Map<string, GlobGroup[]>>();

  add(group: GlobGroup, literal: boolean, prefix: string, suffix: string): void {
    const into = (map: Map<string, GlobGroup[]>, key: string) => {
      let list = map.get(key);
      if (!list) map.set(key, (list = []));
      list.push(group);
    };
    if (literal) return into(this.literal, group.alternative.glob);
    const prefixDir = prefix.endsWith('/') ? prefix.slice(0, -1) : '';
    const dot = suffix.lastIndexOf('.');
    if (dot >= 0 && dot < suffix.length - 1) {
      const ext = suffix.slice(dot + 1);
      let map = this.byExt.get(ext);
      if (!map) this.byExt.set(ext, (map = new Map()));
      return into(map, prefixDir);
    }
    into(this.byPrefix, prefixDir);
  }

  /** Visits the groups `rel` may match: its literal entry, and the buckets of its ancestor folders (and of its extension). */
  probe(rel: string, ctx: VisitContext): void {
    visit(this.literal.get(rel), ctx);
    const base = rel.slice(rel.lastIndexOf('/') + 1);
    const dot = base.lastIndexOf('.');
    const byExt = dot >= 0 ? this.byExt.get(base.slice(dot + 1)) : undefined;
    let end = -1;
    for (;;) {
      const prefix = end < 0 ? '' : rel.slice(0, end);
      visit(this.byPrefix.get(prefix), ctx);
      if (byExt) visit(byExt.get(prefix), ctx);
      if (end === rel.length) break;
      const next = rel.indexOf('/', end + 1);
      end = next < 0 ? rel.length : next;
    }
  }
}

/**
 * The conditional rules of one scope directory, indexed so a lookup tests only plausible globs:
 * literal paths by exact value; other globs by their literal leading folder (`packages/api/` of
 * `packages/api/**\/*.ts`) and, when they end in a literal extension (`*.tsx`, `*Endpoints.cs`),
 * by that extension too. A lookup probes the target's ancestor folders only. Case-blind globs
 * (Claude's `paths`, Copilot's `applyTo`) are bucketed the same way by their ASCII-lower-cased
 * folder and extension and probed with the path in ASCII lower case; a path with a non-ASCII
 * character tests every case-blind glob (see `asciiFold` in patterns.ts). Identical globs shared
 * by several rules are tested once. Results are exact: every candidate is confirmed by the
 * pattern's own test.
 */
export class ScopeMatcher {
  /** Every distinct group of the scope. */
  private readonly groups: GlobGroup[];
  /** The groups, when few enough to be tested one by one (then `match` does); null otherwise. */
  private readonly all: GlobGroup[] | null;
  private indexed = false;
  private readonly exact = new Buckets();
  private readonly folded = new Buckets();
  /** Every case-blind group, for paths with a non-ASCII character. */
  private readonly caseBlind: GlobGroup[] = [];
  /** Groups whose answer splits into a folder part and a last-segment part (see {@link DirPlan}). */
  private readonly split: SplitGroup[] = [];
  /** The other groups, bucketed as above, probed beside a folder plan. */
  private readonly otherExact = new Buckets();
  private readonly otherFolded = new Buckets();
  private hasOtherFolded = false;
  /** The groups no folder plan covers (both cases), for {@link folderTests}. */
  private readonly others: GlobGroup[] = [];
  /** Folder plans by scope-relative folder ('' for the scope itself); cleared when full. */
  private readonly plans = new Map<string, DirPlan>();

  constructor(files: readonly RuleFile[]) {
    const groups = new Map<string, GlobGroup>();
    for (const file of files) {
      file.compiledPatterns.forEach((pattern, patternIndex) => {
        for (const alternative of pattern.alternatives) {
          const key = `${alternative.caseInsensitive ? 'i' : 's'}${alternative.glob}`;
          let group = groups.get(key);
          if (!group) groups.set(key, (group = { id: nextId++, alternative, members: [] }));
          group.members.push({ file, patternIndex });
        }
      });
    }
    this.groups = [...groups.values()];
    this.all = groups.size <= LINEAR_MAX ? this.groups : null;
  }

  /**
   * Buckets and splits the groups on first use (a catalog that is only listed never pays for it):
   * the buckets only when there are more than {@link LINEAR_MAX} groups, the splits always (the
   * folder plans of {@link folderTests} use them whatever the number).
   */
  private ensureIndexed(): void {
    if (this.indexed) return;
    this.indexed = true;
    const bucketed = this.all === null;
    for (const group of this.groups) {
      const alt = group.alternative;
      if (!bucketed) break;
      if (!alt.caseInsensitive) {
        this.exact.add(group, alt.literal, alt.prefix, alt.suffix);
        continue;
      }
      this.caseBlind.push(group);
      // a folded prefix of '' (none, or not ASCII) is probed for every path anyway
      this.folded.add(group, false, alt.foldedPrefix, alt.foldedSuffix);
    }
    for (const group of this.groups) {
      const split = splitGroup(group);
      if (split) {
        this.split.push(split);
        continue;
      }
      const alt = group.alternative;
      this.others.push(group);
      if (!bucketed) continue;
      if (!alt.caseInsensitive) this.otherExact.add(group, alt.literal, alt.prefix, alt.suffix);
      else {
        this.hasOtherFolded = true;
        this.otherFolded.add(group, false, alt.foldedPrefix, alt.foldedSuffix);
      }
    }
  }

  /**
   * Records in `out` the conditional rules (not in `loaded`) whose patterns match `rel`
   * (scope-relative, non-empty) for `trigger`, keeping each file's lowest matching pattern index.
   * Files already picked for an earlier trigger keep that pick.
   */
  match(rel: string, trigger: string, loaded: ReadonlySet<string>, out: Map<RuleFile, MatchPick>): void {
    const ctx: VisitContext = { rel, trigger, loaded, out };
    if (this.all) {
      visit(this.all, ctx);
      return;
    }
    this.ensureIndexed();
    if (PLAIN_ASCII.test(rel)) {
      this.matchPlanned(rel, ctx);
      return;
    }
    this.exact.probe(rel, ctx);
    if (this.caseBlind.length === 0) return;
    if (isAscii(rel)) this.folded.probe(rel.toLowerCase(), ctx);
    else visit(this.caseBlind, ctx);
  }
  /**
   * What decides the groups matching a name in plain ASCII scope-relative folder `dir` (no empty,
   * `.` or `..` segment): see {@link FolderTests}, from the folder's plan whatever the number of
   * groups. The same answer as {@link match} for every plain ASCII name in `dir`.
   */
  folderTests(dir: string): FolderTests {
    this.ensureIndexed();
    const plan = this.cachedPlan(dir);
    return { always: plan.always, plan, whole: plan.unknown.length === 0 ? this.others : [...plan.unknown, ...this.others] };
  }

  private cachedPlan(dir: string): DirPlan {
    let plan = this.plans.get(dir);
    if (plan === undefined) {
      if (this.plans.size >= PLAN_CACHE_MAX) this.plans.clear();
      plan = this.planFor(dir);
      this.plans.set(dir, plan);
    }
    return plan;
  }

  /** {@link match} for a plain ASCII path: the folder's plan, then the groups no plan covers. */
  private matchPlanned(rel: string, ctx: VisitContext): void {
    const slash = rel.lastIndexOf('/');
    const dir = slash < 0 ? '' : rel.slice(0, slash);
    const base = slash < 0 ? rel : rel.slice(slash + 1);
    const plan = this.cachedPlan(dir);
    for (let i = 0; i < plan.always.length; i++) record(plan.always[i], ctx);
    const dot = base.lastIndexOf('.');
    if (dot >= 0) {
      const ext = base.slice(dot + 1);
      if (plan.byExt.size > 0) visitSegments(plan.byExt.get(ext), base, ctx);
      if (plan.byFoldedExt.size > 0) visitSegments(plan.byFoldedExt.get(ext.toLowerCase()), base, ctx);
    }
    visitSegments(plan.anyName, base, ctx);
    visit(plan.unknown, ctx);
    this.otherExact.probe(rel, ctx);
    if (this.hasOtherFolded) this.otherFolded.probe(rel.toLowerCase(), ctx);
  }

  /** Builds the plan of plain ASCII folder `dir` (scope-relative). */
  private planFor(dir: string): DirPlan {
    const plan: DirPlan = { always: [], byExt: new Map(), byFoldedExt: new Map(), anyName: [], unknown: [] };
    const under = dir === '' ? '' : `${dir}/`;
    const foldedUnder = under.toLowerCase();
    for (const split of this.split) {
      const folder = split.group.alternative.caseInsensitive ? foldedUnder : under;
      // a glob whose literal folders lead elsewhere matches nothing here (nor this folder itself)
      if (dir !== '' && !folder.startsWith(split.folder) && !split.folder.startsWith(folder)) continue;
      if (split.witness === null) {
        plan.unknown.push(split.group);
        continue;
      }
      const folderMatches = split.anyBelow !== null ? folder.startsWith(split.anyBelow) : split.group.alternative.test(under + split.witness);
      if (split.folderOnly && folderMatches) {
        plan.always.push(split.group);
        continue;
      }
      if (!split.folderOnly && !folderMatches) continue;
      let full = split.folderOnly;
      if (full && split.nameWitness !== null) {
        // `H/**` where H matches no folder here: it matches `D/B` when H does, decided by a name H's last segment takes
        if (!split.group.alternative.test(under + split.nameWitness)) continue;
        full = false;
      }
      let list: SegmentEntry[] | undefined;
      if (split.ext === null) list = plan.anyName;
      else {
        const map = split.group.alternative.caseInsensitive ? plan.byFoldedExt : plan.byExt;
        list = map.get(split.ext);
        if (!list) map.set(split.ext, (list = []));
      }
      // globs ending in the same segment (`*.ts` of many folders) share one name test
      const same = list.find((e) => e.segment === split.segment && e.full === full);
      if (same) same.groups.push(split.group);
      else list.push({ id: nextId++, segment: split.segment, full, groups: [split.group] });
    }
    return plan;
  }
}

/**
 * The tests that decide which groups of one scope match a name in one folder: the groups in
 * `always` match every name there; the plan's segment entries (by extension, see {@link DirPlan})
 * test the name, and a `full` entry's groups are then tested whole; the groups in `whole` are
 * tested on the whole scope-relative path. Lets a caller memoise per folder by the outcome of the
 * name's tests (see `SelectionIndex`).
 */
export interface FolderTests {
  always: readonly GlobGroup[];
  plan: DirPlan | null;
  whole: readonly GlobGroup[];
}

/** Most folder plans one scope keeps (a plan is a few short arrays). */
const PLAN_CACHE_MAX = 50_000;

/** A path without empty, `.` or `..` segments, made of ASCII characters only. */
export const PLAIN_ASCII = /^(?!.*(?:^|\/)\.{0,2}(?:\/|$))[\x00-\x7f]*$/;

/** Characters a split glob may hold besides literals: `*` and `?` (no classes, extglobs, escapes or negation). */
const SPLIT_UNSAFE = /[[\]{}()!+@\\#]/;

/**
 * A glob minimatch matches segment by segment whose answer for a plain path `D/B` splits into a
 * part that depends on the folder `D` only and a test of the name `B`:
 * - `folderOnly` (the glob is `H/**`): it matches `D/B` when `H` matches `D` or one of its
 *   ancestor folders (a function of `D`, decided by testing `D/witness` with a `witness` name
 *   that `H`'s last segment rejects), and otherwise only when `H` matches `D/B` itself (which
 *   needs `segment(B)`, `H`'s last segment, and is then decided by testing the whole path);
 * - otherwise the last glob segment (without `**`) must match the last path segment `B` and the
 *   rest of the glob the rest of the path: `segment(B)` and a folder part that `witness` (a name
 *   the last segment matches) decides for `D` by testing `D/witness`.
 * `ext` is what every name passing `segment` has after its last `.` (ASCII lower case for
 * case-blind globs), or null. A null `witness` leaves the glob to be tested whole.
 * `test/unit/rules/selectionIndex.test.ts` checks the split against the globs' own tests.
 */
interface SplitGroup {
  group: GlobGroup;
  /** Literal leading folders of the glob (`packages/api/`), ASCII-lower-cased for case-blind globs. */
  folder: string;
  /** The glob ends in `/**` (see {@link splitGroup}). */
  folderOnly: boolean;
  segment: (name: string) => boolean;
  witness: string | null;
  ext: string | null;
  /**
   * For `P/**\/S` with literal folders `P/` ('' for `**\/S`, ASCII lower case when case-blind):
   * the folder part holds exactly for folders whose path with a trailing `/` starts with it, so no
   * witness is tested.
   */
  anyBelow: string | null;
  /**
   * A name `segment` accepts (null when none was found). For `H/**` in a folder `D` where `H`
   * matches neither `D` nor an ancestor, `H/**` matches `D/B` exactly when `H` matches `D/B`: for
   * a name passing `segment`, a folder part that `D/nameWitness` decides, as for the other shape.
   */
  nameWitness: string | null;
}

/** The split form of a group's glob, or null when it has a shape this does not cover. */
function splitGroup(group: GlobGroup): SplitGroup | null {
  const alt = group.alternative;
  const glob = alt.glob;
  if (SPLIT_UNSAFE.test(glob) || !isAscii(glob) || /(?:^|\/)\*\*\/\*\*(?:\/|$)/.test(glob) || /(?:^|\/)\.{0,2}(?:\/|$)/.test(glob)) return null;
  const slash = glob.lastIndexOf('/');
  const last = glob.slice(slash + 1);
  const nocase = alt.caseInsensitive;
  const literalFolders = (text: string) => {
    const star = text.search(/[*?]/);
    const lead = star < 0 ? text : text.slice(0, text.lastIndexOf('/', star) + 1);
    const folder = lead.endsWith('/') ? lead : lead.slice(0, lead.lastIndexOf('/') + 1);
    return nocase ? folder.toLowerCase() : folder;
  };
  if (last === '**') {
    if (slash <= 0) return null;
    const head = glob.slice(0, slash);
    const headLast = head.slice(head.lastIndexOf('/') + 1);
    if (headLast.includes('**')) return null;
    const segment = segmentTest(headLast, nocase);
    if (segment === null) return null;
    return { group, folder: literalFolders(glob.slice(0, slash + 1)), folderOnly: true, segment, witness: segment(BLOCKER) ? null : BLOCKER, ext: extOf(headLast, nocase), anyBelow: null, nameWitness: nameWitness(headLast, segment) };
  }
  if (last.includes('**')) return null;
  const segment = segmentTest(last, nocase);
  if (segment === null) return null;
  const witness = nameWitness(last, segment);
  // `P/**/S` (P literal folders, maybe none): the folder part holds exactly in and below P
  const lead = glob.slice(0, slash + 1);
  const anyBelow = (lead === '**/' || lead.endsWith('/**/')) && !/[*?]/.test(lead.slice(0, -3)) ? (nocase ? lead.slice(0, -3).toLowerCase() : lead.slice(0, -3)) : null;
  return { group, folder: literalFolders(lead), folderOnly: false, segment, witness, ext: extOf(last, nocase), anyBelow, nameWitness: witness };
}

/** A plain name glob segment `last` (literals, `*`, `?`) matches, made from its literals, or null. */
function nameWitness(last: string, segment: (name: string) => boolean): string | null {
  for (const candidate of [last.replace(/\*/g, '').replace(/\?/g, 'x'), last.replace(/[*?]/g, 'x')]) {
    if (candidate !== '' && candidate !== '.' && candidate !== '..' && segment(candidate)) return candidate;
  }
  return null;
}

/** Minimatch's test of one glob segment against one name, shared by identical segments. */
function segmentTest(segment: string, nocase: boolean): ((name: string) => boolean) | null {
  const key = `${nocase ? 'i' : 's'}${segment}`;
  const known = segmentTests.get(key);
  if (known !== undefined) return known;
  const re = new Minimatch(segment, { dot: true, nobrace: true, nocase }).makeRe();
  const test = re === false ? null : (plainNameTest(segment, nocase) ?? ((name: string) => re.test(name)));
  if (segmentTests.size >= 10_000) segmentTests.clear();
  segmentTests.set(key, test);
  return test;
}

const segmentTests = new Map<string, ((name: string) => boolean) | null>();

const SEGMENT_GLOB = /[*?[\]{}()!+@\\#]/;

/**
 * For the two commonest segments, a literal name (`index.md`) and `*` before a literal tail
 * (`*.ts`), the test minimatch's RegExp makes (`dot: true`), written as string comparisons for
 * the only names segment tests are given: plain ASCII names (not empty, `.` or `..`, no `/`).
 * Case-blind ones compare ASCII letters without case, as the RegExp's `i` flag does. Null for
 * any other segment. `test/unit/rules/selectionIndex.test.ts` compares them with minimatch.
 */
export function plainNameTest(segment: string, nocase: boolean): ((name: string) => boolean) | null {
  const literal = !SEGMENT_GLOB.test(segment);
  const tail = segment.startsWith('*') ? segment.slice(1) : null;
  if (!literal && (tail === null || tail === '' || SEGMENT_GLOB.test(tail) || !isAscii(tail))) return null;
  if (literal && !isAscii(segment)) return null;
  const text = literal ? segment : tail!;
  if (!nocase) return literal ? (name) => name === text : (name) => name.endsWith(text);
  const folded = text.toLowerCase();
  return literal ? (name) => name.length === folded.length && endsWithFolded(name, folded) : (name) => name.length >= folded.length && endsWithFolded(name, folded);
}

/** True when ASCII `name` ends with `folded` (ASCII lower case), ignoring the case of ASCII letters. */
function endsWithFolded(name: string, folded: string): boolean {
  const start = name.length - folded.length;
  for (let i = 0; i < folded.length; i++) {
    let c = name.charCodeAt(start + i);
    if (c >= 65 && c <= 90) c += 32;
    if (c !== folded.charCodeAt(i)) return false;
  }
  return true;
}

/** A name no glob segment made of literals, `*` and `?` matches unless it is `*`-only or `?`-only. */
const BLOCKER = '\x01';

/** What every name matching glob segment `last` has after its last `.` (ASCII lower case when `nocase`), or null. */
function extOf(last: string, nocase: boolean): string | null {
  const dot = last.lastIndexOf('.');
  const tail = dot < 0 ? '' : last.slice(dot + 1);
  return tail === '' || /[*?]/.test(tail) ? null : nocase ? tail.toLowerCase() : tail;
}

/**
 * What the split groups answer for the paths of one folder: `always` match every name in it,
 * `byExt`/`byFoldedExt` (by the name's extension, as written / ASCII-lower-cased) and `anyName`
 * match a name their last segment matches, `unknown` (no witness name) are tested whole.
 */
export interface DirPlan {
  always: GlobGroup[];
  byExt: Map<string, SegmentEntry[]>;
  byFoldedExt: Map<string, SegmentEntry[]>;
  anyName: SegmentEntry[];
  unknown: GlobGroup[];
}

export interface SegmentEntry {
  /** Unique in the process, like {@link GlobGroup.id}. */
  readonly id: number;
  groups: GlobGroup[];
  segment: (name: string) => boolean;
  /** The name passing `segment` is necessary, not sufficient: the whole glob is tested then. */
  full: boolean;
}

function visitSegments(entries: SegmentEntry[] | undefined, name: string, ctx: VisitContext): void {
  if (!entries) return;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    if (!entry.segment(name)) continue;
    const groups = entry.groups;
    for (let g = 0; g < groups.length; g++) if (!entry.full || groups[g].alternative.test(ctx.rel)) record(groups[g], ctx);
  }
}

/** A selection in progress: the file, why, which pattern (index) and which trigger. */
export interface MatchPick {
  file: RuleFile;
  reason: 'pattern-match' | 'nested-scope';
  patternIndex: number;
  trigger: string;
}

interface VisitContext {
  rel: string;
  trigger: string;
  loaded: ReadonlySet<string>;
  out: Map<RuleFile, MatchPick>;
}

function visit(groups: GlobGroup[] | undefined, ctx: VisitContext): void {
  if (!groups) return;
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g];
    if (group.alternative.test(ctx.rel)) record(group, ctx);
  }
}

/** Records the members of a group that matches `ctx.rel`. */
function record(group: GlobGroup, ctx: VisitContext): void {
  {
    const members = group.members;
    for (let m = 0; m < members.length; m++) {
      const { file, patternIndex } = members[m];
      const current = ctx.out.get(file);
      if (current === undefined) {
        if (!ctx.loaded.has(file.id)) ctx.out.set(file, { file, reason: 'pattern-match', patternIndex, trigger: ctx.trigger });
      } else if (current.trigger === ctx.trigger && current.reason === 'pattern-match' && patternIndex < current.patternIndex) {
        current.patternIndex = patternIndex;
      }
    }
  }
}
