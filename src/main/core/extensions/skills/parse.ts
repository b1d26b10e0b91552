import type { ExtensionWarning } from '../../../../shared/contract/extensions';
import { shellEmbedCommands } from '../commands/embeds';
import { summarizeHooks } from '../hookCount';
import { failed, firstParagraph, flag, frontmatterOf, textField, toolListField, warn, type MarkdownFile, type ReadFailure } from '../read';
import type { ScanRoot } from '../roots';
import type { SkillRecord } from '../types';

/** Skill names (seed §10; Agent Skills spec): lowercase letters, digits and inner hyphens, ≤ 64 chars. */
const SKILL_NAME = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
/**
 * What frontmatter `hooks` of a skill or subagent mean under Atrium. The agents Atrium launches load
 * no skills or subagents of their own (Claude Code: `settingSources: []`; Atrium sends a skill's
 * text as the prompt), so these hooks never run in an Atrium session and are not on the Hooks tab;
 * an agent that loads the file itself (outside Atrium) registers them while the skill or subagent
 * is active, without asking Atrium.
 */
export const FRONTMATTER_HOOKS_NOTE = {
  skill: 'Atrium never runs them and they cannot be approved (agents it launches load no skills of their own); an agent that loads this skill by itself runs them, without asking Atrium, only while the skill is invoked',
  subagent: 'Atrium never runs them and they cannot be approved (agents it launches load no subagents of their own); an agent that loads this subagent by itself runs them, without asking Atrium, while the subagent is active',
} as const;

/** Longest description the Agent Skills spec accepts (characters). */
const MAX_DESCRIPTION = 1024;

/**
 * A skill from its parsed `SKILL.md` (formats.md §2.8, seed §10). `folder` is the skill's folder
 * name, which is its id (Claude Code's command name; `plugin:<plugin>:<folder>` for plugin skills);
 * frontmatter `name` is the display name. `name` and `description` are required by the spec: when
 * missing, the folder name and the first paragraph are used and a warning says so. `arguments`
 * (named positional arguments) and `hooks` (registered while the skill runs, with a warning that
 * Atrium does not run or approve them) are listed too. Unreadable files are listed as `invalid`.
 */
export function skillFromFile(file: MarkdownFile | ReadFailure, folder: string, root: ScanRoot, absolutePath: string, shown: string): SkillRecord {
  const id = root.plugin ? `plugin:${root.plugin}:${folder}` : folder;
  const base = { id, source: root.source, tool: root.tool, plugin: root.plugin, path: shown, absolutePath, layer: root.layer, local: false, overriddenBy: null, meta: frontmatterOf(file) };
  if (failed(file)) {
    return { ...base, name: folder, description: '', whenToUse: null, argumentHint: null, allowedTools: [], model: null, disableModelInvocation: false, userInvocable: true, bodyBytes: 0, arguments: [], hooks: null, shellEmbeds: [], sha256: null, status: 'invalid', warnings: [file.error] };
  }
  const warnings: ExtensionWarning[] = [...file.warnings];
  const d = file.data;
  if (!file.hasFrontmatter) warnings.push(warn(shown, 1, 'SKILL.md has no frontmatter; name and description are required', `Start the file with ---, name: ${folder}, description: what it does and when to use it, ---.`));
  let name = textField(file, 'name', shown, warnings, 'string');
  if (name === null) {
    if (file.hasFrontmatter) warnings.push(warn(shown, 2, `no "name"; the folder name "${folder}" is used`, `Add name: ${folder}`));
    name = folder;
  } else if (!SKILL_NAME.test(name)) {
    warnings.push(warn(shown, file.lineOf('name'), `name "${name}" is not lowercase letters, digits and hyphens (at most 64); the Agent Skills spec rejects it`, `Use name: ${folder}`));
  } else if (name !== folder && !root.plugin) {
    warnings.push(warn(shown, file.lineOf('name'), `name "${name}" differs from the folder "${folder}"; Claude Code invokes it as /${folder}, and the Agent Skills spec requires them to be equal`, `Rename the folder or use name: ${folder}`));
  }
  let description = textField(file, 'description', shown, warnings, 'description');
  if (description === null) {
    description = firstParagraph(file.body);
    warnings.push(warn(shown, file.lineOf('description') ?? 1, `no "description"; ${description ? 'the first paragraph is used' : 'agents cannot tell when to use it'}`, 'Add description: what the skill does and when to use it.'));
  } else if (description.length > MAX_DESCRIPTION) {
    warnings.push(warn(shown, file.lineOf('description'), `description is ${description.length} characters; the Agent Skills spec allows ${MAX_DESCRIPTION}`, 'Shorten the description; move details into the body.'));
  }
  const args = argumentNames(d.arguments, shown, file.lineOf('arguments'), warnings);
  const hooks = skillHooks(d.hooks, shown, file.lineOf('hooks'), warnings);
  const whenToUse = textField(file, 'when_to_use', shown, warnings, 'string');
  const argumentHint = textField(file, 'argument-hint', shown, warnings, 'string');
  const allowedTools = toolListField(file, 'allowed-tools', shown, warnings);
  const model = textField(file, 'model', shown, warnings, 'text-only');
  return {
    ...base,
    name,
    description,
    whenToUse,
    argumentHint,
    allowedTools,
    model,
    disableModelInvocation: flag(d['disable-model-invocation'], false),
    userInvocable: flag(d['user-invocable'], true),
    bodyBytes: Buffer.byteLength(file.body, 'utf8'),
    arguments: args,
    hooks,
    shellEmbeds: shellEmbedCommands(file.body),
    sha256: file.sha256,
    status: 'active',
    warnings,
  };
}

/** `arguments`: a space-separated string or a list of names (formats.md §2.8); anything else is a warning. */
function argumentNames(value: unknown, shown: string, line: number | null, warnings: ExtensionWarning[]): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return value.split(/[\s,]+/).filter(Boolean);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) return value.map((v) => String(v).trim()).filter(Boolean);
  warnings.push(warn(shown, line, '"arguments" must be a space-separated string or a list of names; it is ignored', 'Write arguments: issue priority (or a YAML list of names).'));
  return [];
}

/**
 * Frontmatter `hooks` (formats.md §2.8): counted and listed with their events. They are not part of
 * the user's settings and not on the Hooks tab: Atrium never runs them and they cannot be approved
 * (see {@link FRONTMATTER_HOOKS_NOTE}).
 */
function skillHooks(value: unknown, shown: string, line: number | null, warnings: ExtensionWarning[]): { count: number; events: string[] } | null {
  if (value === undefined || value === null) return null;
  const summary = summarizeHooks(value);
  if (summary === null) {
    warnings.push(warn(shown, line, '"hooks" is not an object of events; agents reject it', 'Write hooks: with event names as keys (PreToolUse: [...]).'));
    return null;
  }
  if (summary.count > 0) {
    warnings.push(warn(shown, line, `declares ${summary.count} hook${summary.count === 1 ? '' : 's'} (${summary.events.join(', ')}): ${FRONTMATTER_HOOKS_NOTE.skill}`, null));
  }
  return summary;
}
