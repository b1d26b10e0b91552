import { formatSupportsImports } from './classify';
import { resolveCondition } from './conditions';
import { splitFrontmatter } from '../formats/frontmatter';
import { ruleSha256 } from './hash';
import { expandImports, type ImportContext } from './imports';
import { displayLinkTarget, formatBytes, readRuleSource } from './readSource';
import { RULE_LIMITS } from './limits';
import { revealSmuggling } from '../formats/unicode';
import { invisibleWarnings } from './invisible';
import { utf8Bytes } from '../formats/text';
import type { CompiledPattern, RuleClassification, RuleFormat, RuleFrontmatter, RuleImport, RuleKind, RuleStatus, RuleWarning } from './types';
import { warning } from './warnings';
import type { FileReader } from '../files/scan';

/** A rule file found by discovery, before reading. */
export interface RuleCandidate {
  relativePath: string;
  absolutePath: string;
  classification: RuleClassification;
  /** Notes discovery attaches (e.g. "gitignored personal file picked up on purpose"). */
  notes?: RuleWarning[];
}

/** One loaded file before catalog assembly (overrides, order, id). Internal to the rules module. */
export interface RuleRecord {
  candidate: RuleCandidate;
  kind: RuleKind;
  status: Exclude<RuleStatus, 'overridden'>;
  patterns: string[];
  compiled: CompiledPattern[];
  conditionKey: string | null;
  description: string | null;
  bytes: number;
  text: string | null;
  frontmatter: RuleFrontmatter | null;
  body: string | null;
  content: string | null;
  bodyLine: number;
  imports: RuleImport[];
  linkTarget: string | null;
  realPath: string | null;
  warnings: RuleWarning[];
  /** Absolute paths whose change requires reloading this record (imports). */
  deps: string[];
  sha256: string | null;
}

/** What {@link loadRule} needs besides the candidate. */
export interface LoadContext {
  /** Canonical catalog root. */
  root: string;
  /** When true, only names and sizes are read (restricted mode). */
  restricted: boolean;
  /** Directories the file's real path must stay inside (null for user files). */
  confineTo: readonly string[] | null;
  /** The path comes from a git listing under the canonical root (see `readRuleSource`). */
  canonicalParent?: boolean;
  imports: ImportContext;
  /** Where file contents come from (default: `fs.readFile`; a build passes its scan). */
  reader?: FileReader;
}

/**
 * Reads and interprets one rule file (content, conditions, imports). Returns null when
 * the file vanished since discovery. Bad input never throws: it becomes `invalid`/`inert` with
 * warnings naming the line and the fix.
 */
