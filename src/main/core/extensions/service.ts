import type { CommandPreview, CommandRunResult, ExtensionKind, ExtensionsListResult, PluginInfo } from '../../../shared/contract/extensions';
import { AtriumError } from '../../../shared/errors';
import type { WorkspaceResourcesCache } from '../resources/cache';
import type { TrustGate } from '../trust/gate';
import { splitArguments } from './commands/arguments';
import { expandCommand, type TemplateVariable } from './commands/expand';
import { runEmbeds } from './commands/run';
import { SingleUseTokens, TOKEN_TTL_MS } from './commands/tokens';
import { loadInvocable, type Invocable, type LoadedInvocable } from './invocable';
import { displayPath } from './paths';
import { settingsFileFor, writeEnabled } from './plugins/write';
import { resolveName } from './precedence';
import { presentList } from './present';
import { readSkillBody } from './skills/body';
import type { CommandRecord, ExtensionCatalog } from './types';

/** How long a preview's confirmation token stays valid (ms). */
export const CONFIRM_TOKEN_TTL_MS = TOKEN_TTL_MS;

/** Arguments of a preview: words (CLI) or the text as typed (UI; split shell-style). */
export interface PreviewArguments {
  args?: readonly string[];
  argumentText?: string;
}

/**
 * Where an expansion happens. A confirmation token is good only in the place it was issued for.
 */
export interface ExpansionPlace {
  /** `workspace` for the Extensions tab and the CLI, `session:<id>` for an agent session. */
  scope: string;
  /** The folder `@path` references must resolve inside and shell embeds run in (a session's execution folder). */
  dir: string;
  /** How a typed name is resolved in the catalog (default: custom commands only). */
  find?: (catalog: ExtensionCatalog, name: string) => Invocable;
}

/** A preview with what kind of item it expanded. */
export type InvocationPreview = CommandPreview & { kind: Invocable['kind'] };

/** An expansion made without running anything (what `sessions.sendCommand` sends when no embeds ran). */
export interface Expanded {
  item: LoadedInvocable;
  text: string;
  argumentText: string;
  /** Shell embeds left as written (not run). */
  embeds: string[];
}

/** What a confirmation token was issued for. */
interface PendingRun {
  scope: string;
  root: string;
  kind: Invocable['kind'];
  id: string;
  sha256: string;
  args: string[];
  argumentText: string;
}

const commandsOnly = (c: ExtensionCatalog, name: string): Invocable => ({ kind: 'command', record: findCommand(c, name) });

/**
 * The extensions of a folder in the contract's shapes (issue 5), for a listed workspace or, from the
 * CLI, any directory. Catalogs come from the workspace resources cache (member `extensions`), or
 * are given by the caller (a session's snapshot: the `…In` methods).
 * Command previews never run anything; running a command's shell embeds needs the single-use token
 * of a preview made for exactly that command version in the same place, and a trusted workspace.
 */
export class ExtensionsService {
  private readonly pending = new SingleUseTokens<PendingRun>();

  constructor(
    private readonly resources: WorkspaceResourcesCache,
    private readonly gate: TrustGate,
    private readonly homeDir: string,
  ) {}

  /** `extensions.list`. @throws AtriumError for an unusable folder */
  list(dir: string, kind?: ExtensionKind): Promise<ExtensionsListResult> {
    return this.withCatalog(dir, (c) => presentList(c, kind));
  }

  /**
   * `extensions.skillBody`: the body read now and verified against the digest recorded in the bundle.
   * @throws AtriumError NOT_FOUND (unknown id) | EXTENSION_CHANGED (the file changed since the bundle was built)
   */
  skillBody(dir: string, id: string): Promise<{ id: string; path: string; sha256: string; body: string }> {
    return this.withCatalog(dir, async (c) => {
      const skill = c.skills.find((s) => s.id === id);
      if (!skill) throw new AtriumError('NOT_FOUND', `No skill "${id}" in ${c.root}. It may have been removed; refresh the list.`);
      const { body, sha256 } = await readSkillBody(skill);
      return { id, path: skill.path, sha256, body };
    });
  }

  /**
   * `extensions.commandPreview`: expands a command (Claude Code semantics, 0-based `$N`) without
   * running anything. `name` is an id, a name or a unique short name.
   * @throws AtriumError NOT_FOUND (no such command) | INVALID_PARAMS (ambiguous short name)
   */
  commandPreview(dir: string, name: string, input: PreviewArguments): Promise<CommandPreview> {
    return this.withCatalog(dir, async (c) => {
      const { kind: _kind, ...preview } = await this.previewIn(c, name, input, { scope: 'workspace', dir: c.root });
      return preview;
    });
  }

