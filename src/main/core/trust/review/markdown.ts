import path from 'node:path';
import { parse as parseToml, TomlError } from 'smol-toml';
import type { TrustItemKind, TrustWarning } from '../../../../shared/contract';
import { shellEmbedCommands } from '../../extensions/commands/embeds';
import type { ReviewCollector } from './collector';
import { parseFrontmatter, type Frontmatter } from './frontmatter';
import { collectHooks } from './hooks';
import { commandRiskWarnings } from './risk';
import { collectMcpServers } from './servers';
import type { SourceText } from './sources';
import { clip, firstMeaningfulLine, hiddenCharacterWarning, isRecord, lineOfText, oneLine, str, strings } from './text';

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
  const fm = parseFrontmatter(text);
  const warnings = [...src.warnings, ...commonWarnings(rel, text, fm, false)];
  if (text.trim() === '' && name === 'AGENTS.override.md') {
    warnings.push({ path: rel, line: null, message: 'empty AGENTS.override.md: Codex takes it for this folder and then skips it as empty, so AGENTS.md here is not used either', fix: 'Delete the empty override, or write the override instructions into it.' });
  }
  if (text.length > LONG_INSTRUCTIONS) {
    warnings.push({ path: rel, line: null, message: `long instruction file (${text.length.toLocaleString('en')} characters); agents may truncate or warn`, fix: 'Split it into smaller rule files.' });
  }
  warnings.push(...importWarnings(rel, text));
  const scope = strings(fm.data.paths ?? fm.data.globs ?? fm.data.applyTo).join(', ');
  const description = clip(str(fm.data.description) ?? firstMeaningfulLine(fm.body));
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

/** What kind of Markdown resource a file is, for {@link reviewMarkdownResource}. */
export type MarkdownResourceKind = Extract<TrustItemKind, 'command' | 'skill' | 'subagent' | 'outputStyle'>;

/**
 * Reviews a command, skill, subagent or output-style Markdown file (formats.md §2.8–2.12): name,
 * description, shell embeds (`` !`cmd` `` and ```` ```! ```` blocks run when invoked → executable),
 * frontmatter `hooks`/`mcpServers` (listed as their own items), YAML problems as warnings.
 */
export function reviewMarkdownResource(src: SourceText, kind: MarkdownResourceKind, tool: string, plugin: string | null, out: ReviewCollector): void {
  const rel = src.rel;
  const fallbackName = resourceName(rel, kind);
  const prefix = plugin ? `${plugin}:` : '';
  const shownName = `${kind === 'command' ? '/' : ''}${prefix}${fallbackName}${kind === 'command' ? namespaceLabel(rel) : ''}`;
  if (src.text === null) {
    out.add({ kind, path: rel, name: shownName, summary: `${shownName} (not inspected)`, executable: kind === 'command' || kind === 'skill', tool, warnings: src.warnings, detail: { ...link(src), ...(plugin ? { plugin } : {}) } });
    return;
  }
  const text = src.text;
  const fm = parseFrontmatter(text);
  const warnings = [...src.warnings, ...commonWarnings(rel, text, fm, kind === 'subagent')];
  const name = kind === 'command' ? shownName : `${prefix}${str(fm.data.name) ?? fallbackName}`;
  const description = clip(str(fm.data.description) ?? firstMeaningfulLine(fm.body));
  const embeds = shellEmbeds(fm.body);
  for (const cmd of embeds) warnings.push(...commandRiskWarnings(cmd, rel, lineOfText(text, cmd)));
  const allowed = strings(fm.data['allowed-tools'] ?? fm.data.tools);
  if (kind !== 'subagent' && allowed.some((t) => /^Bash\b/.test(t.trim()))) {
    warnings.push({ path: rel, line: lineOfText(text, 'allowed-tools'), message: `pre-approves shell commands while it runs: ${allowed.join(', ')}`, fix: null });
  }
  const mode = str(fm.data.permissionMode);
  if (mode && /bypass|yolo/i.test(mode)) warnings.push({ path: rel, line: lineOfText(text, 'permissionMode'), message: `runs with permission mode "${mode}": tools run without asking`, fix: null });
  if (kind === 'subagent' && !fm.present) {
    warnings.push({ path: rel, line: 1, message: 'no frontmatter (name, description): Claude Code does not register this subagent', fix: 'Start the file with ---, name: ..., description: ..., ---.' });
  }
  if (fm.data.hooks !== undefined) {
    collectHooks(fm.data.hooks, { path: rel, dialect: 'claude', tool, plugin, lineOf: () => null, fallbackLine: lineOfText(text, 'hooks:') }, out);
  }
  if (kind === 'subagent' && isRecord(fm.data.mcpServers)) {
    collectMcpServers(fm.data.mcpServers, { path: rel, tool, plugin, lineOf: () => null, fallbackLine: lineOfText(text, 'mcpServers:') }, out);
  }
  const runs = embeds.length ? ` · runs: ${embeds.join('; ')}` : '';
  out.add({
    kind,
    path: rel,
    line: 1,
    name,
    summary: oneLine(`${name}${description ? `: ${description}` : ''}${runs}`),
    executable: embeds.length > 0,
    tool,
    warnings,
    detail: {
      ...(description ? { description } : {}),
      ...(embeds.length ? { shellEmbeds: embeds } : {}),
      ...(plugin ? { plugin } : {}),
      ...link(src),
    },
  });
}

