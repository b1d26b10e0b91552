/**
 * The `Bash(...)` permission rule of a hook's `if`, matched the way Claude Code 2.1.318 matches it
 * (its Bash tool's permission matcher: the simple commands of the parsed text, each as its words
 * joined by spaces, against the wildcard matcher its permission rules share), and made safe for
 * guard hooks: every command a bash text runs is checked, also after the process wrappers Claude
 * Code's own deny rules look through and inside `bash -c` / `eval` scripts.
 */
import type { Parser } from 'web-tree-sitter';
import { commandArgvs, scriptArgument, unwrappedForms, type ArgWord } from '../formats/shell/argv';
import { parseShellSync } from '../formats/shell/parse';

/** A token of a rule pattern or of a command: one character, or `*` (any text, in a rule) / a hole (any text, in a command). */
type Token = string | typeof ANY;
const ANY = Symbol('any');

/**
 * The alternatives a Bash rule's content stands for, as Claude Code reads it (code.claude.com
 * permissions "Wildcard patterns": "The space before `*` matters: `Bash(ls *)` matches `ls -la` but not
 * `lsof`"; `:*` "is an equivalent way to write a trailing wildcard"), checked against its source:
 * - `prefix:*` (legacy): the command is `prefix` or starts with `prefix ` (a word boundary); a `*`
 *   inside the prefix is literal (anthropics/claude-code#56871);
 * - a text with an unescaped `*`: `*` is any text (spaces included), `\*` a literal star, `\\` a
 *   backslash, `/**\/` also matches `/`; one trailing ` *` as the only star is optional, so
 *   `git stash *` matches `git stash` and `git stash pop` but not `git stashfoo`;
 * - anything else: the exact command.
 * Whitespace runs count as one space and the rule is trimmed.
 */
export function bashRuleAlternatives(content: string): Token[][] {
  const prefix = /^(.+):\*$/s.exec(content);
  if (prefix) {
    const p = [...normalizeSpaces(prefix[1])];
    return [p, [...p, ' ', ANY]];
  }
  const text = normalizeSpaces(content.trim());
  const tokens: Token[] = [];
  let stars = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && (text[i + 1] === '*' || text[i + 1] === '\\')) {
      tokens.push(text[++i]);
    } else if (c === '*') {
      tokens.push(ANY);
      stars++;
    } else tokens.push(c);
  }
  let alternatives = globstars(tokens);
  if (stars === 1) alternatives = alternatives.flatMap((t) => (t.length >= 2 && t[t.length - 1] === ANY && t[t.length - 2] === ' ' ? [t.slice(0, -2), t] : [t]));
  return alternatives;
}

/** `/**\/` (one or more `**\/` after a slash) matches `/` or `/…/` (Claude Code's globstar rewrite); at most 16 alternatives. */
function globstars(tokens: Token[]): Token[][] {
  let out: Token[][] = [[]];
  for (let i = 0; i < tokens.length; i++) {
    const isGlobstar = (j: number) => tokens[j] === ANY && tokens[j + 1] === ANY && tokens[j + 2] === '/';
    if (tokens[i] === '/' && isGlobstar(i + 1)) {
      let j = i + 1;
      while (isGlobstar(j)) j += 3;
      out = out.length >= 16 ? out.map((t) => [...t, '/', ANY, '/']) : out.flatMap((t) => [[...t, '/'], [...t, '/', ANY, '/']]);
      i = j - 1;
      continue;
    }
    for (const t of out) t.push(tokens[i]);
  }
  return out;
}

function normalizeSpaces(s: string): string {
  return s.replace(/[ \t]+/g, ' ');
}

/**
 * A command as Claude Code joins it for matching (`argv.join(" ")`, whitespace runs as one space),
 * with each hole as "any text". Next to a hole the separating space is dropped: the hole may
 * supply it, or expand to nothing, or to several words.
 */
function commandTokens(argv: ArgWord[]): Token[] {
  const out: Token[] = [];
  argv.forEach((word, i) => {
    const startsUnknown = word.length > 0 && !('text' in word[0]);
    const prevEndsUnknown = i > 0 && argv[i - 1].length > 0 && !('text' in argv[i - 1][argv[i - 1].length - 1]);
    if (i > 0 && !startsUnknown && !prevEndsUnknown) out.push(' ');
    for (const p of word) {
      if ('text' in p) out.push(...p.text);
      else if (out[out.length - 1] !== ANY) out.push(ANY);
    }
  });
  // whitespace runs are one space (Claude Code normalises the joined command)
  const merged: Token[] = [];
  for (const t of out) {
    const s = t === '\t' ? ' ' : t;
    if (s === ' ' && merged[merged.length - 1] === ' ') continue;
    merged.push(s);
  }
  return merged;
}

