import path from 'node:path';
import { sha256Hex } from '../formats/digest';
import type { FileReader } from '../files/scan';
import { RULE_LIMITS } from './limits';
import { isInside } from './paths';
import { readRuleSource } from './readSource';
import { scanInvisible } from '../formats/unicode';
import { escapeAttribute } from '../formats/text';
import type { RuleImport, RuleWarning } from './types';
import { warning } from './warnings';

/** Where imports may come from and how paths are shown. */
export interface ImportContext {
  homeDir: string;
  /** Canonical directories an import may resolve into (catalog root when trusted, user agent dirs). */
  allowed: readonly string[];
  /** Display path for an absolute path (root-relative, `~/…`, or absolute). */
  display(absolute: string): string;
  /** Where imported files' contents come from (default: `fs.readFile`; a build passes its scan). */
  reader?: FileReader;
}

/** Result of {@link expandImports}. */
export interface ExpandedImports {
  /** Trimmed body followed by one `<imported-file>` block per import (nested ones inside theirs). */
  content: string;
  imports: RuleImport[];
  warnings: RuleWarning[];
  /** Absolute paths whose change affects this rule (resolved and unresolved targets), for watching. */
  deps: string[];
}

/** One `@token` found in Markdown text. `line` is 0-based within the scanned text. */
export interface ImportToken {
  token: string;
  line: number;
}

/**
 * Finds `@path` tokens outside fenced blocks and inline code spans (formats.md §2.2). A token
 * starts after line start, whitespace, `(` or `[`; trailing `:,.;)]` are stripped.
 * Only path-like tokens count (contain `/`, start with `~`, or end in an extension), so `@claude`
 * or `@Injectable` in prose are not imports.
 */
export function findImportTokens(text: string): ImportToken[] {
  const out: ImportToken[] = [];
  if (!text.includes('@')) return out; // most rule files import nothing: no line to scan
  let fence: { char: string; length: number } | null = null;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fenceMatch = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (fenceMatch && fenceMatch[1][0] === fence.char && fenceMatch[1].length >= fence.length && line.trim() === fenceMatch[1]) fence = null;
      continue;
    }
    if (fenceMatch) {
      fence = { char: fenceMatch[1][0], length: fenceMatch[1].length };
      continue;
    }
    if (!line.includes('@')) continue;
    const visible = line.replace(/(`+)[^`]*?\1/g, (span) => ' '.repeat(span.length));
    for (const match of visible.matchAll(/(?:^|[\s([])@(\S+)/g)) {
      const token = match[1].replace(/[:,.;)\]]+$/, '');
      if (isPathLike(token)) out.push({ token, line: i });
    }
  }
  return out;
}

function isPathLike(token: string): boolean {
  return token.length > 0 && (token.includes('/') || token.startsWith('~') || /\.[A-Za-z0-9]{1,10}$/.test(token));
}

interface Frame {
  ctx: ImportContext;
  imports: RuleImport[];
  warnings: RuleWarning[];
  deps: Set<string>;
  /** Real paths already expanded anywhere in this rule (an import appears once). */
  expanded: Set<string>;
}

/**
 * Expands `@imports` of one rule body: relative to the importing file
 * (`~/` = home, `/…` absolute), depth ≤ 5, cycles detected, targets confined to `ctx.allowed`
 * (else a warning and no import). Imported text is normalised like a rule (BOM, CRLF), must be
 * ≤ 1 MiB and text; invisible characters are imported, with a warning. Each import keeps its path and SHA-256.
 * `bodyLine` is the 1-based file line where `body` starts. Never throws.
 */
export async function expandImports(body: string, bodyLine: number, fileAbsolute: string, fileRealPath: string, ctx: ImportContext): Promise<ExpandedImports> {
  const frame: Frame = { ctx, imports: [], warnings: [], deps: new Set(), expanded: new Set([fileRealPath]) };
  const blocks = await expandText(frame, body, bodyLine, fileAbsolute, [fileRealPath], 1, true);
  const trimmed = body.trim();
  const content = blocks.length ? `${trimmed}\n\n${blocks.join('\n\n')}` : trimmed;
  return { content, imports: frame.imports, warnings: frame.warnings, deps: [...frame.deps] };
}

