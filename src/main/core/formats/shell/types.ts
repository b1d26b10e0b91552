/**
 * The shapes of a parsed shell command line: the script, its simple commands, their words (made of
 * literal, variable, substitution, tilde and dynamic parts), assignments and redirections. Built by
 * `parse.ts`, expanded by `expand.ts`.
 */

/**
 * A bash command line (or script) as the shell will run it, from tree-sitter-bash 0.25.1's syntax
 * tree: its simple commands in execution order, each with its words (structured, so a caller can
 * expand them exactly as bash would), assignments, redirections (heredocs and here-strings
 * included), where its standard input comes from in a pipeline, and which `cd`s are in effect.
 * Offsets are JavaScript string indices (UTF-16 code units) into the parsed text.
 */
export interface ShellScript {
  /** Every simple command, in source order, including those inside subshells, groups, functions, conditionals, loops, `$(...)`, backticks and `<(...)`. */
  commands: SimpleCommand[];
  /** Names of the functions the text defines (a call to one runs its body, which is in `commands`). */
  functions: string[];
  /** Spans the grammar could not parse (tree-sitter ERROR or MISSING nodes). */
  errors: Array<{ start: number; end: number }>;
  /** True when the text parsed without error. */
  ok: boolean;
}

/** One piece of a word. `quoted` pieces are not split and not globbed by the shell. */
export type WordPart =
  | { kind: 'literal'; text: string; quoted: boolean }
  /** `$NAME`, `${NAME}`, `${NAME:-word}`, `${NAME%/*}`, `$0`, `${BASH_SOURCE[0]}`: `op` is the operator (`:-`, `-`, `%`, ...) or null, `operand` its word. */
  | { kind: 'variable'; name: string; op: string | null; operand: Word | null; quoted: boolean; raw: string }
  /** `$(...)` or backticks: the commands it runs (also listed in {@link ShellScript.commands}). */
  | { kind: 'substitution'; commands: SimpleCommand[]; quoted: boolean; raw: string }
  /** `~` or `~user` at the start of a word. */
  | { kind: 'tilde'; user: string }
  /** Something whose value only the running shell knows: arithmetic, `<(...)`, `$'…'` with escapes, `${#x}`, array slices. */
  | { kind: 'dynamic'; what: string; quoted: boolean; raw: string };

/** A word of a command (program, argument, assignment value or redirection target). */
export interface Word {
  parts: WordPart[];
  /** The word exactly as written. */
  raw: string;
  start: number;
  end: number;
}

/** A redirection of a simple command (or of the compound command around it). */
export interface Redirect {
  /** `<`, `>`, `>>`, `&>`, `>&`, `<&`, `<>`, `>|`, `<<`, `<<-`, `<<<`. */
  op: string;
  /** The file descriptor written before the operator (`2>`), or null. */
  fd: string | null;
  /** The file (or descriptor) word; for `<<<` the string; null for heredocs. */
  target: Word | null;
  /** A heredoc's body text and whether the shell expands it (unquoted delimiter). */
  heredoc: { text: string; expands: boolean } | null;
  start: number;
  end: number;
}

/** One simple command: what the shell executes after expansion. */
export interface SimpleCommand {
  /** `NAME=value` words before the program (or alone, or of `export`/`local`/`declare`/`readonly`). */
  assignments: Array<{ name: string; value: Word | null; start: number; end: number }>;
  /** The program and its arguments (empty for a bare assignment or redirection). */
  words: Word[];
  /** Its own redirections, then those of the enclosing compound commands (outermost last). */
  redirects: Redirect[];
  /** Where standard input comes from: the index (in {@link ShellScript.commands}) of the previous command in a pipeline, `'unknown'` when that is a compound command, null when not piped. */
  stdinFrom: number | 'unknown' | null;
  /** Arguments of the `cd`/`pushd` commands in effect before this one, outermost first (relative ones chain). */
  cds: Word[];
  /** True when the working directory may differ from what `cds` says (a `cd` inside a branch, loop, function, `||`, `popd`, `cd -`). */
  cwdUncertain: boolean;
  /** True inside `$(...)`, backticks or `<(...)` (it runs, but its output feeds another word). */
  inSubstitution: boolean;
  /** True inside a function body (it runs only when the function is called). */
  inFunction: boolean;
  /** True when it may or may not run: inside `if`/`case`/loops, or right of `&&`/`||`. */
  conditional: boolean;
  /** True for a `declaration_command` (`export A=1`, `local`): the words are the builtin's name only. */
  declaration: boolean;
  start: number;
  end: number;
}
