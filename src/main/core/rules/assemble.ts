import { compareCodePoints } from '../files/listWorkspaceFiles';
import { scopeDepth } from './classify';
import { digestOfEntries, ruleId } from './hash';
import type { RuleRecord } from './loadRule';
import type { RuleFile, RuleStatus, RuleWarning } from './types';
import { utf8Bytes } from '../formats/text';
import { warning } from './warnings';

/** Ordered, frozen catalog entries and their digest. */
export interface AssembledCatalog {
  files: readonly RuleFile[];
  /** SHA-256 over `"<id>:<sha256>"` lines of entries that have a digest, in catalog order. */
  catalogSha256: string;
}

/**
 * Turns loaded records into the catalog (overrides, identity and order):
 * `AGENTS.override.md` hides `AGENTS.md` in the same folder (an empty override still hides it,
 * with a warning, as Codex does; at user level an empty `~/.codex/AGENTS.override.md` falls back
 * to `AGENTS.md`, as Codex's global level does). Order: user files first, then scope depth, then
 * priority, then relative path by code point. `nestedRoots` (root-relative folders of nested
 * repositories, submodules and worktrees) give each file its `nestedRoot`. Pure; input records
 * are not modified.
 */
export function assembleCatalog(records: readonly RuleRecord[], nestedRoots: readonly string[] = []): AssembledCatalog {
  const statusOf = new Map<RuleRecord, RuleStatus>();
  const extra = new Map<RuleRecord, RuleWarning[]>();
  const note = (r: RuleRecord, w: RuleWarning) => extra.set(r, [...(extra.get(r) ?? []), w]);
  const byPath = new Map(records.map((r) => [r.candidate.relativePath, r]));

  for (const override of records) {
    if (override.candidate.classification.format !== 'agents-override') continue;
    const dir = dirOf(override.candidate.relativePath);
    const plain = byPath.get(dir ? `${dir}/AGENTS.md` : 'AGENTS.md');
    const isUser = override.candidate.classification.source === 'user';
    const empty = override.status !== 'restricted' && override.status !== 'invalid' && (override.body ?? '') === '';
    if (isUser) {
      if (override.status === 'active' && plain) {
        statusOf.set(plain, 'overridden');
        note(plain, warning('overridden', 'info', 'Hidden by ~/.codex/AGENTS.override.md (Codex reads the override instead).', null, null));
      } else if (empty) {
        note(override, warning('empty-override', 'warning', 'This global override is empty, so Codex falls back to ~/.codex/AGENTS.md.', null, 'Delete the empty override, or write its text.'));
      }
      continue;
    }
    if (empty) {
      note(
        override,
        warning('empty-override', 'warning', plain ? 'This override is empty but still hides AGENTS.md in the same folder (as in Codex), so neither loads.' : 'This override is empty, so it loads nothing.', 1, 'Delete the empty override, or write the instructions it should carry.'),
      );
    }
    if (plain && plain.status !== 'restricted') {
      statusOf.set(plain, 'overridden');
      note(plain, warning('overridden', 'info', `Hidden by ${override.candidate.relativePath} in the same folder (Codex reads only the override).`, null, `Merge what you still need into ${override.candidate.relativePath}.`));
    }
  }

  const sorted = [...records].sort(compareRecords);
  const files = sorted.map((r, order) => freezeFile(r, order, statusOf.get(r) ?? r.status, extra.get(r) ?? [], nestedRootOf(r, nestedRoots)));
  return { files: Object.freeze(files), catalogSha256: digestOfEntries(files) };
}

/** Catalog order: user first, scope depth, priority, relative path by code point. */
export function compareRecords(a: RuleRecord, b: RuleRecord): number {
  const ca = a.candidate.classification;
  const cb = b.candidate.classification;
  const ua = ca.source === 'user' ? 0 : 1;
  const ub = cb.source === 'user' ? 0 : 1;
  if (ua !== ub) return ua - ub;
  const depth = scopeDepth(ca.scope) - scopeDepth(cb.scope);
  if (depth !== 0) return depth;
  if (ca.priority !== cb.priority) return ca.priority - cb.priority;
  return compareCodePoints(a.candidate.relativePath, b.candidate.relativePath);
}

/** The innermost nested repository root (root-relative folder) containing a project file, or null. */
function nestedRootOf(r: RuleRecord, nestedRoots: readonly string[]): string | null {
  if (r.candidate.classification.source === 'user') return null;
  let best: string | null = null;
  for (const root of nestedRoots) {
    if (r.candidate.relativePath.startsWith(`${root}/`) && (best === null || root.length > best.length)) best = root;
  }
  return best;
}

function freezeFile(r: RuleRecord, order: number, status: RuleStatus, extra: RuleWarning[], nestedRoot: string | null): RuleFile {
  const { classification } = r.candidate;
  const hasDigest = status !== 'invalid' && status !== 'restricted';
  return Object.freeze({
    id: ruleId(classification.source, r.candidate.relativePath),
    relativePath: r.candidate.relativePath,
    absolutePath: r.candidate.absolutePath,
    format: classification.format,
    source: classification.source,
    kind: r.kind,
    status,
    scope: classification.scope,
    priority: classification.priority,
    patterns: Object.freeze([...r.patterns]),
    compiledPatterns: Object.freeze([...r.compiled]),
    conditionKey: r.conditionKey,
    description: r.description,
    bytes: r.bytes,
    bodyBytes: hasDigest && r.content !== null ? utf8Bytes(r.content) : 0,
    sha256: hasDigest ? r.sha256 : null,
    text: r.text,
    frontmatter: r.frontmatter,
    body: r.body,
    content: hasDigest ? r.content : null,
    bodyLine: r.bodyLine,
    imports: Object.freeze([...r.imports]),
    linkTarget: r.linkTarget,
    realPath: r.realPath,
    nestedRoot,
    warnings: Object.freeze([...r.warnings, ...extra]),
    order,
  });
}

function dirOf(rel: string): string {
  const i = rel.lastIndexOf('/');
  return i < 0 ? '' : rel.slice(0, i);
}
