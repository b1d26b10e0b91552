import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { CommandPreview, ExtensionWarning } from '../../../../shared/contract/extensions';
import { isInside } from '../paths';
import { warn } from '../read';
import type { CommandRecord } from '../types';
import { substituteArguments } from './arguments';
import { findFileRefs, findShellEmbeds, type ShellEmbed } from './embeds';

/** Largest file an `@path` reference inlines (bytes). */
export const MAX_FILE_REF_BYTES = 256 * 1024;

/** What {@link expandCommand} produced. */
export interface Expansion {
  text: string;
  embeds: ShellEmbed[];
  fileRefs: CommandPreview['fileRefs'];
  warnings: ExtensionWarning[];
}

/** What {@link expandCommand} needs of a command (or of a skill body read for invocation). */
export type ExpandableTemplate = Pick<CommandRecord, 'template' | 'bodyLine' | 'path'>;

/** Arguments and places of one expansion. */
export interface ExpandOptions {
  /** The words (0-based `$N`). */
  args: readonly string[];
  /** The arguments as typed (`$ARGUMENTS`). */
  argumentText: string;
  /** The folder `@path` references must resolve inside (the workspace, or a session's execution folder). */
  workspaceDir: string;
  /** Outputs of `runEmbeds`, in embed order (inserted literally); absent = embeds stay as written. */
  embedOutputs?: readonly string[];
  /** A skill's named arguments (`$name`), in order. */
  names?: readonly string[];
  /**
   * Values of `${CLAUDE_PROJECT_DIR}`, `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_SKILL_DIR}` (formats.md
   * §2.8 body substitutions), inserted literally into the template's text; a variable without a
   * value stays as written.
   */
  variables?: Readonly<Partial<Record<TemplateVariable, string>>>;
}

/** The `${NAME}` variables a command or skill body may use (Claude Code). */
export type TemplateVariable = 'CLAUDE_PROJECT_DIR' | 'CLAUDE_PLUGIN_ROOT' | 'CLAUDE_SKILL_DIR';
const VARIABLE = /\$\{(CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_ROOT|CLAUDE_SKILL_DIR)\}/g;

type Segment = { kind: 'text'; text: string } | { kind: 'embed'; embed: ShellEmbed; index: number } | { kind: 'file'; raw: string; replacement: string };

/**
 * Expands a command template or a skill body (formats.md §2.9) in the safe order:
 * 1. shell embeds are located on the template as written (never on substituted text, so an
 *    argument cannot create one);
 * 2. `@path` references, also on the template as written, are inlined as fenced blocks only when
 *    they resolve (realpath) to a regular file inside the workspace; anything else is left as
 *    written and reported (`refused` / `missing`);
 * 3. arguments are substituted into the remaining literal text only (not into embeds, not into
 *    inlined files), literally (see `substituteArguments`); when the template uses no placeholder
 *    and arguments were given, `ARGUMENTS: <text>` is appended (Claude Code).
 * Embeds stay as written (`` !`cmd` ``) unless `embedOutputs` (from `runEmbeds`) is given, whose
 * values are inserted literally. Never runs anything; never throws for bad input.
 */
export async function expandCommand(command: ExpandableTemplate, options: ExpandOptions): Promise<Expansion> {
  const template = command.template;
  const embeds = findShellEmbeds(template);
  const warnings: ExtensionWarning[] = [];
  const fileRefs: Expansion['fileRefs'] = [];
  const segments: Segment[] = [];
  let at = 0;
  const pushText = async (chunk: string, offset: number) => {
    let last = 0;
    for (const ref of findFileRefs(chunk)) {
      if (ref.start > last) segments.push({ kind: 'text', text: chunk.slice(last, ref.start) });
      const raw = chunk.slice(ref.start, ref.end);
      const resolved = await resolveFileRef(ref.path, options.workspaceDir);
      fileRefs.push({ token: raw, path: ref.path, status: resolved.status, reason: resolved.reason });
      if (resolved.status === 'refused') {
        const line = command.bodyLine + template.slice(0, offset + ref.start).split('\n').length - 1;
        warnings.push(warn(command.path, line, `${raw} is refused: ${resolved.reason}`, 'Reference files inside the workspace only.'));
      }
      segments.push({ kind: 'file', raw, replacement: resolved.status === 'included' ? resolved.block : raw });
      last = ref.end;
    }
    if (last < chunk.length) segments.push({ kind: 'text', text: chunk.slice(last) });
  };
  for (const [index, embed] of embeds.entries()) {
    await pushText(template.slice(at, embed.start), at);
    segments.push({ kind: 'embed', embed, index });
    at = embed.end;
  }
  await pushText(template.slice(at), at);

  let used = false;
  const parts = segments.map((s) => {
    if (s.kind === 'file') return s.replacement;
    if (s.kind === 'embed') {
      const output = options.embedOutputs?.[s.index];
      return output === undefined ? template.slice(s.embed.start, s.embed.end) : output;
    }
    // variables are template text, never argument text: split them out before arguments go in
    let out = '';
    let last = 0;
    for (const m of s.text.matchAll(VARIABLE)) {
      const r = substituteArguments(s.text.slice(last, m.index), options.args, options.argumentText, options.names);
      used ||= r.used;
      out += r.text + (options.variables?.[m[1] as TemplateVariable] ?? m[0]);
      last = m.index + m[0].length;
    }
    const r = substituteArguments(s.text.slice(last), options.args, options.argumentText, options.names);
    used ||= r.used;
    return out + r.text;
  });
  let text = parts.join('');
  if (!used && options.argumentText.trim() !== '') text = `${text.replace(/\s*$/, '')}\n\nARGUMENTS: ${options.argumentText}`;
  return { text, embeds, fileRefs, warnings };
}

type FileRefResolution = { status: 'included'; reason: null; block: string } | { status: 'refused' | 'missing'; reason: string };

async function resolveFileRef(ref: string, workspaceDir: string): Promise<FileRefResolution> {
  if (ref.startsWith('~') || path.isAbsolute(ref)) return { status: 'refused', reason: 'absolute and home paths are outside the workspace' };
  const lexical = path.resolve(workspaceDir, ref);
  if (!isInside(workspaceDir, lexical)) return { status: 'refused', reason: 'it points outside the workspace' };
  let real: string;
  let realRoot: string;
  try {
    realRoot = await fs.realpath(workspaceDir);
    real = await fs.realpath(lexical);
  } catch {
    return { status: 'missing', reason: 'no such file in the workspace; left as written' };
  }
  if (!isInside(realRoot, real)) return { status: 'refused', reason: 'it is a link to a file outside the workspace' };
  try {
    const st = await fs.stat(real);
    if (!st.isFile()) return { status: 'missing', reason: 'not a regular file; left as written' };
    if (st.size > MAX_FILE_REF_BYTES) return { status: 'refused', reason: `larger than ${MAX_FILE_REF_BYTES} bytes` };
    const content = (await fs.readFile(real, 'utf8')).replace(/\r\n/g, '\n').replace(/\n$/, '');
    const ext = path.extname(ref).slice(1);
    const fence = content.includes('```') ? '````' : '```';
    return { status: 'included', reason: null, block: `\n${fence}${ext}\n${content}\n${fence}\n` };
  } catch {
    return { status: 'missing', reason: 'could not be read; left as written' };
  }
}
