import path from 'node:path';
import type { RuleCatalog } from './catalog';
import { RULE_LIMITS } from './limits';
import { geminiImportWarnings } from './geminiLint';
import { filesInScope, frontmatterKeyLine, patternsMatchingNothing } from './patternStats';
import { claudeImportsExtension, claudeImportTokens } from './agentViews/claudeMemory';
import { compilePatterns, equivalentGlobs, patternSemanticsOf } from './patterns';
import { formatBytes } from './readSource';
import { lowerBound } from './sortedList';
import type { RuleFile, RuleFinding, RuleSeverity, RuleWarning } from './types';
import { warning } from './warnings';

/** Result of {@link lintCatalog}. */
export interface RuleLintReport {
  /** Every finding: per-file warnings, catalog warnings and workspace checks, by path then line. */
  readonly findings: readonly RuleFinding[];
  readonly counts: Readonly<Record<RuleSeverity, number>>;
}

interface LintResult {
  report: RuleLintReport;
  /** Workspace-check findings (not already in `file.warnings`) by the file's relative path. */
  byPath: ReadonlyMap<string, readonly RuleWarning[]>;
  /** Patterns (as written) that match no workspace file, by the file's relative path. */
  unmatched: ReadonlyMap<string, ReadonlySet<string>>;
}

/** One lint per catalog: catalogs never change, and the list, detail and lint views all need it. */
const results = new WeakMap<RuleCatalog, LintResult>();

/**
 * Lints a catalog against its workspace. Besides each file's own warnings
 * (frontmatter repairs, foreign keys such as Cursor's `globs` in `.claude/rules`, `paths: []`,
 * empty overrides, unresolvable imports, hidden characters…) it checks: patterns that match no
 * workspace file; slash-less patterns (`*.ts`) that only match direct children of a nested scope;
 * the same content reached by two paths (symlink, import of a file that also loads on its own,
 * identical bodies); a file that only holds a path (a symlink checked out as text); AGENTS.md
 * beyond Codex's 32 KiB budget; imports in GEMINI.md that Gemini CLI skips (`./geminiLint.ts`). Every finding names the file, the line when known and a fix.
 * Computed once per catalog (memoised); the report is frozen.
 */
export function lintCatalog(catalog: RuleCatalog): RuleLintReport {
  return lint(catalog).report;
}

/**
 * Everything known to be wrong with one file: its own warnings (from reading it) followed by the
 * workspace checks of {@link lintCatalog} about it. This is what `rules list`, `rules.file` and the
 * Files list show, so a lint finding about a file always shows on that file too.
 */
export function fileWarnings(catalog: RuleCatalog, file: RuleFile): readonly RuleWarning[] {
  const extra = lint(catalog).byPath.get(file.relativePath);
  return extra ? [...file.warnings, ...extra] : file.warnings;
}

/** The patterns of an active conditional file that match no workspace file (empty set when none). */
export function unmatchedPatterns(catalog: RuleCatalog, file: RuleFile): ReadonlySet<string> {
  return lint(catalog).unmatched.get(file.relativePath) ?? new Set();
}

