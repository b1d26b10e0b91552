import type { RuleAgentView as AgentView, RuleFileDetail, RuleFileInfo, RulesExplainResult, RulesLintResult, RulesListResult } from '../../../shared/contract/rules';
import type { AgentView as CoreAgentView } from './agentViews';
import type { RuleCatalog } from './catalog';
import { scopeDepth } from './classify';
import { describeCondition } from './conditionText';
import type { RuleExplanation } from './explain';
import { sha256Hex } from '../formats/digest';
import { revealSmuggling } from '../formats/unicode';
import { fileWarnings, unmatchedPatterns, type RuleLintReport } from './lint';
import { otherToolInstructionFiles } from './otherTools';
import { countPatternMatches } from './patternStats';
import { renderFile } from './render';
import type { RuleFile, SelectedRule, UnselectedRule } from './types';

/**
 * Converts catalog objects to the JSON shapes of the contract (src/shared/contract/rules.ts),
 * which are also what `atrium rules … --json` prints. Pure functions.
 */

/**
 * A catalog entry as `rules.list` shows it. `warnings` are the file's own plus lint's workspace
 * checks about it ({@link fileWarnings}); `condition` says when it loads ({@link describeCondition}).
 */
export function presentFile(catalog: RuleCatalog, f: RuleFile): RuleFileInfo {
  return {
    id: f.id,
    path: f.relativePath,
    format: f.format,
    source: f.source,
    kind: f.kind,
    scope: f.scope,
    priority: f.priority,
    patterns: [...f.patterns],
    bytes: f.bytes,
    sha256: f.sha256,
    status: f.status,
    imports: f.imports.map((i) => ({ ...i })),
    warnings: fileWarnings(catalog, f).map((w) => ({ ...w })),
    condition: describeCondition(f, unmatchedPatterns(catalog, f)),
    conditionKey: f.conditionKey,
    description: f.description,
    bodyBytes: f.bodyBytes,
    linkTarget: f.linkTarget,
    nestedRoot: f.nestedRoot,
    order: f.order,
  };
}

/** `rules.list` / `atrium rules list` (runs lint once for the catalog: its findings show on the files). */
export function presentList(catalog: RuleCatalog): RulesListResult {
  const scopes = new Map<string, string[]>();
  for (const f of catalog.files) scopes.set(f.scope, [...(scopes.get(f.scope) ?? []), f.id]);
  return {
    root: catalog.root,
    workspaceDir: catalog.workspaceDir,
    trust: catalog.trust,
    catalogSha256: catalog.catalogSha256,
    files: catalog.files.map((f) => presentFile(catalog, f)),
    warnings: catalog.warnings.map((w) => ({ ...w })),
    otherTools: otherToolInstructionFiles(catalog).map((o) => ({ ...o })),
    nestedRoots: catalog.nestedRoots.map((r) => ({ ...r })),
    scopes: [...scopes].map(([scope, fileIds]) => ({ scope, depth: scopeDepth(scope), fileIds })).sort((a, b) => a.depth - b.depth || (a.scope < b.scope ? -1 : a.scope > b.scope ? 1 : 0)),
    stats: {
      workspaceFiles: catalog.workspaceFiles.length,
      ruleFiles: catalog.files.length,
      activeFiles: catalog.files.filter((f) => f.status === 'active').length,
      listing: catalog.listing,
      buildMs: catalog.buildMs,
      builtAt: catalog.builtAt,
    },
  };
}

/**
 * `rules.file`: one file with raw text, frontmatter, rendered block and pattern match counts. The
 * raw text and frontmatter show smuggling characters (TAG text, selector payloads, bidi overrides)
 * as `⟨U+XXXX⟩` like the content does, so no view of the Rules tab applies or hides them.
 */
export function presentDetail(catalog: RuleCatalog, f: RuleFile): RuleFileDetail {
  return {
    file: presentFile(catalog, f),
    absolutePath: f.absolutePath,
    raw: f.text === null ? null : revealSmuggling(f.text),
    frontmatter: f.frontmatter ? { raw: revealSmuggling(f.frontmatter.raw), data: toJson(f.frontmatter.data), mode: f.frontmatter.mode } : null,
    body: f.body,
    bodyLine: f.bodyLine,
    content: f.content,
    rendered: f.content !== null && f.sha256 !== null ? renderFile({ file: f, reason: 'user', matchedPattern: null, triggerPath: null }) : null,
    patterns: countPatternMatches(f, catalog.workspaceFiles),
  };
}

