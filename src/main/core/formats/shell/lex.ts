/**
 * A small POSIX-shell lexer, enough to see what a hook command runs: words after quote removal
 * (with chosen variables expanded outside single quotes), control operators, redirections, and the
 * text of `$(...)` / backtick substitutions. It never executes anything and never throws; `ok` is
 * false when quotes or substitutions are unbalanced (callers then fail open or closed as their
 * semantics say).
 *
 * Why a lexer beside the tree-sitter grammar (`parse.ts`): it is synchronous and needs no WASM
 * parser, so the danger checks of a hook or MCP command stay plain functions; its unbalanced-quote
 * answer (`ok: false`) is the fail-closed signal their tests pin. It does not know bash's reserved
 * words (`{`, `then`, `!`, `time`), so what a text runs — a hook's `if: "Bash(...)"`, the coverage
 * analysis — is read with the grammar (`argv.ts`, `parse.ts`).
 */

/** One lexed item: a word or an operator (`|`, `||`, `&&`, `;`, `&`, newline, `(`, `)`, or a redirection like `>`, `2>>`, `<`). */
export type ShellItem = { kind: 'word'; text: string; hasSubstitution: boolean } | { kind: 'op'; text: string };

/** A word item of {@link ShellItem}. */
export type ShellWord = Extract<ShellItem, { kind: 'word' }>;

/** Result of {@link lexShell}. */
export interface ShellLex {
  items: ShellItem[];
  /** Inner text of every `$(...)` and backtick substitution (not lexed further here). */
  substitutions: string[];
  ok: boolean;
}

const OPERATORS = ['&&', '||', ';;', '>>', '&>', '>&', '<<', '|', ';', '&', '\n', '(', ')', '<', '>'];

/**
 * Lexes `command`. `expand(name)` returns a variable's value, or undefined to leave `$NAME`
 * verbatim; it is applied to `$NAME` and `${NAME}` outside single quotes. A `~` starting a word
 * (followed by `/` or the end) is replaced by `expand('HOME')` when that is defined.
 */
export function lexShell(command: string, expand: (name: string) => string | undefined = () => undefined): ShellLex {
  const items: ShellItem[] = [];
  const substitutions: string[] = [];
  let ok = true;
  let word = '';
  let inWord = false;
  let hasSubstitution = false;
  const flush = () => {
    if (inWord) items.push({ kind: 'word', text: word, hasSubstitution });
    word = '';
    inWord = false;
    hasSubstitution = false;
  };
  let i = 0;
  const n = command.length;
  const readVar = (): boolean => {
    // at command[i] === '$'
    const rest = command.slice(i + 1);
    const braced = /^\{([A-Za-z_][A-Za-z0-9_]*)\}/.exec(rest);
    const plain = braced ? null : /^([A-Za-z_][A-Za-z0-9_]*)/.exec(rest);
    const m = braced ?? plain;
    if (!m) return false;
    const value = expand(m[1]);
    word += value ?? `$${m[0]}`;
    if (value === undefined) hasSubstitution = true;
    inWord = true;
    i += 1 + m[0].length;
    return true;
  };
  const readSubstitution = (): void => {
    // at "$(" : find the matching ")"
    let depth = 1;
    let j = i + 2;
    let quote: string | null = null;
    while (j < n && depth > 0) {
      const c = command[j];
      if (quote) {
        if (c === '\\' && quote === '"') j++;
        else if (c === quote) quote = null;
      } else if (c === "'" || c === '"') quote = c;
      else if (c === '\\') j++;
      else if (c === '(') depth++;
      else if (c === ')') depth--;
      j++;
    }
    if (depth !== 0) ok = false;
    substitutions.push(command.slice(i + 2, depth === 0 ? j - 1 : n));
    word += command.slice(i, j);
    inWord = true;
    hasSubstitution = true;
    i = j;
  };
  const readBacktick = (): void => {
    const end = command.indexOf('`', i + 1);
    if (end === -1) ok = false;
    substitutions.push(command.slice(i + 1, end === -1 ? n : end));
    word += command.slice(i, end === -1 ? n : end + 1);
    inWord = true;
    hasSubstitution = true;
    i = end === -1 ? n : end + 1;
  };

  while (i < n) {
    const c = command[i];
    if (c === '\\') {
      if (command[i + 1] === '\n') {
        i += 2;
        continue;
      }
      word += command[i + 1] ?? '';
      inWord = true;
      i += 2;
      continue;
    }
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end === -1) ok = false;
      word += command.slice(i + 1, end === -1 ? n : end);
      inWord = true;
      i = end === -1 ? n : end + 1;
      continue;
    }
    if (c === '"') {
      inWord = true;
      i++;
      let closed = false;
      while (i < n) {
        const d = command[i];
        if (d === '"') {
          closed = true;
          i++;
          break;
        }
        if (d === '\\' && i + 1 < n && '"\\$`\n'.includes(command[i + 1])) {
          word += command[i + 1];
          i += 2;
        } else if (d === '$' && command[i + 1] === '(') readSubstitution();
        else if (d === '`') readBacktick();
        else if (d === '$' && readVar()) continue;
        else {
          word += d;
          i++;
        }
      }
      if (!closed) ok = false;
      continue;
    }
    if (c === '$' && command[i + 1] === '(') {
      readSubstitution();
      continue;
    }
    if (c === '`') {
      readBacktick();
      continue;
    }
    if (c === '$' && readVar()) continue;
    if (c === '~' && !inWord && (i + 1 === n || command[i + 1] === '/' || /\s/.test(command[i + 1]))) {
      const home = expand('HOME');
      word += home ?? '~';
      inWord = true;
      i++;
      continue;
    }
    if (c === '#' && !inWord) {
      const end = command.indexOf('\n', i);
      i = end === -1 ? n : end;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      flush();
      i++;
      continue;
    }
    // a file-descriptor number right before a redirection belongs to the operator ("2>", "2>&1")
    if ((c === '>' || c === '<') && inWord && /^\d+$/.test(word)) {
      const digits = word;
      word = '';
      inWord = false;
      const op = OPERATORS.find((o) => command.startsWith(o, i))!;
      items.push({ kind: 'op', text: digits + op });
      i += op.length;
      continue;
    }
    const op = OPERATORS.find((o) => command.startsWith(o, i));
    if (op) {
      flush();
      items.push({ kind: 'op', text: op });
      i += op.length;
      continue;
    }
    word += c;
    inWord = true;
    i++;
  }
  flush();
  return { items, substitutions, ok };
}

/** True for a redirection operator (`>`, `>>`, `<`, `2>`, `&>`, `>&` ...): the next word is a file, not something executed. */
export function isRedirection(op: string): boolean {
  return /^\d*(>>?|<<?|&>|>&)$/.test(op);
}

/** True for an operator that ends a simple command (`|`, `&&`, `;`, newline, ...). */
export function isCommandSeparator(op: string): boolean {
  return op === '|' || op === '||' || op === '&&' || op === ';' || op === ';;' || op === '&' || op === '\n' || op === '(' || op === ')';
}
