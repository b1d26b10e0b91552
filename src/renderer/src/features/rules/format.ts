/** "812 B", "4.2 KiB", "1.3 MiB". */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * Invisible and bidi characters written as `⟨U+XXXX⟩`, so a rule's text shown in the DOM can
 * never be reordered or carry hidden text, and a reader sees every character an agent gets:
 * bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), bidi marks (LRM, RLM,
 * ALM), zero-width characters (ZWSP, ZWNJ, word joiner, invisible operators, mid-text BOM), other
 * format characters, C0/C1 controls other than tab and newline, and TAG characters. A zero-width
 * joiner between two emoji (👩‍💻) is kept: it draws one emoji and hides nothing. The engine already
 * reveals the smuggling class for every text it hands out (`revealSmuggling`); this is the
 * renderer's guard for the views that show a file's text, extended to the characters the engine
 * loads unchanged because they are harmless to agents but still invisible to a reader.
 */
export function showControls(text: string): string {
  return text.replace(INVISIBLE, (c, offset: number, whole: string) => {
    if (c === '\u200D' && EMOJI_BEFORE.test(whole.slice(Math.max(0, offset - 4), offset)) && EMOJI_AFTER.test(whole.slice(offset + 1, offset + 4))) return c;
    return `⟨U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`;
  });
}

const INVISIBLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF\uFFF9-\uFFFB\u{E0000}-\u{E007F}]/gu;
const EMOJI_BEFORE = /\p{Extended_Pictographic}(?:\uFE0F|[\u{1F3FB}-\u{1F3FF}])?$/u;
const EMOJI_AFTER = /^\p{Extended_Pictographic}/u;

/** A HAST node, as much of it as {@link rehypeShowControls} reads. */
interface HastNode {
  type: string;
  value?: string;
  children?: HastNode[];
}

/**
 * A rehype plugin for react-markdown: every text node of the rendered tree goes through
 * {@link showControls}. Markdown decodes character references (`&#x202E;`) while parsing, so a
 * source that spells a bidi override that way only becomes one here.
 */
export function rehypeShowControls() {
  const walk = (node: HastNode) => {
    if (node.type === 'text' && typeof node.value === 'string') node.value = showControls(node.value);
    node.children?.forEach(walk);
  };
  return (tree: HastNode) => walk(tree);
}
