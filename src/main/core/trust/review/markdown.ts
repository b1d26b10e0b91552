import path from 'node:path';
import type { TrustItemKind, TrustWarning } from '../../../../shared/contract';
import { commandFromFile } from '../../extensions/commands/parse';
import { parseMarkdown } from '../../extensions/read';
import type { ScanRoot } from '../../extensions/roots';
import { skillFromFile } from '../../extensions/skills/parse';
import { styleFromBytes } from '../../extensions/styles/scan';
import { agentFromParsed } from '../../extensions/subagents/scan';
import type { DraftItem, ReviewCollector } from './collector';
import { splitFrontmatter, type FrontmatterSplit } from '../../formats/frontmatter';
import { parseTomlText } from '../../formats/toml';
import { resourceItems, type MarkdownRecord, type ReviewEnv } from './resources';
import { commandRiskWarnings } from './risk';
import type { SourceText } from './sources';
import { hiddenCharacterWarning } from './text';
import { clip, firstMeaningfulLine, lineOfText, oneLine, str, strings } from '../../formats/text';

/** Tool labels for summaries. */
const TOOL_LABEL: Record<string, string> = {
  claude: 'Claude Code',
  codex: 'Codex',
  gemini: 'Gemini CLI',
  blade: 'Blade',
  cursor: 'Cursor',
  copilot: 'GitHub Copilot',
  windsurf: 'Windsurf',
  cline: 'Cline',
  agents: 'AGENTS.md convention',
  plugin: 'plugin',
};

/** Instruction files longer than this many characters draw a notice (Claude Code warns at 40k). */
const LONG_INSTRUCTIONS = 40_000;

/** Reviews an instruction/rule file (formats.md §0): one non-executable `instruction` item. */
export function reviewInstruction(src: SourceText, tool: string, out: ReviewCollector): void {
  const rel = src.rel;
  const name = path.posix.basename(rel);
  if (src.text === null) {
    out.add({ kind: 'instruction', path: rel, name, summary: `${TOOL_LABEL[tool] ?? tool} instructions (not inspected)`, executable: false, tool, warnings: src.warnings, detail: link(src) });
    return;
  }
  const text = src.text;
  const fm = splitFrontmatter(text, { invalidYaml: 'report' });
  const data = fm.frontmatter?.data ?? {};
  // Cursor reads .mdc frontmatter line by line, not as YAML, and writes `globs: **/*.ts, src/**`
  // unquoted itself (cursor.com/docs/rules, formats.md §3.1): a YAML error there is no problem for Cursor.
  const cursorLines = tool === 'cursor' && rel.toLowerCase().endsWith('.mdc');
  const warnings = [...src.warnings, ...commonWarnings(rel, text, fm, cursorLines)];
  if (text.trim() === '' && name === 'AGENTS.override.md') {
    warnings.push({ path: rel, line: null, message: 'empty AGENTS.override.md: Codex takes it for this folder and then skips it as empty, so AGENTS.md here is not used either', fix: 'Delete the empty override, or write the override instructions into it.' });
  }
  if (text.length > LONG_INSTRUCTIONS) {
    warnings.push({ path: rel, line: null, message: `long instruction file (${text.length.toLocaleString('en')} characters); agents may truncate or warn`, fix: 'Split it into smaller rule files.' });
  }
  warnings.push(...importWarnings(rel, text));
  const scope = strings(data.paths ?? data.globs ?? data.applyTo).join(', ');
  // a description YAML read as a number, list or mapping is shown as written (`description: [a, b]`)
  const description = clip(str(data.description) ?? ((data.description ?? null) !== null ? fm.sourceOf('description') || null : null) ?? firstMeaningfulLine(fm.body));
  out.add({
    kind: 'instruction',
    path: rel,
    name,
    summary: oneLine(`${TOOL_LABEL[tool] ?? tool}: ${description || '(empty)'}${scope ? ` · applies to ${scope}` : ''}`),
    executable: false,
    tool,
    warnings,
    detail: { ...(description ? { description } : {}), ...link(src) },
  });
}

/** What kind of Markdown resource a file is, for {@link reviewResourceFile}. */
export type MarkdownResourceKind = Extract<TrustItemKind, 'command' | 'skill' | 'subagent' | 'outputStyle'>;

/**
 * Reviews a skill, command, subagent or output-style file the extensions bundle does not read
 * (a nested `.claude/commands/`, another tool's `skills/`, …) with the bundle's own parsers
 * (`extensions/skills`, `commands`, `subagents`, `styles`), so names, shell embeds and warnings
 * read as on the Extensions tab; frontmatter `hooks`/`mcpServers` become their own items.
 */