function lint(catalog: RuleCatalog): LintResult {
  const cached = results.get(catalog);
  if (cached) return cached;
  const findings: RuleFinding[] = [...catalog.warnings];
  for (const file of catalog.files) {
    for (const w of file.warnings) findings.push({ ...w, path: file.relativePath });
  }
  const byPath = new Map<string, RuleWarning[]>();
  const add = (file: RuleFile, w: RuleWarning) => {
    findings.push({ ...w, path: file.relativePath });
    byPath.set(file.relativePath, [...(byPath.get(file.relativePath) ?? []), w]);
  };
  const unmatched = new Map<string, Set<string>>();
  const conditional = catalog.files.filter((file) => file.status === 'active' && file.kind === 'conditional');
  const matchingNothing = patternsMatchingNothing(conditional, catalog.workspaceFiles);
  for (const file of catalog.files) {
    if (file.status === 'active' && file.kind === 'conditional') {
      const dead = lintPatterns(catalog, file, add, matchingNothing.get(file));
      if (dead.size > 0) unmatched.set(file.relativePath, dead);
    }
    lintSymlinkAsText(catalog, file, add);
    for (const w of geminiImportWarnings(catalog, file)) add(file, w);
    if ((file.format === 'agents' || file.format === 'agents-override') && file.status !== 'overridden' && file.bytes > RULE_LIMITS.codexBudgetBytes) {
      add(
        file,
        warning(
          'codex-truncation',
          'warning',
          `The file is ${formatBytes(file.bytes)}; Codex reads only the first ${formatBytes(RULE_LIMITS.codexBudgetBytes)} of all AGENTS.md files together and silently drops the rest.`,
          null,
          'Move detail into nested AGENTS.md files or path-scoped rules.',
        ),
      );
    }
  }
  lintDuplicates(catalog, add);
  for (const file of catalog.files) lintClaudeImports(catalog, file, add);
  findings.sort((a, b) => (a.path ?? '').localeCompare(b.path ?? '') || (a.line ?? 0) - (b.line ?? 0));
  const counts: Record<RuleSeverity, number> = { error: 0, warning: 0, info: 0 };
  for (const f of findings) counts[f.severity]++;
  const result: LintResult = { report: Object.freeze({ findings: Object.freeze(findings), counts: Object.freeze(counts) }), byPath, unmatched };
  results.set(catalog, result);
  return result;
}

type Add = (file: RuleFile, w: RuleWarning) => void;

/** Adds the pattern findings of one file; `matchNothing` are its patterns that match no workspace file. Returns those. */
function lintPatterns(catalog: RuleCatalog, file: RuleFile, add: Add, matchNothing: ReadonlySet<string> | undefined): Set<string> {
  const dead = new Set<string>();
  const line = frontmatterKeyLine(file, file.conditionKey);
  const where = file.scope ? `${file.scope}/` : 'the repository root';
  const semantics = patternSemanticsOf(file.format);
  // Whether a pattern matches only at its written place: Claude's gitignore-style `paths` and Copilot's `applyTo` already match at any depth where they have no anchoring `/`.
  const anchored = (p: string) => equivalentGlobs(p, semantics).every((g) => !g.startsWith('**/'));
  for (const pattern of file.compiledPatterns) {
    if (matchNothing?.has(pattern.pattern)) {
      dead.add(pattern.pattern);
      add(
        file,
        warning('pattern-matches-nothing', 'warning', `Pattern "${pattern.pattern}" matches no file in the workspace (patterns are relative to ${where}).`, line, pattern.pattern.startsWith('**/') || !anchored(pattern.pattern) ? 'Check the pattern against the tree, or remove it.' : `Check the pattern against the tree; to match in any folder write **/${pattern.pattern}.`),
      );
      continue;
    }
    // In the root scope "direct children" are the whole story: nothing to say (and no need to count).
    if (file.scope === '' || pattern.pattern.includes('/') || pattern.pattern.startsWith('!') || !anchored(pattern.pattern)) continue;
    const deep = compilePatterns([`**/${pattern.pattern}`], null).compiled[0];
    if (!deep) continue;
    let direct = 0;
    let deeper = 0;
    for (const rel of filesInScope(catalog.workspaceFiles, file.scope)) {
      if (!rel.includes('/')) {
        if (pattern.test(rel)) direct++;
      } else if (deep.test(rel)) deeper++;
    }
    if (deeper > 0) {
      add(
        file,
        warning(
          'pattern-direct-children-only',
          'warning',
          `Pattern "${pattern.pattern}" has no "/", so it matches only files directly in ${file.scope}/ (${direct}), not the ${deeper} in its subfolders.`,
          line,
          `Write **/${pattern.pattern} to match at any depth.`,
        ),
      );
    }
  }
  return dead;
}

function lintSymlinkAsText(catalog: RuleCatalog, file: RuleFile, add: Add): void {
  const body = file.body?.trim();
  if (!body || body.includes('\n') || !/^[\w./-]+\.md$/.test(body) || file.source === 'user') return;
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(file.relativePath), body));
  const files = catalog.workspaceFiles;
  const at = lowerBound(files, target);
  if (files[at] !== target) return; // the list is sorted: a binary search, not a scan per file
  add(
    file,
    warning(
      'symlink-as-text',
      'warning',
      `The file only contains the path "${body}": probably a symlink checked out as a text file (git core.symlinks=false), so agents read the path instead of the instructions.`,
      file.bodyLine,
      `Recreate the symlink (ln -sf ${body} ${path.posix.basename(file.relativePath)}) or import the file with @${body}.`,
    ),
  );
}

