import { randomBytes } from 'node:crypto';
import type { CommandPreview, CommandRunResult, ExtensionKind, ExtensionsListResult, PluginInfo } from '../../../shared/contract/extensions';
import { AtriumError } from '../../../shared/errors';
import type { WorkspaceResourcesCache } from '../resources/cache';
import type { TrustGate } from '../trust/gate';
import { splitArguments } from './commands/arguments';
import { expandCommand } from './commands/expand';
import { runEmbeds } from './commands/run';
import { displayPath } from './paths';
import { settingsFileFor, writeEnabled } from './plugins/write';
import { resolveName } from './precedence';
import { presentList } from './present';
import { readSkillBody } from './skills/body';
import type { CommandRecord, ExtensionCatalog } from './types';

/** How long a preview's confirmation token stays valid (ms). */
export const CONFIRM_TOKEN_TTL_MS = 10 * 60 * 1000;
const MAX_TOKENS = 200;

interface PendingRun {
  root: string;
  commandId: string;
  sha256: string;
  args: string[];
  argumentText: string;
  expires: number;
}

/** Arguments of a preview: words (CLI) or the text as typed (UI; split shell-style). */
export interface PreviewArguments {
  args?: readonly string[];
  argumentText?: string;
}

/**
 * The extensions of a folder in the contract's shapes (issue 5), for a listed workspace or, from the
 * CLI, any directory. Catalogs come from the workspace resources cache (member `extensions`).
 * Command previews never run anything; running a command's shell embeds needs the single-use token
 * of a preview made for exactly that command version, and a trusted workspace.
 */
export class ExtensionsService {
  private readonly pending = new Map<string, PendingRun>();

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
      const command = findCommand(c, name);
      const { args, argumentText } = normaliseArguments(input);
      const x = await expandCommand(command, { args, argumentText, workspaceDir: c.root });
      const trusted = this.gate.mayActivateProjectResources(c.root);
      const canRun = x.embeds.length > 0 && trusted && command.sha256 !== null;
      const runBlockedReason = x.embeds.length === 0 ? null : trusted ? null : 'Shell embeds run only in trusted workspaces. Trust the folder first.';
      let confirmToken: string | null = null;
      if (canRun) {
        confirmToken = randomBytes(18).toString('base64url');
        this.prune();
        this.pending.set(confirmToken, { root: c.root, commandId: command.id, sha256: command.sha256!, args, argumentText, expires: Date.now() + CONFIRM_TOKEN_TTL_MS });
      }
      return {
        id: command.id,
        name: command.name,
        path: command.path,
        sha256: command.sha256 ?? '',
        text: x.text,
        args,
        indexing: 'zero-based' as const,
        embeds: x.embeds.map((e) => ({ command: e.command, line: command.bodyLine + e.line - 1 })),
        fileRefs: x.fileRefs,
        warnings: [...command.warnings, ...x.warnings],
        canRun,
        runBlockedReason,
        confirmToken,
      };
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
      const run = this.pending.get(token);
      if (!run || run.expires < Date.now() || run.root !== c.root) {
        throw new AtriumError('COMMAND_NOT_CONFIRMED', 'This confirmation is unknown, already used or expired. Preview the command again and confirm its shell commands.');
      }
      this.pending.delete(token);
      if (!this.gate.mayActivateProjectResources(c.root)) throw new AtriumError('TRUST_REFUSED', 'Shell embeds run only in trusted workspaces. Trust the folder first.');
      const command = c.commands.find((x) => x.id === run.commandId);
      if (!command || command.sha256 !== run.sha256) throw new AtriumError('EXTENSION_CHANGED', `The command ${run.commandId} changed since it was previewed; preview it again.`);
      const first = await expandCommand(command, { args: run.args, argumentText: run.argumentText, workspaceDir: c.root });
      const runs = await runEmbeds(first.embeds, c.root);
      const done = await expandCommand(command, { args: run.args, argumentText: run.argumentText, workspaceDir: c.root, embedOutputs: runs.map((r) => r.output) });
      return { id: command.id, text: done.text, runs };
    });
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

  private prune(): void {
    const now = Date.now();
    for (const [k, v] of this.pending) if (v.expires < now) this.pending.delete(k);
    while (this.pending.size >= MAX_TOKENS) this.pending.delete(this.pending.keys().next().value!);
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
