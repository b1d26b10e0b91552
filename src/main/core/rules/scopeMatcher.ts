import type { PatternAlternative, RuleFile } from './types';

/** A distinct expanded glob of one scope and the (file, pattern index) pairs that use it. */
interface GlobGroup {
  alternative: PatternAlternative;
  members: Array<{ file: RuleFile; patternIndex: number }>;
}

/** A conditional rule matched in one scope: the first (lowest index) pattern that matched. */
export interface ScopeMatch {
  file: RuleFile;
  patternIndex: number;
}

/**
 * The conditional rules of one scope directory, indexed so a lookup tests only plausible globs:
 * literal paths by exact value, globs with a literal extension (`**\/*.tsx`, `*Endpoints.cs`) by
 * that extension, globs with a literal leading folder (`docs/**`) by that folder, the rest always.
 * Identical globs shared by several rules are tested once per lookup. Results are exact: every
 * candidate is confirmed with minimatch.
 */
export class ScopeMatcher {
  private readonly literal = new Map<string, GlobGroup[]>();
  private readonly byExt = new Map<string, GlobGroup[]>();
  private readonly bySegment = new Map<string, GlobGroup[]>();
  private readonly generic: GlobGroup[] = [];

  constructor(files: readonly RuleFile[]) {
    const groups = new Map<string, GlobGroup>();
    files.forEach((file) =>
      file.compiledPatterns.forEach((pattern, patternIndex) => {
        for (const alternative of pattern.alternatives) {
          let group = groups.get(alternative.glob);
          if (!group) {
            group = { alternative, members: [] };
            groups.set(alternative.glob, group);
            this.bucketOf(alternative).push(group);
          }
          group.members.push({ file, patternIndex });
        }
      }),
    );
  }

  /** Adds to `out` the conditional rules whose patterns match `rel` (scope-relative, non-empty), with the lowest matching pattern index. */
  match(rel: string, out: Map<RuleFile, number>): void {
    const base = rel.slice(rel.lastIndexOf('/') + 1);
    const dot = base.lastIndexOf('.');
    const firstSlash = rel.indexOf('/');
    visit(this.literal.get(rel), rel, out);
    if (dot >= 0) visit(this.byExt.get(base.slice(dot + 1)), rel, out);
    visit(this.bySegment.get(firstSlash < 0 ? rel : rel.slice(0, firstSlash)), rel, out);
    visit(this.generic, rel, out);
  }

  private bucketOf(alt: PatternAlternative): GlobGroup[] {
    const into = (map: Map<string, GlobGroup[]>, key: string) => {
      let list = map.get(key);
      if (!list) map.set(key, (list = []));
      return list;
    };
    if (alt.literal) return into(this.literal, alt.glob);
    const dot = alt.suffix.lastIndexOf('.');
    if (dot >= 0 && dot < alt.suffix.length - 1) return into(this.byExt, alt.suffix.slice(dot + 1));
    const firstSlash = alt.prefix.indexOf('/');
    if (firstSlash > 0) return into(this.bySegment, alt.prefix.slice(0, firstSlash));
    return this.generic;
  }
}

function visit(groups: GlobGroup[] | undefined, rel: string, out: Map<RuleFile, number>): void {
  if (!groups) return;
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g];
    if (!group.alternative.test(rel)) continue;
    const members = group.members;
    for (let m = 0; m < members.length; m++) {
      const { file, patternIndex } = members[m];
      const current = out.get(file);
      if (current === undefined || patternIndex < current) out.set(file, patternIndex);
    }
  }
}
