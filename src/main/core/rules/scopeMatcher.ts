import type { PatternAlternative, RuleFile } from './types';

/** A distinct expanded glob of one scope and the (file, pattern index) pairs that use it. */
interface GlobGroup {
  alternative: PatternAlternative;
  members: Array<{ file: RuleFile; patternIndex: number }>;
}

/** Below this many distinct globs a scope is scanned linearly (cheaper than the index). */
const LINEAR_MAX = 16;

/**
 * The conditional rules of one scope directory, indexed so a lookup tests only plausible globs:
 * literal paths by exact value; other globs by their literal leading folder (`packages/api/` of
 * `packages/api/**\/*.ts`) and, when they end in a literal extension (`*.tsx`, `*Endpoints.cs`),
 * by that extension too. A lookup probes the target's ancestor folders only. Identical globs shared
 * by several rules are tested once. Results are exact: every candidate is confirmed with minimatch.
 */
export class ScopeMatcher {
  private readonly all: GlobGroup[] | null;
  private readonly literal = new Map<string, GlobGroup[]>();
  private readonly byPrefix = new Map<string, GlobGroup[]>();
  private readonly byExt = new Map<string, Map<string, GlobGroup[]>>();

  constructor(files: readonly RuleFile[]) {
    const groups = new Map<string, GlobGroup>();
    for (const file of files) {
      file.compiledPatterns.forEach((pattern, patternIndex) => {
        for (const alternative of pattern.alternatives) {
          let group = groups.get(alternative.glob);
          if (!group) groups.set(alternative.glob, (group = { alternative, members: [] }));
          group.members.push({ file, patternIndex });
        }
      });
    }
    if (groups.size <= LINEAR_MAX) {
      this.all = [...groups.values()];
      return;
    }
    this.all = null;
    for (const group of groups.values()) this.bucketOf(group.alternative).push(group);
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

  private bucketOf(alt: PatternAlternative): GlobGroup[] {
    const into = (map: Map<string, GlobGroup[]>, key: string) => {
      let list = map.get(key);
      if (!list) map.set(key, (list = []));
      return list;
    };
    if (alt.literal) return into(this.literal, alt.glob);
    const prefixDir = alt.prefix.endsWith('/') ? alt.prefix.slice(0, -1) : '';
    const dot = alt.suffix.lastIndexOf('.');
    if (dot >= 0 && dot < alt.suffix.length - 1) {
      const ext = alt.suffix.slice(dot + 1);
      let map = this.byExt.get(ext);
      if (!map) this.byExt.set(ext, (map = new Map()));
      return into(map, prefixDir);
    }
    return into(this.byPrefix, prefixDir);
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
