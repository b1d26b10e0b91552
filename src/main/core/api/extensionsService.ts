import type { CommandPreview, CommandRunResult, ExtensionKind, ExtensionsListResult, PluginInfo } from '../../../shared/contract/extensions';
import { AtriumError } from '../../../shared/errors';
import type { ExtensionsTrust } from '../extensions/build';
import { CommandInvocations, type PreviewArguments } from '../extensions/invocations';
import { displayPath } from '../extensions/paths';
import { settingsFileFor, writeEnabled } from '../extensions/plugins/write';
import { presentList } from '../extensions/present';
import { readSkillBody } from '../extensions/skills/body';
import type { ExtensionCatalog } from '../extensions/types';
import type { WorkspaceResourcesCache } from '../resources/cache';

/**
 * The extensions of a folder in the contract's shapes, for a listed workspace or, from the
 * CLI, any directory. Catalogs come from the workspace resources cache (member `extensions`), or
 * are given by the caller (a session's snapshot: the `…In` methods).
 * Expanding and running commands is {@link CommandInvocations}' (sessions use the same instance, so
 * one pool of confirmation tokens serves both places).
 */
export class ExtensionsService extends CommandInvocations {
  constructor(
    private readonly resources: WorkspaceResourcesCache,
    gate: ExtensionsTrust,
    private readonly homeDir: string,
  ) {
    super(gate);
  }

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
