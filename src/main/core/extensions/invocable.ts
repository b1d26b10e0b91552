import path from 'node:path';
import { AtriumError } from '../../../shared/errors';
import type { ExpandableTemplate } from './commands/expand';
import { resolveName } from './precedence';
import { readSkillBody } from './skills/body';
import type { CommandRecord, ExtensionCatalog, SkillRecord } from './types';

/** A custom command or a skill the user can invoke with "/" (what a session's menu lists). */
export type Invocable = { kind: 'command'; record: CommandRecord } | { kind: 'skill'; record: SkillRecord };

/** An invocable with the template to expand: a command's frozen template, or a skill body read now and verified. */
export interface LoadedInvocable extends ExpandableTemplate {
  kind: Invocable['kind'];
  id: string;
  name: string;
  /** The digest the catalog recorded (and the skill body was checked against). */
  sha256: string | null;
  /** A skill's named arguments (`$name`), in order; empty for commands. */
  names: readonly string[];
  /** Plugin name for plugin resources (its root becomes `${CLAUDE_PLUGIN_ROOT}`), else null. */
  plugin: string | null;
  /** Absolute folder of a skill's SKILL.md (`${CLAUDE_SKILL_DIR}`), null for commands. */
  skillDir: string | null;
}

/**
 * The commands and skills a user can invoke from a catalog (a workspace bundle or a session's
 * snapshot): active custom commands and active skills whose `user-invocable` is not false. A skill
 * beats a command with the same id (formats.md §2.8: "A skill beats a `.claude/commands/` file with
 * the same name"), so that command is left out. Sorted by id.
 */
export function invocables(c: ExtensionCatalog): Invocable[] {
  const skills = c.skills.filter((s) => s.status === 'active' && s.userInvocable);
  const skillIds = new Set(skills.map((s) => s.id));
  const commands = c.commands.filter((x) => x.status === 'active' && !skillIds.has(x.id));
  const out: Invocable[] = [...commands.map((record) => ({ kind: 'command' as const, record })), ...skills.map((record) => ({ kind: 'skill' as const, record }))];
  return out.sort((a, b) => (a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0));
}

/**
 * What the user types for an invocable: its short name (the id without a `plugin:<p>:` prefix;
 * a skill's folder, as Claude Code invokes it) when that resolves to exactly it among all
 * invocables (see {@link findInvocable}), else its id (`plugin:p:x`).
 */
export function invokeName(all: readonly Invocable[], item: Invocable): string {
  const short = shortName(item.record.id);
  const found = resolveName(all.map(asNamed), short);
  return found !== null && !('ambiguous' in found) && found.id === item.record.id && found.kind === item.kind ? short : item.record.id;
}

/**
 * Resolves what the user typed after "/" (a leading "/" is ignored): an exact id first, else a
 * unique short name (the extensions' one naming rule, `resolveName`).
 * @throws AtriumError NOT_FOUND (nothing matches; says so when restricted mode hides project ones) |
 *   INVALID_PARAMS (a short name several items have: use the full id)
 */
export function findInvocable(c: ExtensionCatalog, name: string): Invocable {
  const all = invocables(c);
  const query = name.replace(/^\//, '').trim();
  const found = resolveName(all.map(asNamed), query);
  if (found === null) throw new AtriumError('NOT_FOUND', `No command or skill "/${query}" in ${c.root}${c.trusted ? '' : ' (restricted mode: project commands and skills are inactive)'}.`);
  if ('ambiguous' in found) throw new AtriumError('INVALID_PARAMS', `"/${query}" names several commands or skills: ${found.ambiguous.join(', ')}. Use the full id.`);
  return all[found.index];
}

/**
 * The template of an invocable: a command's template as frozen in the catalog; a skill's body read
 * now and checked against the catalog's digest (skill bodies are read lazily).
 * @throws AtriumError EXTENSION_CHANGED (the skill file changed since the catalog was built: fail closed)
 */
export async function loadInvocable(item: Invocable): Promise<LoadedInvocable> {
  const r = item.record;
  if (item.kind === 'command') {
    return { kind: 'command', id: r.id, name: r.name, path: r.path, sha256: r.sha256, template: item.record.template, bodyLine: item.record.bodyLine, names: [], plugin: r.plugin, skillDir: null };
  }
  const { body, bodyLine } = await readSkillBody(item.record);
  return { kind: 'skill', id: r.id, name: r.name, path: r.path, sha256: r.sha256, template: body, bodyLine, names: item.record.arguments, plugin: r.plugin, skillDir: path.dirname(item.record.absolutePath) };
}

/** The id without its plugin namespace. */
function shortName(id: string): string {
  return id.replace(/^plugin:[^:]+:/, '');
}

function asNamed(item: Invocable, index: number) {
  return { id: item.record.id, name: shortName(item.record.id), status: item.record.status, kind: item.kind, index };
}
