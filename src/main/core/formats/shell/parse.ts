/**
 * Commands of a bash text as the shell will run them (see {@link ShellScript}), from
 * tree-sitter-bash's syntax tree: the walk over statements that threads the `cd` state, pipelines
 * and conditionals, and the conversion of word nodes into {@link Word}s. The shapes are in
 * `types.ts`, quote removal in `words.ts`.
 */
import type { Node, Parser } from 'web-tree-sitter';
import { bashParser } from './grammar';
import type { Redirect, ShellScript, SimpleCommand, Word, WordPart } from './types';
import { literalText, mergeLiterals, unescapeDouble, unquotedWord } from './words';

interface WalkState {
  cds: Word[];
  uncertain: boolean;
  inSubstitution: boolean;
  inFunction: boolean;
  conditional: boolean;
  redirects: Redirect[];
  stdinFrom: number | 'unknown' | null;
}

/**
 * Parses `text` with the bash grammar. Asynchronous only the first time (the grammar is loaded
 * once); use {@link parseShellSync} with a parser from `bashParser()` in a loop. Never throws for
 * bad input: what cannot be parsed is in `errors`.
 */
export async function parseShell(text: string): Promise<ShellScript> {
  return parseShellSync(await bashParser(), text);
}

/** Longest a parse may take before it is cancelled (hostile input can make error recovery slow). */
export const PARSE_TIME_LIMIT_MS = 2000;

/**
 * {@link parseShell} with an already loaded parser. A parse cancelled after
 * {@link PARSE_TIME_LIMIT_MS} is one error over the whole text; text with a NUL byte is not parsed
 * (one error from the NUL on).
 */
export function parseShellSync(parser: Parser, text: string): ShellScript {
  const out: ShellScript = { commands: [], functions: [], errors: [], ok: true };
  // bash stops reading a script at a NUL byte's line; the grammar's error recovery on NULs is quadratic
  const nul = text.indexOf('\0');
  if (nul !== -1) {
    out.ok = false;
    out.errors.push({ start: nul, end: text.length });
    return out;
  }
  const deadline = Date.now() + PARSE_TIME_LIMIT_MS;
  const tree = parser.parse(text, null, { progressCallback: () => Date.now() > deadline });
  if (!tree) {
    out.ok = false;
    out.errors.push({ start: 0, end: text.length });
    return out;
  }
  try {
    const w = new Walker(text, out);
    w.statements(tree.rootNode, { cds: [], uncertain: false, inSubstitution: false, inFunction: false, conditional: false, redirects: [], stdinFrom: null });
    collectErrors(tree.rootNode, out.errors);
    out.ok = out.errors.length === 0;
  } finally {
    tree.delete();
  }
  return out;
}

function collectErrors(node: Node, errors: Array<{ start: number; end: number }>): void {
  if (!node.hasError && !node.isMissing) return;
  if (node.isError || node.isMissing) {
    errors.push({ start: node.startIndex, end: node.endIndex });
    return;
  }
  for (const c of node.children) if (c) collectErrors(c, errors);
}

const STATEMENT_TYPES = new Set([
  'command', 'pipeline', 'list', 'subshell', 'compound_statement', 'redirected_statement', 'negated_command', 'if_statement', 'while_statement',
  'for_statement', 'c_style_for_statement', 'case_statement', 'function_definition', 'declaration_command', 'variable_assignment', 'variable_assignments',
  'test_command', 'unset_command', 'ERROR',
]);

class Walker {
  constructor(private readonly text: string, private readonly out: ShellScript) {}

  /** Walks the statements below `node` in order, threading the `cd` state; returns it. */
  statements(node: Node, st: WalkState): WalkState {
    let cur = st;
    for (const c of node.namedChildren) {
      if (!c) continue;
      if (STATEMENT_TYPES.has(c.type)) cur = this.statement(c, cur);
      else this.words(c, cur); // stray words/expansions (inside ERROR, do_group...) still run substitutions
    }
    return cur;
  }