/** Gemini CLI custom command (`.gemini/commands/**.toml`: `description`, `prompt` with `!{cmd}` shell injections). */
export function reviewGeminiCommand(src: SourceText, out: ReviewCollector): void {
  const rel = src.rel;
  const name = `/${rel.replace(/^(?:.*\/)?\.gemini\/commands\//, '').replace(/\.toml$/, '').replace(/\//g, ':')}`;
  if (src.text === null) {
    out.add({ kind: 'command', path: rel, name, summary: `${name} (not inspected)`, executable: true, tool: 'gemini', warnings: src.warnings });
    return;
  }
  let data: Record<string, unknown>;
  try {
    data = parseToml(src.text) as Record<string, unknown>;
  } catch (error) {
    const line = error instanceof TomlError ? error.line : null;
    out.add({
      kind: 'command',
      path: rel,
      line,
      name,
      summary: `${name}: a command file that does not parse; Gemini CLI skips it`,
      executable: false,
      tool: 'gemini',
      warnings: [...src.warnings, { path: rel, line, message: `invalid TOML${line ? ` at line ${line}` : ''}: ${(error as Error).message.split('\n')[0]}`, fix: 'Fix the TOML syntax; the file needs prompt = "..." (and optionally description = "...").' }],
    });
    return;
  }
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

/**
 * Shell commands a command or skill body runs when invoked: `` !`cmd` `` at a line start or after
 * whitespace, and fenced ```` ```! ```` blocks (formats.md §2.8 "Dynamic context", §2.9). The same
 * finder the extensions bundle uses (`extensions/commands/embeds.ts`), so the review lists exactly
 * what a command preview would run.
 */
export function shellEmbeds(body: string): string[] {
  return shellEmbedCommands(body);
}

function resourceName(rel: string, kind: MarkdownResourceKind): string {
  const segs = rel.split('/');
  if (kind === 'skill') return segs.length >= 2 ? segs[segs.length - 2] : 'skill';
  // a command's name is its file name; subfolders only label it (formats.md §2.9)
  return segs[segs.length - 1].replace(/\.md$/, '');
}

/** ` (frontend)` for `.claude/commands/frontend/x.md`, '' for a top-level command. */
function namespaceLabel(rel: string): string {
  const segs = rel.split('/');
  const i = segs.lastIndexOf('commands');
  const ns = i === -1 ? [] : segs.slice(i + 1, -1);
  return ns.length ? ` (${ns.join('/')})` : '';
}

function commonWarnings(rel: string, text: string, fm: Frontmatter, agent: boolean): TrustWarning[] {
  const out: TrustWarning[] = [];
  if (fm.bom && fm.present) {
    out.push({
      path: rel,
      line: 1,
      message: agent ? 'starts with a UTF-8 byte order mark: Claude Code then misses the frontmatter and silently drops this subagent' : 'starts with a UTF-8 byte order mark: some agents then miss the frontmatter',
      fix: 'Save the file as UTF-8 without BOM.',
    });
  }
  if (fm.error) out.push({ path: rel, line: fm.error.line, message: fm.error.message, fix: fm.error.fix });
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