  /**
   * `extensions.runCommandEmbeds`: runs the embeds the user confirmed in a preview, then returns the
   * expansion with their outputs. The token is single-use, expires after 10 minutes and is bound to
   * the workspace, the command and its digest.
   * @throws AtriumError COMMAND_NOT_CONFIRMED (unknown, used or expired token; other workspace) |
   *   TRUST_REFUSED (the workspace is not trusted) | EXTENSION_CHANGED (the command changed since the preview)
   */
  runCommandEmbeds(dir: string, token: string): Promise<CommandRunResult> {
    return this.withCatalog(dir, async (c) => {
      const { id, text, runs } = await this.runEmbedsIn(c, token, { scope: 'workspace', dir: c.root });
      return { id, text, runs };
    });
  }

  /**
   * Expands a command (or, with `place.find`, a skill) of a given catalog without running anything
   * (issue 5 safety: embeds found on the template as written, `@path` inside `place.dir`, literal
   * replacement). Embeds may run later only through the returned `confirmToken`, which is issued
   * only when the catalog's workspace is trusted now and is bound to `place.scope`, the item and its digest.
   * @throws AtriumError NOT_FOUND | INVALID_PARAMS (ambiguous name) | EXTENSION_CHANGED (a skill body changed since the catalog)
   */
  async previewIn(c: ExtensionCatalog, name: string, input: PreviewArguments, place: ExpansionPlace): Promise<InvocationPreview> {
    const item = await loadInvocable((place.find ?? commandsOnly)(c, name));
    const { args, argumentText } = normaliseArguments(input);
    const x = await expandCommand(item, { args, argumentText, workspaceDir: place.dir, names: item.names, variables: variablesOf(c, item, place) });
    const trusted = this.gate.mayActivateProjectResources(c.root);
    const canRun = x.embeds.length > 0 && trusted && item.sha256 !== null;
    const runBlockedReason = x.embeds.length === 0 ? null : trusted ? null : 'Shell embeds run only in trusted workspaces. Trust the folder first.';
    const confirmToken = canRun ? this.pending.issue({ scope: place.scope, root: c.root, kind: item.kind, id: item.id, sha256: item.sha256!, args, argumentText }) : null;
    const warnings = item.kind === 'command' ? [...c.commands.find((x) => x.id === item.id)!.warnings, ...x.warnings] : x.warnings;
    return {
      id: item.id,
      name: item.name,
      kind: item.kind,
      path: item.path,
      sha256: item.sha256 ?? '',
      text: x.text,
      args,
      indexing: 'zero-based' as const,
      embeds: x.embeds.map((e) => ({ command: e.command, line: item.bodyLine + e.line - 1 })),
      fileRefs: x.fileRefs,
      warnings,
      canRun,
      runBlockedReason,
      confirmToken,
    };
  }

  /**
   * Runs the embeds a preview of {@link previewIn} listed, after the user confirmed them, and
   * returns the expansion with their outputs (inserted literally; the arguments never reach a
   * shell). The item is looked up again in `c` by id and must still have the previewed digest.
   * @throws AtriumError COMMAND_NOT_CONFIRMED (unknown, used or expired token; another place) |
   *   TRUST_REFUSED (not trusted now) | EXTENSION_CHANGED (the item changed since the preview)
   */
  async runEmbedsIn(c: ExtensionCatalog, token: string, place: ExpansionPlace): Promise<CommandRunResult & { kind: Invocable['kind']; argumentText: string }> {
    const run = this.pending.take(token, (r) => r.scope === place.scope && r.root === c.root);
    if (!run) throw new AtriumError('COMMAND_NOT_CONFIRMED', 'This confirmation is unknown, already used or expired. Preview the command again and confirm its shell commands.');
    if (!this.gate.mayActivateProjectResources(c.root)) throw new AtriumError('TRUST_REFUSED', 'Shell embeds run only in trusted workspaces. Trust the folder first.');
    let found: Invocable | null = null;
    try {
      found = (place.find ?? commandsOnly)(c, run.id);
    } catch {
      found = null;
    }
    if (!found || found.kind !== run.kind || found.record.id !== run.id || found.record.sha256 !== run.sha256) {
      throw new AtriumError('EXTENSION_CHANGED', `The ${run.kind} ${run.id} changed since it was previewed; preview it again.`);
    }
    const item = await loadInvocable(found);
    const options = { args: run.args, argumentText: run.argumentText, workspaceDir: place.dir, names: item.names, variables: variablesOf(c, item, place) };
    const first = await expandCommand(item, options);
    const runs = await runEmbeds(first.embeds, place.dir);
    const done = await expandCommand(item, { ...options, embedOutputs: runs.map((r) => r.output) });
    return { id: item.id, kind: item.kind, text: done.text, runs, argumentText: run.argumentText };
  }