  statement(node: Node, st: WalkState): WalkState {
    switch (node.type) {
      case 'command':
        return this.command(node, st);
      case 'declaration_command':
        return this.declaration(node, st);
      case 'variable_assignment':
      case 'variable_assignments': {
        const assignments = node.type === 'variable_assignment' ? [this.assignment(node, st)] : node.namedChildren.filter((c): c is Node => c?.type === 'variable_assignment').map((c) => this.assignment(c, st));
        this.push({ assignments, words: [], declaration: false, node, st });
        return st;
      }
      case 'pipeline': {
        let prev: number | 'unknown' | null = st.stdinFrom;
        for (const c of node.namedChildren) {
          if (!c || !STATEMENT_TYPES.has(c.type)) continue;
          const before = this.out.commands.length;
          // each element of a pipeline runs in a subshell: its cd does not persist
          this.statement(c, { ...st, stdinFrom: prev });
          const last = this.out.commands.length - 1;
          prev = bareCommand(c) && last >= before ? lastTopLevel(this.out.commands, before) : 'unknown';
        }
        return st;
      }
      case 'list': {
        let cur = st;
        let afterOr = false;
        for (let i = 0; i < node.childCount; i++) {
          const c = node.child(i);
          if (!c) continue;
          if (!c.isNamed) {
            afterOr = c.type === '||';
            continue;
          }
          if (!STATEMENT_TYPES.has(c.type)) continue;
          const next = this.statement(c, i === 0 ? cur : { ...cur, conditional: true });
          // a cd that runs only when the command before it failed leaves the directory unknown
          cur = { ...(afterOr && next.cds !== cur.cds ? { ...cur, uncertain: true } : next), conditional: st.conditional };
        }
        return cur;
      }
      case 'subshell':
        this.statements(node, st);
        return st;
      case 'compound_statement':
        return this.statements(node, st);
      case 'redirected_statement': {
        const body = node.childForFieldName('body');
        const redirects = node.namedChildren.filter((c): c is Node => !!c && c !== body && /redirect$/.test(c.type)).map((r) => this.redirect(r, st));
        // a heredoc's body follows the command; its expansions (substitutions) run too
        if (!body) return st;
        if (body.type === 'command') return this.command(body, st, redirects);
        return this.statement(body, { ...st, redirects: [...redirects, ...st.redirects] });
      }
      case 'negated_command':
        return this.statements(node, st);
      case 'function_definition': {
        const name = node.childForFieldName('name');
        if (name) this.out.functions.push(name.text);
        const body = node.childForFieldName('body');
        if (body) {
          const inner = this.statement(body, { ...st, inFunction: true });
          if (inner.cds !== st.cds || inner.uncertain) return { ...st, uncertain: true };
        }
        return st;
      }
      case 'if_statement':
      case 'while_statement':
      case 'for_statement':
      case 'c_style_for_statement':
      case 'case_statement': {
        const inner = this.branches(node, st);
        return inner ? { ...st, uncertain: true } : st;
      }
      default:
        this.statements(node, st);
        return st;
    }
  }

  /** Walks a conditional or loop; true when a `cd` inside may have changed the directory. */
  private branches(node: Node, st: WalkState): boolean {
    let changed = false;
    st = { ...st, conditional: true };
    const visit = (n: Node) => {
      for (const c of n.namedChildren) {
        if (!c) continue;
        if (STATEMENT_TYPES.has(c.type)) {
          const r = this.statement(c, st);
          if (r.cds !== st.cds || r.uncertain !== st.uncertain) changed = true;
        } else if (['do_group', 'else_clause', 'elif_clause', 'case_item'].includes(c.type)) visit(c);
        else this.words(c, st);
      }
    };
    visit(node);
    return changed;
  }

  private push(p: { assignments: SimpleCommand['assignments']; words: Word[]; redirects?: Redirect[]; declaration: boolean; node: Node; st: WalkState }): number {
    const cmd: SimpleCommand = {
      assignments: p.assignments,
      words: p.words,
      redirects: [...(p.redirects ?? []), ...p.st.redirects],
      stdinFrom: p.st.stdinFrom,
      cds: p.st.cds,
      cwdUncertain: p.st.uncertain,
      inSubstitution: p.st.inSubstitution,
      inFunction: p.st.inFunction,
      conditional: p.st.conditional,
      declaration: p.declaration,
      start: p.node.startIndex,
      end: p.node.endIndex,
    };
    this.out.commands.push(cmd);
    return this.out.commands.length - 1;
  }

