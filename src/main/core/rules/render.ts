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
    renderedBytes.set(f, utf8Bytes(text));
  }
  return text;
}

/**
 * Each file's rendering, made once: a catalog's files are deeply frozen, so it never changes, and
 * scanning the text for smuggling characters on every selection cost more than the selection.
 */
const rendered = new WeakMap<RuleFile, string>();
/** UTF-8 byte length of each file's rendering. */
const renderedBytes = new WeakMap<RuleFile, number>();

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
  // Concatenated rather than joined (V8 keeps a rope, no copy of every body per call) and measured
  // part by part: every boundary has a newline on one side, so no UTF-16 pair spans two parts and
  // the sum is the byte length of the whole.
  let content = '';
  let contentBytes = 0;
  if (kept.length > 0) {
    const head = `<${tag}${attr}>\n`;
    const tail = `\n</${tag}>`;
    content = head;
    contentBytes = utf8Bytes(head) + utf8Bytes(tail) + 2 * (kept.length - 1);
    for (let i = 0; i < kept.length; i++) {
      if (i > 0) content += '\n\n';
      content += renderFile(kept[i]);
      contentBytes += renderedBytes.get(kept[i].file)!;
    }
    content += tail;
  }
  const references = kept.map(({ file }) => Object.freeze({ id: file.id, relativePath: file.relativePath, source: file.source, sha256: file.sha256! }));
  return Object.freeze({
    content,
    files: Object.freeze([...kept]),
    references: Object.freeze(references),
    triggerPaths: Object.freeze([...triggerPaths]),
    contentBytes,
    bodyBytes: kept.reduce((sum, s) => sum + s.file.bodyBytes, 0),
    maxBytes: options.maxBytes,
    provenanceSha256: digestOfEntries(kept.map(({ file }) => file)),
    dropped: Object.freeze([...(options.dropped ?? [])]),
    collapsed: Object.freeze([...(options.collapsed ?? [])]),
  });
}