/** `rules.explain` for Atrium's own selection. */
export function presentExplanation(catalog: RuleCatalog, e: RuleExplanation): RulesExplainResult {
  return {
    root: catalog.root,
    agent: 'atrium',
    fromDir: e.fromDir,
    targetPath: e.targetPath,
    static: e.static.files.map(selected),
    contextual: e.contextual.files.map(selected),
    dropped: [...e.static.dropped, ...e.contextual.dropped].map(unselected),
    collapsed: [...e.static.collapsed, ...e.contextual.collapsed].map(unselected),
    skipped: e.skipped.map(unselected),
    contentBytes: e.contentBytes,
    provenanceSha256: e.provenanceSha256,
    content: e.content,
    references: [...e.static.references, ...e.contextual.references].map((r) => ({ ...r })),
    budget: {
      static: { maxBytes: e.static.maxBytes, usedBytes: e.static.bodyBytes },
      contextual: { maxBytes: e.contextual.maxBytes, usedBytes: e.contextual.bodyBytes },
    },
    agentView: null,
  };
}

/**
 * `rules.explain --agent codex|claude|gemini|copilot`: the agent view in the explain shape. static = loaded
 * at start, contextual = loaded on reading the path, dropped = cut/truncated/skipped, skipped =
 * ignored/conditional/restricted; provenanceSha256 = SHA-256 of the content.
 */
export function presentAgentExplanation(catalog: RuleCatalog, view: CoreAgentView): RulesExplainResult {
  const byPath = new Map(catalog.files.map((f) => [f.relativePath, f.id]));
  const row = (f: CoreAgentView['files'][number]) => ({
    id: byPath.get(f.path) ?? null,
    path: f.path,
    reason: f.status,
    detail: f.reason,
    matchedPattern: null,
    triggerPath: f.when === 'on-read' ? view.targetPath : null,
    bytes: f.bytes,
    sameAs: null,
  });
  const loaded = view.files.filter((f) => f.status === 'loaded' || f.status === 'truncated');
  const onReadBytes = loaded.filter((f) => f.when === 'on-read').reduce((s, f) => s + f.loadedBytes, 0);
  return {
    root: catalog.root,
    agent: view.agent,
    fromDir: view.fromDir,
    targetPath: view.targetPath,
    static: loaded.filter((f) => f.when !== 'on-read').map(row),
    contextual: loaded.filter((f) => f.when === 'on-read').map(row),
    dropped: view.files.filter((f) => f.status === 'cut' || f.status === 'truncated' || f.status === 'skipped').map(row),
    collapsed: [],
    skipped: view.files.filter((f) => f.status === 'ignored' || f.status === 'conditional' || f.status === 'restricted').map(row),
    contentBytes: Buffer.byteLength(view.content),
    provenanceSha256: sha256Hex(view.content),
    content: view.content,
    references: [],
    budget: {
      // usedBytes counts start and on-read files (and expanded imports): the start part is the rest.
      static: { maxBytes: view.budgetBytes, usedBytes: Math.max(0, view.usedBytes - onReadBytes) },
      contextual: { maxBytes: null, usedBytes: onReadBytes },
    },
    agentView: presentAgentView(view),
  };
}

/** `rules.agentView`. */
export function presentAgentView(view: CoreAgentView): AgentView {
  return { ...view, files: view.files.map((f) => ({ ...f })), notes: [...view.notes] };
}

/** `rules.lint` / `atrium rules lint`. */
export function presentLint(catalog: RuleCatalog, report: RuleLintReport): RulesLintResult {
  return { root: catalog.root, catalogSha256: catalog.catalogSha256, findings: report.findings.map((f) => ({ ...f })), counts: { ...report.counts } };
}

function selected(s: SelectedRule) {
  return {
    id: s.file.id,
    path: s.file.relativePath,
    reason: s.reason,
    detail: describeSelection(s),
    matchedPattern: s.matchedPattern,
    triggerPath: s.triggerPath,
    bytes: s.file.bodyBytes,
    sameAs: null,
  };
}

function unselected(u: UnselectedRule) {
  return { id: u.file.id, path: u.file.relativePath, reason: u.reason, detail: u.detail, matchedPattern: null, triggerPath: null, bytes: u.file.bodyBytes, sameAs: u.sameAs ?? null };
}

function describeSelection(s: SelectedRule): string {
  const scope = s.file.scope ? `folder ${s.file.scope}/` : 'the repository root';
  switch (s.reason) {
    case 'user':
      return 'User-level rule: applies in every workspace.';
    case 'scope-contains-start':
      return `Always applies to ${scope}, which contains the start folder.`;
    case 'pattern-match':
      return `Pattern "${s.matchedPattern}" matches ${s.triggerPath} (relative to ${scope}).`;
    case 'nested-scope':
      return `Always applies to ${scope}, below the start folder: loads when the session touches ${s.triggerPath}.`;
    default:
      return s.reason;
  }
}

function toJson(data: Readonly<Record<string, unknown>>): Record<string, unknown> {
  try {
    return JSON.parse(JSON.stringify(data)) as Record<string, unknown>;
  } catch {
    return {};
  }
}