export async function loadRule(candidate: RuleCandidate, ctx: LoadContext): Promise<RuleRecord | null> {
  const { classification } = candidate;
  const record: RuleRecord = {
    candidate,
    kind: 'unknown',
    status: 'invalid',
    patterns: [],
    compiled: [],
    conditionKey: null,
    description: null,
    bytes: 0,
    text: null,
    frontmatter: null,
    body: null,
    content: null,
    bodyLine: 1,
    imports: [],
    linkTarget: null,
    realPath: null,
    warnings: [...(candidate.notes ?? [])],
    deps: [],
    sha256: null,
  };
  const read = await readRuleSource(candidate.absolutePath, { confineTo: ctx.confineTo, readContent: !ctx.restricted, canonicalParent: ctx.canonicalParent, reader: ctx.reader });
  if (!read.ok && read.code === 'missing') return null;
  record.bytes = read.bytes;
  record.realPath = read.realPath;
  record.linkTarget = read.linkTarget === null || read.realPath === null ? read.linkTarget : displayLinkTarget(ctx.root, read.realPath);
  if (ctx.restricted) {
    // The status says it; the catalog carries one `restricted-mode` note for all files, not one each.
    record.status = 'restricted';
    return record;
  }
  if (!read.ok) {
    record.warnings.push(warning(read.code, 'error', read.message, null, read.fix));
    return record;
  }
  if (read.linkTarget !== null) {
    record.warnings.push(warning('symlink', 'info', `This file is a symlink to ${record.linkTarget}; Atrium reads the target.`, null, null));
  }
  if (read.hadBom) record.warnings.push(warning('bom', 'info', 'A UTF-8 byte order mark was stripped (some agents drop files that start with one).', 1, 'Save the file as UTF-8 without BOM.'));
  if (read.hadCrlf) record.warnings.push(warning('crlf', 'info', 'Windows line endings (CRLF) were read as LF.', null, null));
  record.text = read.text;

  const split = splitFrontmatter(read.text);
  record.frontmatter = split.frontmatter;
  record.bodyLine = split.bodyLine;
  // Cursor reads .mdc frontmatter line by line, not as strict YAML, and writes `globs: **/*.ts, src/**`
  // unquoted itself (cursor.com/docs/rules; shared/reference/formats.md §3.1): quoting it is not needed there.
  const frontmatterWarnings = classification.format === 'cursor' ? split.warnings.filter((w) => !w.code.startsWith('frontmatter-unquoted-')) : split.warnings;
  record.warnings.push(...frontmatterWarnings.map((w) => warning(w.code, 'warning', w.message, w.line, w.fix)));
  const parsed = split.frontmatter?.data ?? {};
  // the written text matters only for a description YAML reads as something else than text
  // (sourceOf parses the block again: most of a rule file's load when asked for every file)
  const written = typeof parsed.description === 'string' || parsed.description === null || parsed.description === undefined ? null : split.sourceOf('description');
  const description = descriptionText(parsed.description, written, split.lineOf('description'));
  record.description = description.text === null ? null : revealSmuggling(description.text);
  if (description.warning) record.warnings.push(description.warning);
  // the condition sees the description as text, as Cursor (which reads the line) does
  const data = Object.hasOwn(parsed, 'description') ? { ...parsed, description: description.text } : parsed;
  record.warnings.push(...foreignKeyWarnings(classification.format, data, split.lineOf));

  const condition = resolveCondition(classification.format, data, split.lineOf);
  record.kind = condition.kind;
  record.patterns = condition.patterns;
  record.compiled = condition.compiled;
  record.conditionKey = condition.conditionKey;
  record.warnings.push(...condition.warnings);

  // Invisible characters never make a file invalid: harmless ones load as written (a warning),
  // smuggling ones (TAG text, selector payloads, bidi overrides) are an error-level finding and are
  // made visible in everything Atrium keeps of the text, so nothing it sends or shows can carry them.
  record.warnings.push(...invisibleWarnings(read.text));
  const body = revealSmuggling(split.body.trim());
  record.body = body;
  if (condition.status === 'invalid') return record;

  let content = body;
  if (body !== '' && formatSupportsImports(classification.format) && read.realPath) {
    const expanded = await expandImports(split.body, split.bodyLine, candidate.absolutePath, read.realPath, ctx.imports);
    content = expanded.content;
    record.imports = expanded.imports;
    record.deps = expanded.deps;
    record.warnings.push(...expanded.warnings);
  }
  record.content = revealSmuggling(content);
  record.sha256 = ruleSha256(candidate.relativePath, record.patterns, record.content);
  if (condition.status === 'inert') {
    record.status = 'inert';
  } else if (body === '') {
    record.status = 'inert';
    if (classification.format !== 'agents-override') {
      record.warnings.push(warning('empty-body', 'warning', 'The file has no text after its frontmatter, so there is nothing to load.', split.bodyLine, 'Write the rule text, or delete the file.'));
    }
  } else {
    record.status = condition.kind === 'manual' || condition.kind === 'agent-requested' ? 'manual' : 'active';
    if (condition.kind === 'agent-requested') {
      record.warnings.push(
        warning(
          'agent-requested-rule',
          'info',
          'A description and no globs: Cursor offers this rule to the agent by its description, and the agent reads it when it judges it relevant. Atrium does not load it automatically.',
          split.lineOf('description'),
          null,
        ),
      );
    } else if (condition.kind === 'manual') {
      record.warnings.push(
        warning(
          'manual-rule',
          'info',
          classification.format === 'copilot-instructions'
            ? 'No applyTo: Copilot attaches this file only when asked, and Atrium never loads it automatically.'
            : 'No alwaysApply, globs or description: a manual Cursor rule, loaded only when @-mentioned; Atrium never loads it automatically.',
          null,
          classification.format === 'copilot-instructions' ? 'Add applyTo: "**" (always) or a glob such as "src/**/*.ts".' : 'Add alwaysApply: true, globs: src/**/*.ts, or a description Cursor can offer it by.',
        ),
      );
    }
  }
  const bodyBytes = utf8Bytes(record.content);
  if (record.status === 'active' && bodyBytes > RULE_LIMITS.staticBudgetBytes) {
    record.warnings.push(warning('large-rule', 'warning', `The rule is ${formatBytes(bodyBytes)} with imports, above Atrium's ${formatBytes(RULE_LIMITS.staticBudgetBytes)} static and ${formatBytes(RULE_LIMITS.contextualBudgetBytes)} contextual budgets: it is always dropped.`, null, 'Split it into smaller, path-scoped rules.'));
  } else if (record.status === 'active' && bodyBytes > RULE_LIMITS.contextualBudgetBytes) {
    record.warnings.push(warning('large-rule', 'info', `The rule is ${formatBytes(bodyBytes)} with imports: it fits the ${formatBytes(RULE_LIMITS.staticBudgetBytes)} static budget but never the ${formatBytes(RULE_LIMITS.contextualBudgetBytes)} contextual one.`, null, 'Split it into smaller, path-scoped rules.'));
  }
  return record;
}

