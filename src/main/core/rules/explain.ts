import type { RuleCatalog } from './catalog';
import { digestOfEntries } from './hash';
import { RULE_LIMITS } from './limits';
import { relativeToScope, scopeContains } from './paths';
import { resolveStartFolder } from './startFolder';
import { utf8Bytes } from '../formats/text';
import type { RuleFile, RuleSelection, UnselectedRule } from './types';

/** Inputs of {@link explainRules}; paths are absolute or relative to the workspace folder. */
export interface ExplainOptions {
  path: string;
  from?: string;
  /** Ids already loaded in the session (not selected again). */
  loaded?: readonly string[];
  /** Contextual budget in body bytes (default 32 KiB); the static budget stays 48 KiB. */
  budget?: number;
}

/** Why each rule applies, or not, to one path. */
export interface RuleExplanation {
  /** Root-relative start folder. */
  fromDir: string;
  /** Root-relative target, or null when it lies outside the catalog root. */
  targetPath: string | null;
  static: RuleSelection;
  contextual: RuleSelection;
  /** Every other file with the reason it does not load here. */
  skipped: UnselectedRule[];
  /** Static then contextual rendering, separated by a blank line. */
  content: string;
  contentBytes: number;
  /** SHA-256 over `"<id>:<sha256>"` lines of static then contextual files. */
  provenanceSha256: string;
}

/**
 * Explains what a session starting in `from` (default: the workspace folder) gets when it
 * touches `path`: static rules (seed §4.5 staticRules), then contextual ones with the static ids
 * and `loaded` counted as loaded, both budgeted, plus the reason every other file is left out.
 * @throws RuleSourceOutsideRoot when `from` is outside the catalog root.
 * @throws RuleStartFolderUnusable when `from` does not exist or is a file (see resolveStartFolder).
 */
export function explainRules(catalog: RuleCatalog, options: ExplainOptions): RuleExplanation {
  const fromRel = resolveStartFolder(catalog, options.from);
  const targetRel = catalog.resolveTarget(options.path);
  const staticSel = catalog.staticRules(options.from, RULE_LIMITS.staticBudgetBytes);
  const loaded = new Set([...(options.loaded ?? []), ...staticSel.references.map((r) => r.id)]);
  const contextual = catalog.contextualRulesRelative(fromRel, targetRel ? [targetRel] : [], loaded, options.budget ?? RULE_LIMITS.contextualBudgetBytes);
  const taken = new Set<RuleFile>([...staticSel.files, ...contextual.files].map((s) => s.file));
  for (const d of [...staticSel.dropped, ...contextual.dropped, ...staticSel.collapsed, ...contextual.collapsed]) taken.add(d.file);
  const userLoaded = new Set(options.loaded ?? []);
  const skipped = catalog.files.filter((f) => !taken.has(f)).map((f) => whyNot(f, fromRel, targetRel, userLoaded));
  const content = [staticSel.content, contextual.content].filter(Boolean).join('\n\n');
  return {
    fromDir: fromRel,
    targetPath: targetRel,
    static: staticSel,
    contextual,
    skipped,
    content,
    contentBytes: utf8Bytes(content),
    provenanceSha256: digestOfEntries([...staticSel.files, ...contextual.files].map((s) => s.file)),
  };
}

function whyNot(file: RuleFile, fromRel: string, targetRel: string | null, loaded: ReadonlySet<string>): UnselectedRule {
  const firstError = file.warnings.find((w) => w.severity === 'error')?.message;
  switch (file.status) {
    case 'manual':
      return {
        file,
        reason: 'manual',
        detail: file.kind === 'agent-requested' ? 'Agent-requested: Cursor offers it by description; Atrium lists it and never loads it automatically.' : 'A manual rule: listed, never loaded automatically.',
      };
    case 'overridden':
      return { file, reason: 'overridden', detail: 'Hidden by AGENTS.override.md in the same folder.' };
    case 'inert':
      return { file, reason: 'inert', detail: file.kind === 'conditional' ? 'Its pattern list is empty, so it never loads.' : 'Its body is empty.' };
    case 'invalid':
      return { file, reason: 'invalid', detail: `Rejected: ${firstError ?? 'see its warnings'}` };
    case 'restricted':
      return { file, reason: 'restricted', detail: 'The folder is not trusted: project rules are not loaded.' };
    default:
      break;
  }
  if (loaded.has(file.id)) return { file, reason: 'loaded', detail: 'Already loaded in this session.' };
  const scopeName = file.scope ? `${file.scope}/` : 'the repository root';
  if (file.kind === 'conditional') {
    if (!targetRel) return { file, reason: 'out-of-scope', detail: 'The path is outside the workspace, so no conditional rule applies.' };
    if (!scopeContains(file.scope, targetRel)) return { file, reason: 'out-of-scope', detail: `Its scope ${scopeName} does not contain ${targetRel}.` };
    const rel = relativeToScope(file.scope, targetRel);
    return { file, reason: 'no-pattern-match', detail: `None of ${file.patterns.map((p) => `"${p}"`).join(', ')} matches "${rel}" (relative to ${scopeName}).` };
  }
  if (scopeContains(file.scope, fromRel)) return { file, reason: 'already-static', detail: 'Loaded statically (dropped only if over budget).' };
  return { file, reason: 'out-of-scope', detail: `Its scope ${scopeName} contains neither the start folder nor ${targetRel ?? 'the path'}.` };
}
