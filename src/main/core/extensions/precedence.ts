/**
 * THE precedence rule of every extension kind (replaces the anchor's four
 * different orders, seed §16.1). Lowest to highest:
 *
 *   built-in < user `.claude` < user `.blade` < project `.claude` < project `.blade` < plugin
 *
 * Two resources of one kind compete only when their ids are equal. Ids are the resource name for
 * native skills, commands, subagents, MCP and LSP servers; output styles carry their seed §3
 * prefix (`user:x`, `project:x`), so only the `.claude`/`.blade` pair of one scope competes there;
 * plugin resources are namespaced `plugin:<plugin>:<name>` and therefore never override anything by
 * accident. Within one layer a `*.local.*` file beats the shared one (settings semantics), and
 * among equals the first in path order wins (the others get a warning). An invalid resource never
 * wins. Files of other tools (`.cursor/mcp.json`, `.vscode/mcp.json`…) count as project `.claude`.
 */
export const LAYERS = ['builtin', 'user-claude', 'user-blade', 'project-claude', 'project-blade', 'plugin'] as const;

/** One precedence layer. */
export type Layer = (typeof LAYERS)[number];

/** What {@link applyPrecedence} needs of a resource. */
export interface Ranked {
  id: string;
  layer: Layer;
  local: boolean;
  path: string;
  status: string;
  overriddenBy: string | null;
  warnings: ReadonlyArray<{ path: string; line: number | null; message: string; fix: string | null }>;
}

/** The layer of a user- or project-level folder convention. */
export function layerOf(scope: 'user' | 'project', tool: 'claude' | 'blade'): Layer {
  return `${scope}-${tool}` as Layer;
}

/** Rank of a resource: higher wins. */
export function rankOf(item: Pick<Ranked, 'layer' | 'local'>): number {
  return LAYERS.indexOf(item.layer) * 2 + (item.local ? 1 : 0);
}

/**
 * Marks, for every id, the winner `active` and the others `overridden` (with `overriddenBy` = the
 * winner's path). Returns new objects sorted by id, then rank (winner first); never mutates.
 */
export function applyPrecedence<T extends Ranked>(items: readonly T[]): T[] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const list = groups.get(item.id) ?? [];
    list.push(item);
    groups.set(item.id, list);
  }
  const out: T[] = [];
  for (const id of [...groups.keys()].sort()) {
    const group = groups.get(id)!;
    const ordered = group
      .map((item, i) => ({ item, i }))
      .sort((a, b) => rankOf(b.item) - rankOf(a.item) || (a.item.path < b.item.path ? -1 : a.item.path > b.item.path ? 1 : a.i - b.i))
      .map((x) => x.item);
    const winner = ordered.find((x) => x.status !== 'invalid') ?? null;
    for (const item of ordered) {
      if (item.status === 'invalid' || item === winner) {
        out.push({ ...item, overriddenBy: null });
        continue;
      }
      const sameRank = winner !== null && rankOf(winner) === rankOf(item);
      const warnings = sameRank
        ? [...item.warnings, { path: item.path, line: null, message: `"${id}" is defined twice in the same place; ${winner.path} is used`, fix: 'Rename one of the two.' }]
        : item.warnings;
      out.push({ ...item, status: 'overridden', overriddenBy: winner?.path ?? null, warnings });
    }
  }
  return out;
}

/**
 * Resolves a name the way a user types it: an exact id first, else the unique active resource
 * whose short name (`name`) matches; a plugin resource's short name resolves only when unique.
 * @returns the resource, or `{ambiguous}` with the candidate ids, or null when nothing matches
 */
export function resolveName<T extends { id: string; name: string; status: string }>(items: readonly T[], query: string): T | { ambiguous: string[] } | null {
  const active = items.filter((i) => i.status === 'active');
  const exact = active.find((i) => i.id === query) ?? items.find((i) => i.id === query);
  if (exact) return exact;
  const byName = active.filter((i) => i.name === query || i.id.endsWith(`:${query}`));
  if (byName.length === 1) return byName[0];
  if (byName.length > 1) return { ambiguous: byName.map((i) => i.id) };
  return null;
}
