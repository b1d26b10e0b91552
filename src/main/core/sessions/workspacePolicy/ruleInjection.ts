import { pathToFileURL } from 'node:url';
import type * as acp from '@agentclientprotocol/sdk';
import type { RuleDelivery } from '../../../../shared/contract';
import { buildSelection } from '../../rules/render';
import type { SelectedRule } from '../../rules/types';

/** The message of a refused first write (seed §7 step 3), followed by the rules themselves. */
export const BARRIER_MESSAGE = 'Applicable project instructions were loaded before this write. Review the newly supplied rules, then retry the write.';

/** Renders files as the catalog does (`<project-instructions>` / `<contextual-project-instructions trigger-paths="…">`). */
export function renderRules(tag: 'project-instructions' | 'contextual-project-instructions', files: readonly SelectedRule[], triggerPaths?: readonly string[]): string {
  return buildSelection(tag, files, { maxBytes: null, triggerPaths: triggerPaths && triggerPaths.length ? triggerPaths : undefined }).content;
}

/**
 * Content blocks that carry rules in a prompt: one embedded
 * resource per file (`file://` URI of the rule file, Markdown text) when the agent advertises
 * `promptCapabilities.embeddedContext`, else one text block in the rendered form. Empty when there
 * is nothing to send.
 */
export function ruleBlocks(
  tag: 'project-instructions' | 'contextual-project-instructions',
  files: readonly SelectedRule[],
  embedded: boolean,
  triggerPaths?: readonly string[],
): { blocks: acp.ContentBlock[]; delivery: RuleDelivery } {
  const usable = files.filter((f) => f.file.content !== null);
  if (!usable.length) return { blocks: [], delivery: embedded ? 'embedded' : 'text' };
  if (embedded) {
    return {
      delivery: 'embedded',
      blocks: usable.map((f) => ({
        type: 'resource',
        resource: { uri: fileUri(f.file.absolutePath), mimeType: 'text/markdown', text: f.file.content! },
      })),
    };
  }
  return { delivery: 'text', blocks: [{ type: 'text', text: renderRules(tag, usable, triggerPaths) }] };
}

/** The refusal text of a first write: the barrier message and the rules to review. */
export function barrierMessage(files: readonly SelectedRule[], triggerPaths: readonly string[]): string {
  return `${BARRIER_MESSAGE}\n\n${renderRules('contextual-project-instructions', files, triggerPaths)}`;
}

function fileUri(absolute: string): string {
  try {
    return pathToFileURL(absolute).href;
  } catch {
    return `file://${absolute}`;
  }
}