  private command(node: Node, st: WalkState, outer: Redirect[] = []): WalkState {
    const assignments: SimpleCommand['assignments'] = [];
    const words: Word[] = [];
    const redirects: Redirect[] = [...outer];
    // substitutions in the words run before the command: collecting the words first pushes those commands first
    for (const c of node.namedChildren) {
      if (!c) continue;
      if (c.type === 'variable_assignment') assignments.push(this.assignment(c, st));
      else if (/redirect$/.test(c.type)) redirects.push(this.redirect(c, st));
      else if (c.type === 'command_name') {
        const inner = c.namedChild(0);
        words.push(this.word(inner ?? c, st));
      } else if (c.type === 'subshell' || c.type === 'compound_statement') this.statement(c, st);
      else words.push(this.word(c, st));
    }
    this.push({ assignments, words, redirects, declaration: false, node, st });
    const program = words[0] ? literalText(words[0]) : null;
    if (program === 'cd' || program === 'pushd') {
      const args = words.slice(1).filter((w) => !/^-[LPe@]+$/.test(literalText(w) ?? ''));
      const target = args[0];
      if (!target) return { ...st, cds: [...st.cds, { parts: [{ kind: 'tilde', user: '' }], raw: '~', start: node.endIndex, end: node.endIndex }] };
      if (literalText(target) === '-') return { ...st, uncertain: true };
      return { ...st, cds: [...st.cds, target] };
    }
    if (program === 'popd') return { ...st, uncertain: true };
    return st;
  }

  private declaration(node: Node, st: WalkState): WalkState {
    const assignments: SimpleCommand['assignments'] = [];
    const words: Word[] = [];
    for (let i = 0; i < node.childCount; i++) {
      const c = node.child(i);
      if (!c) continue;
      if (!c.isNamed) {
        if (i === 0) words.push({ parts: [{ kind: 'literal', text: c.text, quoted: false }], raw: c.text, start: c.startIndex, end: c.endIndex });
        continue;
      }
      if (c.type === 'variable_assignment') assignments.push(this.assignment(c, st));
      else words.push(this.word(c, st));
    }
    this.push({ assignments, words, declaration: true, node, st });
    return st;
  }

  private assignment(node: Node, st: WalkState): SimpleCommand['assignments'][number] {
    const name = node.childForFieldName('name');
    const value = node.childForFieldName('value');
    return { name: name?.text ?? '', value: value ? this.word(value, st) : null, start: node.startIndex, end: node.endIndex };
  }

