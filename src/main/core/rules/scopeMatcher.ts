import { isAscii } from './patterns';
import type { PatternAlternative, RuleFile } from './types';

/** A distinct expanded glob of one scope and the (file, pattern index) pairs that use it. */
interface GlobGroup {
  alternative: PatternAlternative;
  members: Array<{ file: RuleFile; patternIndex: number }>;
}

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
  private readonly all: GlobGroup[] | null;
  private readonly exact = new Buckets();
  private readonly folded = new Buckets();
  /** Every case-blind group, for paths with a non-ASCII character. */
  private readonly caseBlind: GlobGroup[] = [];

  constructor(files: readonly RuleFile[]) {
    const groups = new Map<string, GlobGroup>();
    for (const file of files) {
      file.compiledPatterns.forEach((pattern, patternIndex) => {
        for (const alternative of pattern.alternatives) {
          const key = `${alternative.caseInsensitive ? 'i' : 's'}${alternative.glob}`;
          let group = groups.get(key);
          if (!group) groups.set(key, (group = { alternative, members: [] }));
          group.members.push({ file, patternIndex });
        }
      });
    }
    if (groups.size <= LINEAR_MAX) {
      this.all = [...groups.values()];
      return;
    }
    this.all = null;
    for (const group of groups.values()) {
      const alt = group.alternative;
      if (!alt.caseInsensitive) {
        this.exact.add(group, alt.literal, alt.prefix, alt.suffix);
        continue;
      }
      this.caseBlind.push(group);
      // a folded prefix of '' (none, or not ASCII) is probed for every path anyway
      this.folded.add(group, false, alt.foldedPrefix, alt.foldedSuffix);
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
    this.exact.probe(rel, ctx);
    if (this.caseBlind.length === 0) return;
    if (isAscii(rel)) this.folded.probe(rel.toLowerCase(), ctx);
    else visit(this.caseBlind, ctx);
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
    if (!group.alternative.test(ctx.rel)) continue;
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