export function reviewResourceFile(src: SourceText, kind: MarkdownResourceKind, tool: string, env: ReviewEnv, out: ReviewCollector): void {
  const rel = src.rel;
  const segs = rel.split('/');
  const fileName = segs[segs.length - 1].replace(/\.md$/i, '');
  if (src.text === null) {
    const name = kind === 'skill' ? segs[segs.length - 2] ?? 'skill' : kind === 'command' ? `/${fileName}` : fileName;
    out.add({ kind, path: rel, name, summary: `${name} (not inspected)`, executable: kind === 'command' || kind === 'skill', tool, warnings: src.warnings, detail: link(src) });
    return;
  }
  const abs = path.join(env.dir, rel);
  const folder = kind === 'skill' ? path.posix.dirname(path.posix.dirname(rel)) : path.posix.dirname(rel);
  const root: ScanRoot = { dir: path.join(env.dir, folder), layer: 'project-claude', source: 'project', tool, plugin: null };
  const bytes = Buffer.from(src.text, 'utf8');
  let record: MarkdownRecord;
  if (kind === 'skill') record = skillFromFile(parseMarkdown(bytes, rel), segs[segs.length - 2], root, abs, rel);
  else if (kind === 'command') {
    const at = segs.lastIndexOf('commands');
    record = commandFromFile(parseMarkdown(bytes, rel), segs.slice(at + 1).join('/').replace(/\.md$/i, ''), root, abs, rel);
  } else if (kind === 'subagent') record = agentFromParsed(parseMarkdown(bytes, rel), abs, root, rel);
  else record = styleFromBytes(bytes, abs, [fileName], root, rel);
  const add = (item: DraftItem) => out.add({ ...item, warnings: [...src.warnings, ...(item.warnings ?? [])], detail: { ...item.detail, ...link(src) } });
  resourceItems(kind, record, env, add, out, null, tool);
}

/** Gemini CLI custom command (`.gemini/commands/**.toml`: `description`, `prompt` with `!{cmd}` shell injections). */
export function reviewGeminiCommand(src: SourceText, out: ReviewCollector): void {
  const rel = src.rel;
  const name = `/${rel.replace(/^(?:.*\/)?\.gemini\/commands\//, '').replace(/\.toml$/, '').replace(/\//g, ':')}`;
  if (src.text === null) {
    out.add({ kind: 'command', path: rel, name, summary: `${name} (not inspected)`, executable: true, tool: 'gemini', warnings: src.warnings });
    return;
  }
  const parsed = parseTomlText(src.text);
  if (!parsed.ok) {
    const line = parsed.line;
    out.add({
      kind: 'command',
      path: rel,
      line,
      name,
      summary: `${name}: a command file that does not parse; Gemini CLI skips it`,
      executable: false,
      tool: 'gemini',
      warnings: [...src.warnings, { path: rel, line, message: `invalid TOML${line ? ` at line ${line}` : ''}: ${parsed.message}`, fix: 'Fix the TOML syntax; the file needs prompt = "..." (and optionally description = "...").' }],
    });
    return;
  }
  const data = parsed.value;
  const prompt = str(data.prompt) ?? '';
  const embeds = [...prompt.matchAll(/!\{([^}]*)\}/g)].map((m) => m[1].trim()).filter(Boolean);
  const warnings: TrustWarning[] = [...src.warnings];
  for (const cmd of embeds) warnings.push(...commandRiskWarnings(cmd, rel, lineOfText(src.text, cmd)));
  if (!prompt) warnings.push({ path: rel, line: 1, message: 'no "prompt": Gemini CLI rejects this command', fix: 'Add prompt = "..." to the file.' });
  const description = clip(str(data.description) ?? firstMeaningfulLine(prompt));
  out.add({
    kind: 'command',
    path: rel,
    line: 1,
    name,
    summary: oneLine(`${name}${description ? `: ${description}` : ''}${embeds.length ? ` · runs: ${embeds.join('; ')}` : ''}`),
    executable: embeds.length > 0,
    tool: 'gemini',
    warnings,
    detail: { ...(description ? { description } : {}), ...(embeds.length ? { shellEmbeds: embeds } : {}) },
  });
}

function commonWarnings(rel: string, text: string, fm: FrontmatterSplit, lineFrontmatter = false): TrustWarning[] {
  const out: TrustWarning[] = [];
  if (fm.bom && fm.frontmatter) {
    out.push({
      path: rel,
      line: 1,
      message: 'starts with a UTF-8 byte order mark: some agents then miss the frontmatter',
      fix: 'Save the file as UTF-8 without BOM.',
    });
  }
  for (const w of fm.warnings) if (!(lineFrontmatter && w.code === 'frontmatter-invalid')) out.push({ path: rel, line: w.line, message: w.message, fix: w.fix });
  const hidden = hiddenCharacterWarning(text, rel);
  if (hidden) out.push(hidden);
  return out;
}

/** `@imports` (Claude Code, Gemini CLI) that reach outside the workspace: home, absolute or `../` escaping paths. */
function importWarnings(rel: string, text: string): TrustWarning[] {
  const out: TrustWarning[] = [];
  const dir = path.posix.dirname(rel);
  for (const m of text.matchAll(/(?:^|\s)@((?:~|\.\.)?\/[^\s)`'"]+|\.\.\/[^\s)`'"]+)/gm)) {
    const target = m[1];
    const escapes = target.startsWith('~') || target.startsWith('/') || path.posix.normalize(path.posix.join(dir, target)).startsWith('..');
    if (!escapes) continue;
    out.push({ path: rel, line: lineOfText(text, `@${target}`), message: `imports ${target}, outside the workspace: its content joins the instructions but is not reviewed here`, fix: null });
    if (out.length >= 5) break;
  }
  return out;
}

function link(src: SourceText) {
  return src.linkTarget ? { linkTarget: src.linkTarget } : {};
}
