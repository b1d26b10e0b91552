/**
 * Splits typed arguments into words the way Claude Code's indexed arguments do (formats.md §2.8:
 * "Indexed args use shell-style quoting"): whitespace separates words, `'…'` and `"…"` group, a
 * backslash escapes the next character outside single quotes. Nothing is expanded: `$HOME`,
 * `` `cmd` `` and `;` are ordinary characters. Never throws (an unclosed quote runs to the end).
 */
export function splitArguments(input: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < input.length; i++) {
    const c = input[i];
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && (input[i + 1] === '"' || input[i + 1] === '\\')) word += input[++i];
      else word += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < input.length) {
      word += input[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/**
 * Substitutes arguments into template text (Claude Code semantics, formats.md §2.8–2.9):
 * `$ARGUMENTS` = the arguments as typed; `$ARGUMENTS[N]` and `$N` = the N-th word, **0-based**;
 * an `$N` without a value stays literal; `\$` escapes a dollar. A skill's named arguments
 * (`names`, its frontmatter `arguments`) map to the words in order: `$<name>` = the word at the
 * name's index, or empty when there is none (formats.md §2.8 "unmatched `$name` → empty"); any
 * other `$word` stays literal. Replacement is literal: a value such as `$&` or `$1` is inserted as
 * is and never interpreted again.
 */
export function substituteArguments(text: string, args: readonly string[], argumentText: string, names: readonly string[] = []): { text: string; used: boolean } {
  let used = false;
  const pattern = names.length ? /\\\$|\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS|\$(\d+)|\$([A-Za-z_]\w*)/g : /\\\$|\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS|\$(\d+)/g;
  const out = text.replace(pattern, (match: string, indexed: string | undefined, positional: string | undefined, named: unknown) => {
    if (match === '\\$') return '$';
    if (typeof named === 'string') {
      const at = names.indexOf(named);
      if (at < 0) return match;
      used = true;
      return at < args.length ? args[at] : '';
    }
    used = true;
    if (indexed === undefined && positional === undefined) return argumentText;
    const n = Number(indexed ?? positional);
    return n < args.length ? args[n] : match;
  });
  return { text: out, used };
}
