import type { CommandPreview, CommandRunResult } from '../../../shared/contract/extensions';
import { AtriumError } from '../../../shared/errors';
import type { ExtensionsTrust } from './build';
import { splitArguments } from './commands/arguments';
import { expandCommand, type TemplateVariable } from './commands/expand';
import { runEmbeds } from './commands/run';
import { SingleUseTokens, TOKEN_TTL_MS } from './commands/tokens';
import { loadInvocable, type Invocable, type LoadedInvocable } from './invocable';
import { resolveName } from './precedence';
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
 * Expanding and running the custom commands and skills of a given catalog,
 * shared by the Extensions tab and agent sessions: previews never run anything; shell embeds run
 * later only through the single-use token of a preview made for exactly that item version in the
 * same place (`ExpansionPlace.scope`), and only while the trust answer allows the catalog's folder.
 * One instance holds the pending tokens of every place.
 */
export class CommandInvocations {
  private readonly pending = new SingleUseTokens<PendingRun>();

  constructor(private readonly gate: ExtensionsTrust) {}

  /**
   * Expands a command (or, with `place.find`, a skill) of a given catalog without running anything
   * (the safety rules: embeds found on the template as written, `@path` inside `place.dir`, literal
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
