import type { TrustDecision, Workspace } from '../../../../shared/contract';

/** True when `path` is `dir` or lies below it (either separator, so Windows paths work too). */
export function isAtOrBelow(path: string, dir: string): boolean {
  if (path === dir) return true;
  const base = dir.endsWith('/') || dir.endsWith('\\') ? dir : `${dir}/`;
  return path.startsWith(base) || path.startsWith(base.replace(/\/$/, '\\'));
}

/** What a decision for a folder would do to one listed workspace below it. */
export type CoverageEffect =
  /** The decision governs the workspace (nothing deeper decides it): its state follows the decision. */
  | 'follows'
  /** A deeper decision (its own, or a folder between) overrides it: the workspace keeps that state. */
  | 'overridden';

/** One listed workspace a folder's decision reaches, and whether it follows that decision. */
export interface CoveredWorkspace {
  workspace: Workspace;
  effect: CoverageEffect;
  /** For `overridden`: the deeper folder whose decision wins. */
  overriddenBy: string | null;
}

/**
 * The listed workspaces a decision recorded for `dir` reaches (their trust root at or below `dir`),
 * sorted by path. A workspace whose applying decision is recorded deeper than `dir` (for its own
 * trust root or a folder between) keeps that decision: the deepest decision wins (see the
 * contract's trust resolution). `decisions` are every recorded decision (`trust.list`); when
 * omitted, the workspaces' own `trust.decidedBy` is used, which tells the same for the decision
 * that applies today.
 */
export function coveredWorkspaces(dir: string, workspaces: readonly Workspace[], decisions?: readonly TrustDecision[]): CoveredWorkspace[] {
  return workspaces
    .filter((w) => isAtOrBelow(w.trustRoot, dir))
    .map((workspace) => {
      const deeper = decisions
        ? deepestBetween(workspace.trustRoot, dir, decisions)
        : workspace.trust.decidedBy && workspace.trust.decidedBy !== dir && isAtOrBelow(workspace.trust.decidedBy, dir)
          ? workspace.trust.decidedBy
          : null;
      return { workspace, effect: deeper ? ('overridden' as const) : ('follows' as const), overriddenBy: deeper };
    })
    .sort((a, b) => a.workspace.path.localeCompare(b.workspace.path));
}

/** The deepest recorded decision strictly below `dir` that governs `trustRoot`, else null. */
function deepestBetween(trustRoot: string, dir: string, decisions: readonly TrustDecision[]): string | null {
  let best: string | null = null;
  for (const d of decisions) {
    if (d.path === dir || !isAtOrBelow(d.path, dir) || !isAtOrBelow(trustRoot, d.path)) continue;
    if (!best || d.path.length > best.length) best = d.path;
  }
  return best;
}
