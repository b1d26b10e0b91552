import type { ExtensionWarning } from '../../../../shared/contract/extensions';
import { failed, frontmatterOf, textField, toolListField, warn, readMarkdown, symlinkAsText, type MarkdownFile, type ReadFailure } from '../read';
import { DOC_NAMES, type ScanRoot } from '../roots';
import type { AgentRecord } from '../types';
import { findMarkdown } from '../walk';
import { directFileAccess, type FileReader } from '../../files/scan';

/**
 * Subagents of one root (`agents/**\/*.md`, formats.md §2.12): name (frontmatter, else the file
 * name), description, tools, model. BOM-tolerant (a BOM never hides an agent, unlike Claude Code
 * issue #73158, but a warning says Claude Code would drop it). A file without frontmatter is
 * listed with a warning (Claude Code does not register it); README-like files are skipped.
 */
export async function scanAgents(root: ScanRoot, shown: (abs: string) => string, files: FileReader = directFileAccess): Promise<{ agents: AgentRecord[]; warnings: ExtensionWarning[] }> {
  const found = await findMarkdown(root.dir, shown, { skip: (n) => DOC_NAMES.test(n) });
  const agents: AgentRecord[] = [];
  for (const f of found.files) agents.push(await agentFromFile(f.absolute, root, shown, files));
  return { agents, warnings: found.warnings };
}

/** One subagent file (see {@link scanAgents}). Never throws. */
export async function agentFromFile(absolute: string, root: ScanRoot, shown: (abs: string) => string, files: FileReader = directFileAccess): Promise<AgentRecord> {
  return agentFromParsed(await readMarkdown(absolute, shown(absolute), undefined, files), absolute, root, shown(absolute));
}

/** A subagent from an already read file (the trust review reads files itself, confined to the workspace). */
export function agentFromParsed(file: MarkdownFile | ReadFailure, absolute: string, root: ScanRoot, where: string): AgentRecord {
  const fileName = absolute.split(/[\\/]/).pop()!.replace(/\.md$/i, '');
  const base = { source: root.source, tool: root.tool, plugin: root.plugin, path: where, absolutePath: absolute, layer: root.layer, local: false, overriddenBy: null, meta: frontmatterOf(file) };
  if (failed(file)) return { ...base, id: idOf(root, fileName), name: fileName, description: null, tools: [], model: null, sha256: null, status: 'invalid', warnings: [file.error] };
  const warnings = [...file.warnings];
  const name = textField(file, 'name', where, warnings, 'string') ?? fileName;
  const description = textField(file, 'description', where, warnings, 'description');
  if (!file.hasFrontmatter) {
    const asText = symlinkAsText(file.body, where);
    warnings.push(asText ?? warn(where, 1, 'no frontmatter (name, description): Claude Code does not register this subagent', `Start the file with ---, name: ${fileName}, description: when to use it, ---.`));
  } else if (description === null) {
    warnings.push(warn(where, 1, 'no "description": agents cannot tell when to delegate to it, and Claude Code skips it', 'Add description: when to use this subagent.'));
  }
  const tools = toolListField(file, 'tools', where, warnings);
  const model = textField(file, 'model', where, warnings, 'text-only');
  return { ...base, id: idOf(root, name), name, description, tools, model, sha256: file.sha256, status: 'active', warnings };
}

function idOf(root: ScanRoot, name: string): string {
  return root.plugin ? `plugin:${root.plugin}:${name}` : name;
}