/**
 * A rule's `description` as text: a string as is; a number or boolean YAML read (`description: 2024`)
 * as the author wrote it, which is what Cursor, reading frontmatter line by line, takes; a list or
 * mapping (`description: [draft, api]`) as written too, with a warning that YAML readers get no
 * text from it. A YAML null is no description.
 */
function descriptionText(value: unknown, written: string | null, line: number | null): { text: string | null; warning: RuleWarning | null } {
  if (typeof value === 'string') return { text: value, warning: null };
  if (value === null || value === undefined || !written) return { text: null, warning: null };
  if (typeof value !== 'object') return { text: written, warning: null };
  const what = Array.isArray(value) ? 'a list' : 'a mapping';
  return {
    text: written,
    warning: warning('frontmatter-not-text', 'warning', `YAML reads "description: ${written}" as ${what}, not text: Cursor reads the line as text, but tools that parse YAML get no description.`, line, `Quote the value: description: ${JSON.stringify(written)}`),
  };
}

const CURSOR_KEYS = ['globs', 'alwaysApply'];
const CLAUDE_LIKE: ReadonlySet<RuleFormat> = new Set(['claude', 'claude-rules', 'claude-local', 'blade', 'blade-rules', 'agents', 'agents-override', 'gemini']);

/** Keys the file's own tool ignores (for lint: Cursor/Copilot keys in `.claude/rules`…). */
function foreignKeyWarnings(format: RuleFormat, data: Readonly<Record<string, unknown>>, lineOf: (key: string) => number | null): RuleWarning[] {
  const out: RuleWarning[] = [];
  const has = (key: string) => Object.hasOwn(data, key);
  if (CLAUDE_LIKE.has(format)) {
    for (const key of [...CURSOR_KEYS, 'applyTo']) {
      if (!has(key)) continue;
      const owner = key === 'applyTo' ? "Copilot's" : "Cursor's";
      const effect = has('paths') ? 'it is ignored' : 'it is ignored and, without paths, the file applies to every path';
      const reader = format.startsWith('claude') ? 'Claude Code reads only paths' : format.startsWith('blade') ? 'Blade reads only paths' : 'agents read this file as plain text and Atrium honours only paths';
      out.push(warning('foreign-key', 'warning', `${key} is ${owner} key; ${reader}, so ${effect}.`, lineOf(key), key === 'alwaysApply' ? 'Delete alwaysApply (a file without paths always applies).' : `Rename ${key} to paths.`));
    }
  } else if (format === 'cursor') {
    for (const key of ['paths', 'applyTo']) {
      if (has(key)) out.push(warning('foreign-key', 'warning', `${key} is not a Cursor key; Cursor ignores it (Atrium still honours paths).`, lineOf(key), `Rename ${key} to globs.`));
    }
  } else if (format === 'copilot-instructions') {
    for (const key of ['paths', 'globs']) {
      if (has(key)) out.push(warning('foreign-key', 'warning', `${key} is not a Copilot key; Copilot ignores it${key === 'paths' ? ' (Atrium still honours paths)' : ''}.`, lineOf(key), `Rename ${key} to applyTo.`));
    }
  }
  return out;
}
