import { digestOfEntries } from './hash';
import { escapeAttribute, utf8Bytes } from '../formats/text';
import { revealSmuggling } from '../formats/unicode';
import type { RuleFile, RuleSelection, SelectedRule, UnselectedRule } from './types';

/**
 * Renders one file (seed §4.5): `<instruction-file path="REL" source="…" sha256="…"
 * [conditional="true"]>`, newline, content, newline, `</instruction-file>`. Attribute values
 * escape `& " < >`; the body is verbatim except that smuggling characters (TAG text, selector
 * payloads, bidi overrides and isolates, see `revealSmuggling`) are written as `⟨U+XXXX⟩`: the
 * catalog's content already is, and rendering makes sure of it.
 */
export function renderFile(selected: SelectedRule): string {
  const f = selected.file;
  let text = rendered.get(f);
  if (text === undefined) {
    const conditional = f.kind === 'conditional' ? ' conditional="true"' : '';
    text = `<instruction-file path="${escapeAttribute(f.relativePath)}" source="${f.source}" sha256="${f.sha256}"${conditional}>\n${revealSmuggling(f.content ?? '')}\n</instruction-file>`;
    rendered.set(f, text);
  }
  return text;
}

/**
 * Each file's rendering, made once: a catalog's files are deeply frozen, so it never changes, and
 * scanning the text for smuggling characters on every selection cost more than the selection.
 */
const rendered = new WeakMap<RuleFile, string>();

/**
 * Builds the resolution object of seed §4.5: files joined by a blank line inside `<tag attrs>`;
 * an empty selection renders as the empty string. `provenanceSha256` = SHA-256 over
 * `"<id>:<sha256>"` lines of the rendered files (SHA-256 of "" when none).
 */
export function buildSelection(
  tag: string,
  kept: readonly SelectedRule[],
  options: { triggerPaths?: readonly string[]; maxBytes: number | null; dropped?: readonly UnselectedRule[]; collapsed?: readonly UnselectedRule[] },
): RuleSelection {
  const triggerPaths = options.triggerPaths ?? [];
  const attr = options.triggerPaths && options.triggerPaths.length > 0 ? ` trigger-paths="${escapeAttribute(triggerPaths.join(','))}"` : '';
  const content = kept.length === 0 ? '' : `<${tag}${attr}>\n${kept.map(renderFile).join('\n\n')}\n</${tag}>`;
  const references = kept.map(({ file }) => Object.freeze({ id: file.id, relativePath: file.relativePath, source: file.source, sha256: file.sha256! }));
  return Object.freeze({
    content,
    files: Object.freeze([...kept]),
    references: Object.freeze(references),
    triggerPaths: Object.freeze([...triggerPaths]),
    contentBytes: utf8Bytes(content),
    bodyBytes: kept.reduce((sum, s) => sum + s.file.bodyBytes, 0),
    maxBytes: options.maxBytes,
    provenanceSha256: digestOfEntries(kept.map(({ file }) => file)),
    dropped: Object.freeze([...(options.dropped ?? [])]),
    collapsed: Object.freeze([...(options.collapsed ?? [])]),
  });
}