  /**
   * Expands an item of a given catalog for sending, running nothing: shell embeds stay as written
   * (exactly what {@link previewIn} showed).
   * @throws AtriumError NOT_FOUND | INVALID_PARAMS | EXTENSION_CHANGED (a skill body changed)
   */
  async expandIn(c: ExtensionCatalog, name: string, input: PreviewArguments, place: ExpansionPlace): Promise<Expanded> {
    const item = await loadInvocable((place.find ?? commandsOnly)(c, name));
    const { args, argumentText } = normaliseArguments(input);
    const x = await expandCommand(item, { args, argumentText, workspaceDir: place.dir, names: item.names, variables: variablesOf(c, item, place) });
    return { item, text: x.text, argumentText, embeds: x.embeds.map((e) => e.command) };
  }

  /**
   * `extensions.setPluginEnabled`: writes `enabledPlugins` in the scope's settings file, then
   * rebuilds the bundle (existing snapshots keep what they had).
   * @throws AtriumError NOT_FOUND (unknown plugin) | INVALID_PARAMS (the settings file is not a JSON object)
   */
  async setPluginEnabled(dir: string, id: string, scope: 'user' | 'project' | 'local', enabled: boolean): Promise<{ plugin: PluginInfo; file: string }> {
    const target = await this.withCatalog(dir, (c) => {
      const plugin = c.plugins.find((p) => p.id === id || p.name === id);
      if (!plugin) throw new AtriumError('NOT_FOUND', `No plugin "${id}" in ${c.root}. Refresh the list.`);
      return { root: c.root, name: plugin.name, marketplace: plugin.marketplace, tool: plugin.layer.endsWith('blade') ? ('blade' as const) : ('claude' as const) };
    });
    const written = await writeEnabled(settingsFileFor(scope, target.tool, this.homeDir, target.root), target, enabled);
    const bundle = await this.resources.refresh(target.root);
    const after = presentList(bundle.value('extensions'), 'plugins').plugins.find((p) => p.name === target.name);
    if (!after) throw new AtriumError('NOT_FOUND', `The plugin "${target.name}" is no longer listed after the change.`);
    return { plugin: after, file: displayPath(written.file, target.root, this.homeDir) };
  }

  /** The current catalog of a folder (pinned while `op` runs). */
  withCatalog<T>(dir: string, op: (catalog: ExtensionCatalog) => T | Promise<T>): Promise<T> {
    return this.resources.withResources(dir, (bundle) => op(bundle.value('extensions')));
  }
}

/** A command by id, name or unique short name. @throws AtriumError NOT_FOUND | INVALID_PARAMS */
export function findCommand(c: ExtensionCatalog, name: string): CommandRecord {
  const query = name.replace(/^\//, '');
  const found = resolveName(c.commands, query);
  if (found === null) throw new AtriumError('NOT_FOUND', `No command "${name}" in ${c.root}${c.trusted ? '' : ' (restricted mode: project commands are inactive)'}.`);
  if ('ambiguous' in found) throw new AtriumError('INVALID_PARAMS', `"${name}" names several commands: ${found.ambiguous.join(', ')}. Use the full id.`);
  return found;
}

function normaliseArguments(input: PreviewArguments): { args: string[]; argumentText: string } {
  if (input.argumentText !== undefined) return { args: splitArguments(input.argumentText), argumentText: input.argumentText };
  const args = [...(input.args ?? [])];
  return { args, argumentText: args.join(' ') };
}

/** `${CLAUDE_PROJECT_DIR}` (the place's folder), `${CLAUDE_PLUGIN_ROOT}` (a plugin resource's plugin root) and `${CLAUDE_SKILL_DIR}`. */
function variablesOf(c: ExtensionCatalog, item: LoadedInvocable, place: ExpansionPlace): Partial<Record<TemplateVariable, string>> {
  const root = item.plugin ? c.plugins.find((p) => p.name === item.plugin)?.root : undefined;
  return { CLAUDE_PROJECT_DIR: place.dir, ...(root ? { CLAUDE_PLUGIN_ROOT: root } : {}), ...(item.skillDir ? { CLAUDE_SKILL_DIR: item.skillDir } : {}) };
}
