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

/** Each file's (frozen) session reference, made once like its rendering. */
const references = new WeakMap<RuleFile, RuleSelection['references'][number]>();

function referenceOf(file: RuleFile): RuleSelection['references'][number] {
  let ref = references.get(file);
  if (ref === undefined) {
    ref = Object.freeze({ id: file.id, relativePath: file.relativePath, source: file.source, sha256: file.sha256! });
    references.set(file, ref);
  }
  return ref;
}

/**
 * `digestOfEntries` of the kept files, remembered along the sequence of files (a trie keyed by the
 * frozen file objects): the files of one folder usually select the same set, and both a SHA-256
 * object and hashing the digest's text cost more than following ~20 map links.
 */
function provenanceOf(kept: readonly SelectedRule[]): string {
  let node = provenanceRoot;
  for (let i = 0; i < kept.length; i++) {
    let next = node.next?.get(kept[i].file);
    if (next === undefined) {
      if (provenanceNodes >= PROVENANCE_MAX) {
        provenanceRoot = { next: null, digest: null };
        provenanceNodes = 0;
        return digestOfEntries(kept.map(({ file }) => file));
      }
      next = { next: null, digest: null };
      (node.next ??= new Map()).set(kept[i].file, next);
      provenanceNodes++;
    }
    node = next;
  }
  return (node.digest ??= digestOfEntries(kept.map(({ file }) => file)));
}

interface ProvenanceNode {
  next: Map<RuleFile, ProvenanceNode> | null;
  digest: string | null;
}

let provenanceRoot: ProvenanceNode = { next: null, digest: null };
let provenanceNodes = 0;
/** Most trie nodes kept (then it starts afresh); a node is one map entry. */
const PROVENANCE_MAX = 50_000;

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
  const references = kept.map(({ file }) => referenceOf(file));
  return Object.freeze({
    content,
    files: Object.freeze([...kept]),
    references: Object.freeze(references),
    triggerPaths: Object.freeze([...triggerPaths]),
    contentBytes,
    bodyBytes: kept.reduce((sum, s) => sum + s.file.bodyBytes, 0),
    maxBytes: options.maxBytes,
    provenanceSha256: provenanceOf(kept),
    dropped: Object.freeze([...(options.dropped ?? [])]),
    collapsed: Object.freeze([...(options.collapsed ?? [])]),
  });
}