  private redirect(node: Node, st: WalkState): Redirect {
    const fd = node.childForFieldName('descriptor');
    let op = '';
    for (const c of node.children) if (c && !c.isNamed) op ||= c.type;
    if (node.type === 'heredoc_redirect') {
      const start = node.namedChildren.find((c) => c?.type === 'heredoc_start');
      const body = node.namedChildren.find((c) => c?.type === 'heredoc_body');
      const expands = !!start && !/['"\\]/.test(start.text);
      // expansions of an unquoted heredoc run their substitutions
      if (body && expands) this.words(body, st);
      return { op: op || '<<', fd: fd?.text ?? null, target: null, heredoc: { text: body?.text ?? '', expands }, start: node.startIndex, end: node.endIndex };
    }
    const dest = node.childForFieldName('destination') ?? node.namedChildren.find((c) => c && c !== fd) ?? null;
    return { op: op || (node.type === 'herestring_redirect' ? '<<<' : '>'), fd: fd?.text ?? null, target: dest ? this.word(dest, st) : null, heredoc: null, start: node.startIndex, end: node.endIndex };
  }

  /** Walks a non-statement node only for the substitutions it contains. */
  private words(node: Node, st: WalkState): void {
    if (node.type === 'command_substitution' || node.type === 'process_substitution') {
      this.statements(node, { ...st, inSubstitution: true, stdinFrom: null, redirects: [] });
      return;
    }
    if (STATEMENT_TYPES.has(node.type)) {
      this.statement(node, st);
      return;
    }
    for (const c of node.namedChildren) if (c) this.words(c, st);
  }

  /** Converts a word-like node to a {@link Word}, pushing the commands of its substitutions. */
  word(node: Node, st: WalkState): Word {
    const parts: WordPart[] = [];
    this.parts(node, st, false, parts, true);
    return { parts: mergeLiterals(parts), raw: node.text, start: node.startIndex, end: node.endIndex };
  }

  private parts(node: Node, st: WalkState, quoted: boolean, out: WordPart[], first: boolean): void {
    const sub = { ...st, inSubstitution: true, stdinFrom: null, redirects: [] };
    switch (node.type) {
      case 'word':
      case 'number':
      case 'variable_name':
      case 'file_descriptor':
      case 'extglob_pattern':
      case 'regex':
      case 'special_variable_name':
        unquotedWord(node.text, first && !quoted, out, quoted);
        return;
      case 'raw_string':
        out.push({ kind: 'literal', text: node.text.slice(1, -1), quoted: true });
        return;
      case 'ansi_c_string': {
        const inner = node.text.slice(2, -1);
        if (inner.includes('\\')) out.push({ kind: 'dynamic', what: "$'…' escapes", quoted: true, raw: node.text });
        else out.push({ kind: 'literal', text: inner, quoted: true });
        return;
      }
      case 'string':
      case 'translated_string': {
        const inner = node.type === 'translated_string' ? node.namedChild(0) : node;
        if (!inner) return;
        let at = inner.startIndex + 1;
        const end = inner.endIndex - 1;
        for (const c of inner.namedChildren) {
          if (!c) continue;
          if (c.startIndex > at) out.push({ kind: 'literal', text: unescapeDouble(this.text.slice(at, c.startIndex)), quoted: true });
          if (c.type === 'string_content') out.push({ kind: 'literal', text: unescapeDouble(c.text), quoted: true });
          else this.parts(c, st, true, out, false);
          at = c.endIndex;
        }
        if (end > at) out.push({ kind: 'literal', text: unescapeDouble(this.text.slice(at, end)), quoted: true });
        if (inner.namedChildren.length === 0 && end >= at) out.push({ kind: 'literal', text: '', quoted: true });
        return;
      }
      case 'concatenation': {
        let i = 0;
        for (const c of node.children) {
          if (!c) continue;
          this.parts(c, st, quoted, out, first && i === 0);
          i++;
        }
        return;
      }
      case 'simple_expansion': {
        const name = node.namedChild(0)?.text ?? node.text.slice(1);
        out.push({ kind: 'variable', name, op: null, operand: null, quoted, raw: node.text });
        return;
      }
      case 'expansion':
        out.push(this.expansion(node, st, quoted));
        return;
      case 'command_substitution': {
        const before = this.out.commands.length;
        this.statements(node, sub);
        out.push({ kind: 'substitution', commands: this.out.commands.slice(before), quoted, raw: node.text });
        return;
      }
      case 'process_substitution':
        this.statements(node, sub);
        out.push({ kind: 'dynamic', what: 'process substitution', quoted, raw: node.text });
        return;
      case 'arithmetic_expansion':
        this.words(node, st);
        out.push({ kind: 'dynamic', what: 'arithmetic expansion', quoted, raw: node.text });
        return;
      case 'brace_expression':
        out.push({ kind: 'dynamic', what: 'brace expansion', quoted, raw: node.text });
        return;
      default:
        if (!node.isNamed) {
          // punctuation inside a concatenation ("{", "}", "=", ...)
          unquotedWord(node.text, first && !quoted, out, quoted);
          return;
        }
        this.words(node, st);
        out.push({ kind: 'dynamic', what: node.type.replace(/_/g, ' '), quoted, raw: node.text });
    }
  }

  private expansion(node: Node, st: WalkState, quoted: boolean): WordPart {
    const raw = node.text;
    const inner = raw.slice(2, -1);
    // substitutions inside the operand run too
    for (const c of node.namedChildren) if (c && c.type !== 'variable_name' && c.type !== 'special_variable_name') this.words(c, st);
    const plain = /^([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])$/.exec(inner);
    if (plain) return { kind: 'variable', name: plain[1], op: null, operand: null, quoted, raw };
    const subscript = /^([A-Za-z_][A-Za-z0-9_]*)\[(0|@|\*)\]$/.exec(inner);
    if (subscript) return { kind: 'variable', name: subscript[2] === '0' ? `${subscript[1]}[0]` : subscript[1], op: null, operand: null, quoted, raw };
    const withOp = /^([A-Za-z_][A-Za-z0-9_]*(?:\[0\])?|[0-9]+|[@*])(:?[-=?+]|%%?|##?)([\s\S]*)$/.exec(inner);
    if (withOp) {
      const operandText = withOp[3];
      const operand: Word = { parts: [], raw: operandText, start: node.startIndex, end: node.endIndex };
      unquotedWord(operandText.replace(/^["']|["']$/g, ''), false, operand.parts, /^["']/.test(operandText) || quoted);
      if (/[$`]/.test(operandText)) operand.parts = [{ kind: 'dynamic', what: 'expansion in an operand', quoted, raw: operandText }];
      return { kind: 'variable', name: withOp[1], op: withOp[2], operand, quoted, raw };
    }
    return { kind: 'dynamic', what: `parameter expansion ${raw}`, quoted, raw };
  }
}

function bareCommand(n: Node): boolean {
  return n.type === 'command' || (n.type === 'redirected_statement' && n.childForFieldName('body')?.type === 'command');
}

/** The last command pushed since `from` that is not inside a substitution (the pipeline element itself). */
function lastTopLevel(commands: readonly SimpleCommand[], from: number): number | 'unknown' {
  for (let i = commands.length - 1; i >= from; i--) if (!commands[i].inSubstitution) return i;
  return 'unknown';
}