/**
 * True when some text is both an instance of `rule` (`ANY` = any text) and of `command` (`ANY` =
 * a hole, any text): a search over pairs of positions. Without holes this is plain anchored
 * wildcard matching.
 */
function intersects(rule: Token[], command: Token[]): boolean {
  const width = command.length + 1;
  const seen = new Uint8Array((rule.length + 1) * width);
  const stack: number[] = [0];
  seen[0] = 1;
  const visit = (i: number, j: number) => {
    const k = i * width + j;
    if (!seen[k]) {
      seen[k] = 1;
      stack.push(k);
    }
  };
  while (stack.length) {
    const k = stack.pop()!;
    const i = Math.floor(k / width);
    const j = k % width;
    if (i === rule.length && j === command.length) return true;
    const r = rule[i];
    const c = command[j];
    if (r === ANY) visit(i + 1, j);
    if (c === ANY) visit(i, j + 1);
    if (i < rule.length && j < command.length) {
      if (r === ANY && c !== ANY) visit(i, j + 1);
      else if (c === ANY && r !== ANY) visit(i + 1, j);
      else if (r === c) visit(i + 1, j + 1);
    }
  }
  return false;
}

/** Largest rule × command product searched; beyond it a command is taken to match (fails open). */
const MAX_SEARCH = 4_000_000;

/**
 * True when the Bash `command` matches the rule content of `Bash(content)` for a hook's `if`:
 * some simple command it runs (anywhere: `a && b`, `;`, `|`, `||`, newlines, `&`, subshells,
 * groups, `if`/`case`/loops, function bodies, `$(...)`, backticks, `<(...)`, unquoted heredocs),
 * read as bash reads it (leading `NAME=value` assignments and redirections left out, quotes and
 * backslashes removed, `\` + newline joined), matches the rule, either as written or with leading
 * process wrappers removed (`env A=1`, `timeout 5`, `nice`, `nohup`, `time`, `command`, `builtin`,
 * `exec`, `sudo`, `xargs`, ... — see `unwrappedForms`) or with a path-qualified program named
 * bare. The scripts it hands to `bash -c` / `sh -c` and `eval` are read the same way (Claude Code
 * does not; an agent may wrap every command in `bash -lc`). A word whose value only the shell
 * knows (`$X`, `$(…)`, `~`, `{a,b}`, unquoted globs) matches any text. The command fails open
 * (matches) when it cannot be parsed (unbalanced quotes, a grammar error, no parser), hands a
 * shell a script only the shell knows (`bash -c "$X"`), or is too long to search, as Claude Code's
 * matcher does for what it cannot analyse.
 */
export function bashRuleMatches(content: string, command: string, parser: Parser | null): boolean {
  if (parser === null) return true;
  const forms = commandForms(command, parser);
  if (forms === null) return true;
  const alternatives = bashRuleAlternatives(content);
  for (const tokens of forms) {
    for (const rule of alternatives) {
      if ((rule.length + 1) * (tokens.length + 1) > MAX_SEARCH) return true;
      if (intersects(rule, tokens)) return true;
    }
  }
  return false;
}

/** The last command read, so the hooks of one tool call parse it once. */
let lastRead: { parser: Parser; command: string; forms: Token[][] | null } | null = null;

/**
 * Every command form of `command` as tokens (all simple commands, each unwrapped, and those of the
 * scripts it hands to `bash -c` or `eval`, up to 4 deep), or null when it cannot be parsed or runs
 * a script only the shell knows (`bash -c "$X"`).
 */
function commandForms(command: string, parser: Parser): Token[][] | null {
  if (lastRead?.parser === parser && lastRead.command === command) return lastRead.forms;
  const forms = readForms(command, parser, 0);
  lastRead = { parser, command, forms };
  return forms;
}

function readForms(command: string, parser: Parser, depth: number): Token[][] | null {
  if (depth > 4) return null;
  // bash joins a line continuation before it splits words; the grammar keeps `pu\<newline>sh` as two words
  const texts = command.includes('\\\n') ? [command, command.replace(/\\\n/g, '')] : [command];
  const forms: Token[][] = [];
  for (const text of texts) {
    const script = parseShellSync(parser, text);
    if (!script.ok) return null;
    for (const argv of commandArgvs(script)) {
      for (const form of unwrappedForms(argv)) {
        forms.push(commandTokens(form));
        const inner = scriptArgument(form);
        if (inner === null) continue;
        if (!('text' in inner)) return null;
        const nested = readForms(inner.text, parser, depth + 1);
        if (nested === null) return null;
        forms.push(...nested);
      }
    }
  }
  return forms;
}