async function expandText(frame: Frame, text: string, firstLine: number, fileAbsolute: string, chain: string[], depth: number, isRule: boolean): Promise<string[]> {
  const blocks: string[] = [];
  const fromDisplay = frame.ctx.display(fileAbsolute);
  for (const { token, line } of findImportTokens(text)) {
    const fileLine = firstLine + line;
    // Lines of nested files would be misleading on the rule: name the file instead.
    const at = isRule ? fileLine : null;
    const where = isRule ? '' : ` (in ${fromDisplay}, line ${fileLine})`;
    const target = resolveToken(token, fileAbsolute, frame.ctx.homeDir);
    frame.deps.add(target);
    const fixText = `Check the path, or write \`@${token}\` in backticks if it is not meant as an import.`;
    if (!frame.ctx.allowed.some((dir) => isInside(dir, target))) {
      frame.warnings.push(warning('import-outside', 'warning', `Import @${token}${where} points outside the workspace and your agent config folders, so it is not imported.`, at, 'Copy the file into the repository and import it from there.'));
      continue;
    }
    if (depth > RULE_LIMITS.maxImportDepth) {
      frame.warnings.push(warning('import-depth', 'warning', `Import @${token}${where} is more than ${RULE_LIMITS.maxImportDepth} levels deep, so it is not imported.`, at, 'Import the file from a shallower level.'));
      continue;
    }
    const read = await readRuleSource(target, { confineTo: frame.ctx.allowed, reader: frame.ctx.reader });
    if (!read.ok) {
      if (read.realPath) frame.deps.add(read.realPath);
      const missing = read.code === 'missing' || read.code === 'dangling-symlink';
      // `@scope/package` in prose is probably not meant as a file: a note, not a warning.
      const looksLikeFile = /\.[A-Za-z0-9]{1,10}$/.test(token);
      frame.warnings.push(
        warning(
          missing ? 'import-missing' : 'import-rejected',
          missing && !looksLikeFile ? 'info' : 'warning',
          missing ? `Import @${token}${where} does not resolve to a file, so nothing is imported (agents skip it silently).` : `Import @${token}${where} is not imported: ${read.message}`,
          at,
          missing ? fixText : read.fix,
        ),
      );
      continue;
    }
    frame.deps.add(read.realPath);
    if (chain.includes(read.realPath)) {
      frame.warnings.push(warning('import-cycle', 'warning', `Import @${token}${where} leads back to ${frame.ctx.display(read.realPath)}: an import cycle, not followed.`, at, 'Remove one of the imports in the cycle.'));
      continue;
    }
    if (frame.expanded.has(read.realPath)) continue;
    // Invisible characters do not stop an import (agents import the file as it is); the importing
    // rule's content is made visible as a whole, so smuggling characters are never sent raw.
    const invisible = scanInvisible(read.text);
    const hidden = invisible.find((f) => f.class === 'smuggling') ?? invisible.find((f) => f.class === 'harmless');
    if (hidden) {
      const smuggling = hidden.class === 'smuggling';
      frame.warnings.push(
        warning(
          'import-hidden-characters',
          smuggling ? 'error' : 'warning',
          `Import @${token}${where} contains ${hidden.what} (${hidden.codePoint}, line ${hidden.line}, column ${hidden.column})${smuggling ? ': Atrium imports it but sends it as ⟨U+XXXX⟩; agents importing the file themselves get it as it is' : ', a character a reader cannot see; it is imported as written'}.`,
          at,
          'Remove the invisible character from the imported file if it is not intended.',
        ),
      );
    }
    frame.expanded.add(read.realPath);
    const importedText = read.text.trim();
    const sha256 = sha256Hex(importedText);
    const display = frame.ctx.display(target);
    frame.imports.push(Object.freeze({ path: display, sha256, depth, from: fromDisplay, line: fileLine }));
    const nested = await expandText(frame, read.text, 1, target, [...chain, read.realPath], depth + 1, false);
    const inner = nested.length ? `${importedText}\n\n${nested.join('\n\n')}` : importedText;
    blocks.push(`<imported-file path="${escapeAttribute(display)}" sha256="${sha256}">\n${inner}\n</imported-file>`);
  }
  return blocks;
}

function resolveToken(token: string, fileAbsolute: string, homeDir: string): string {
  if (token === '~' || token.startsWith('~/')) return path.join(homeDir, token.slice(1));
  if (path.isAbsolute(token)) return path.normalize(token);
  return path.resolve(path.dirname(fileAbsolute), token);
}