/** Formats Claude Code reads, so its own `@import` grammar decides what their imports bring. */
const CLAUDE_FORMATS = new Set(['claude', 'claude-rules', 'claude-local']);

/**
 * Imports Atrium's lenient reader expands but Claude Code 2.1.318 does not: a token not preceded
 * by whitespace, trailing punctuation (`@notes.md:`), inside code or HTML, a non-text extension,
 * or deeper than Claude's 4 hops. Only for files Claude reads; the token grammar is
 * `claudeImportTokens` (agentViews/claudeMemory.ts).
 */
function lintClaudeImports(catalog: RuleCatalog, file: RuleFile, add: Add): void {
  if (!CLAUDE_FORMATS.has(file.format) || file.body === null || file.imports.length === 0) return;
  const claude = new Set(claudeImportTokens(file.body, file.absolutePath, catalog.homeDir).map((t) => t.absolute));
  const absolute = (display: string) => (display.startsWith('~/') ? path.join(catalog.homeDir, display.slice(2)) : path.isAbsolute(display) ? display : path.join(catalog.root, display));
  for (const imp of file.imports) {
    let why: string | null = null;
    if (imp.depth === 1 && imp.from === file.relativePath && !claude.has(absolute(imp.path))) why = 'it needs whitespace (or the line start) right before @, takes trailing punctuation as part of the path, and ignores @ in code spans, code blocks and HTML blocks';
    else if (imp.depth === 1 && imp.from === file.relativePath && !claudeImportsExtension(imp.path)) why = 'it imports only text files (by extension) or files without an extension';
    else if (imp.depth >= 5) why = 'it follows imports at most 4 levels deep';
    if (!why) continue;
    add(
      file,
      warning(
        'claude-skips-import',
        'warning',
        `Claude Code skips this import of ${imp.path}${imp.depth > 1 ? ` (via ${imp.from})` : ''}: ${why}. Atrium expands it, so Atrium's text and Claude's differ.`,
        imp.depth === 1 ? imp.line : null,
        imp.depth >= 5 ? 'Import the file from a shallower level.' : `Write @${/^[~/]/.test(imp.path) ? imp.path : path.posix.relative(path.posix.dirname(file.relativePath), imp.path)} on its own, after a space, outside code and HTML.`,
      ),
    );
  }
}

function lintDuplicates(catalog: RuleCatalog, add: Add): void {
  const loaded = catalog.files.filter((f) => f.status === 'active' || f.status === 'manual');
  const byReal = new Map<string, RuleFile>();
  const byBody = new Map<string, RuleFile>();
  for (const file of loaded) {
    if (file.realPath) {
      const first = byReal.get(file.realPath);
      if (first) {
        // A symlink such as CLAUDE.md -> AGENTS.md is the usual way to give each agent its file name:
        // each agent reads one of the names, and Atrium's selection loads the text once.
        add(file, warning('duplicate-content', 'info', `This file and ${first.relativePath} are the same file (a symlink): Atrium loads its text once, and each agent reads the name it knows.`, null, null));
        continue;
      }
      byReal.set(file.realPath, file);
    }
    if (file.body) {
      const first = byBody.get(file.body);
      if (first) add(file, warning('duplicate-content', 'warning', `This file has the same text as ${first.relativePath}.`, null, 'Delete one copy, or import the shared text with @path.'));
      else byBody.set(file.body, file);
    }
  }
  const loadedPaths = new Map(loaded.map((f) => [f.relativePath, f]));
  for (const file of loaded) {
    for (const imp of file.imports) {
      const direct = loadedPaths.get(imp.path);
      if (!direct || direct === file || imp.depth !== 1) continue;
      add(
        file,
        // `CLAUDE.md` = `@AGENTS.md` is the documented way to share AGENTS.md with Claude Code; Atrium's
        // selection collapses the two to one text, so there is nothing to fix.
        warning('duplicate-content', 'info', `Imports ${imp.path}, which also loads on its own: Atrium loads the text once (the selection collapses the two), and agents that read only one of the files get it through that file.`, imp.line, null),
      );
    }
  }
}
