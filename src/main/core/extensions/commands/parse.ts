import type { ExtensionWarning } from '../../../../shared/contract/extensions';
import { failed, firstParagraph, flag, frontmatterOf, symlinkAsText, textField, toolListField, warn, type MarkdownFile, type ReadFailure } from '../read';
import type { ScanRoot } from '../roots';
import type { CommandRecord } from '../types';
import { findFileRefs, findShellEmbeds } from './embeds';
import { indexingWarning } from './indexing';

/**
 * A custom command from its parsed file (formats.md §2.9, seed §11). `name` is the path below the
 * commands folder without `.md` (`frontend/x`: subfolders are part of the name, so `frontend/x`
 * and `backend/x` are two commands). Plugin commands get the id `plugin:<plugin>:<name>`.
 */
export function commandFromFile(file: MarkdownFile | ReadFailure, name: string, root: ScanRoot, absolutePath: string, shown: string): CommandRecord {
  const id = root.plugin ? `plugin:${root.plugin}:${name}` : name;
  const base = { id, name, source: root.source, tool: root.tool, plugin: root.plugin, path: shown, absolutePath, layer: root.layer, local: false, overriddenBy: null, meta: frontmatterOf(file) };
  if (failed(file)) {
    return { ...base, description: null, argumentHint: null, allowedTools: [], model: null, disableModelInvocation: false, frontmatter: {}, frontmatterSource: {}, hasShellEmbeds: false, shellEmbeds: [], fileRefs: [], sha256: null, status: 'invalid', warnings: [file.error], template: '', bodyLine: 1 };
  }
  const d = file.data;
  const warnings: ExtensionWarning[] = [...file.warnings];
  const linkText = file.hasFrontmatter ? null : symlinkAsText(file.body, shown);
  if (linkText) warnings.push(linkText);
  const embeds = findShellEmbeds(file.body);
  const argumentHint = textField(file, 'argument-hint', shown, warnings, 'string');
  const indexing = indexingWarning(file.body, shown, file.bodyLine, argumentHint);
  if (indexing) warnings.push(indexing);
  if (embeds.some((e) => /\$(ARGUMENTS|\d)/.test(e.command))) {
    warnings.push(warn(shown, file.bodyLine + embeds.find((e) => /\$(ARGUMENTS|\d)/.test(e.command))!.line - 1, 'a shell embed mentions $ARGUMENTS or $N, but embeds run on the template before arguments are substituted: the shell sees the literal text', 'Do not rely on arguments inside !`…` embeds.'));
  }
  if (d['disable-model-invocation'] !== undefined && typeof d['disable-model-invocation'] !== 'boolean') {
    warnings.push(warn(shown, file.lineOf('disable-model-invocation'), '"disable-model-invocation" is not a boolean; older agents need exactly true', 'Write disable-model-invocation: true'));
  }
  const description = textField(file, 'description', shown, warnings, 'description');
  const allowedTools = toolListField(file, 'allowed-tools', shown, warnings);
  const model = textField(file, 'model', shown, warnings, 'text-only');
  return {
    ...base,
    description: description ?? (firstParagraph(file.body) || null),
    argumentHint,
    allowedTools,
    model,
    disableModelInvocation: flag(d['disable-model-invocation'], false),
    frontmatter: d,
    frontmatterSource: Object.fromEntries(Object.keys(d).map((k) => [k, file.sourceOf(k) ?? ''])),
    hasShellEmbeds: embeds.length > 0,
    shellEmbeds: embeds.map((e) => e.command),
    fileRefs: findFileRefs(stripEmbeds(file.body, embeds)).map((r) => r.path),
    sha256: file.sha256,
    status: 'active',
    warnings,
    template: file.body,
    bodyLine: file.bodyLine,
  };
}

function stripEmbeds(template: string, embeds: ReturnType<typeof findShellEmbeds>): string {
  let out = '';
  let at = 0;
  for (const e of embeds) {
    out += template.slice(at, e.start) + ' '.repeat(e.end - e.start);
    at = e.end;
  }
  return out + template.slice(at);
}
