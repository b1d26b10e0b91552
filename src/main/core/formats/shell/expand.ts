import type { SimpleCommand, Word } from './types';

/** What the caller knows about the shell's state when a word is expanded. */
export interface ExpandEnv {
  /** A variable's value as the shell will see it, or undefined when it is not known. */
  lookup(name: string): string | undefined;
  /** The output of a command substitution (trailing newlines removed, as bash does), or undefined when it is not known. */
  substitute?(commands: readonly SimpleCommand[]): string | undefined;
}

/**
 * The result of expanding one word: its single value, or why the shell's value cannot be known
 * here: `variable` (unknown variable or unsupported operator), `substitution`, `glob` (an unquoted
 * `*`, `?`, `[`), `brace` (`{a,b}`, `{1..3}`), `split` (an unquoted expansion whose value has
 * spaces, tabs, newlines or glob characters, so bash splits or globs it), `tilde` (`~user`),
 * `dynamic` (arithmetic, `<(...)`, `$'…'` escapes).
 */
export type Expanded = { ok: true; value: string } | { ok: false; reason: 'variable' | 'substitution' | 'glob' | 'brace' | 'split' | 'tilde' | 'dynamic'; detail: string };

/**
 * Expands a word the way bash 5 does for a simple command word (tilde, parameter and command
 * substitution, then field splitting and pathname expansion of the unquoted results), but only
 * where the outcome is deterministic: otherwise it says why not. Supported operators: `${X:-w}`,
 * `${X-w}` (when X is known), `${X%/*}` (strip the last path component) and `${X##*}` with a slash
 * after the star (keep only the last component).
 */
export function expandWord(word: Word, env: ExpandEnv): Expanded {
  let value = '';
  // characters subject to brace expansion and globbing (unquoted literal text)
  let active = '';
  for (const p of word.parts) {
    if (p.kind === 'literal') {
      value += p.text;
      active += p.quoted ? ' '.repeat(p.text.length) : p.text;
      continue;
    }
    if (p.kind === 'tilde') {
      if (p.user) return { ok: false, reason: 'tilde', detail: `~${p.user}` };
      const home = env.lookup('HOME');
      if (home === undefined) return { ok: false, reason: 'variable', detail: '~' };
      value += home;
      active += ' '.repeat(home.length);
      continue;
    }
    if (p.kind === 'dynamic') return { ok: false, reason: 'dynamic', detail: p.raw };
    let v: string | undefined;
    if (p.kind === 'variable') {
      const known = env.lookup(p.name);
      if (p.op === null) v = known;
      else if (p.op === ':-' || p.op === '-') {
        if (known === undefined) return { ok: false, reason: 'variable', detail: p.raw };
        if (known === '' && p.op === ':-') {
          const o = p.operand ? expandWord(p.operand, env) : { ok: true as const, value: '' };
          if (!o.ok) return o;
          v = o.value;
        } else v = known;
      } else if ((p.op === '%' || p.op === '%%') && p.operand?.raw === '/*' && known !== undefined) v = known.includes('/') ? known.slice(0, p.op === '%' ? known.lastIndexOf('/') : known.indexOf('/')) : known;
      else if ((p.op === '##' || p.op === '#') && p.operand?.raw === '*/' && known !== undefined) v = p.op === '##' ? known.slice(known.lastIndexOf('/') + 1) : known.slice(known.indexOf('/') + 1);
      else return { ok: false, reason: 'variable', detail: p.raw };
      if (v === undefined) return { ok: false, reason: 'variable', detail: p.raw };
    } else {
      v = env.substitute?.(p.commands);
      if (v === undefined) return { ok: false, reason: 'substitution', detail: p.raw };
      v = v.replace(/\n+$/, '');
    }
    if (!p.quoted && (/[\s*?[]/.test(v) || (v === '' && word.parts.length === 1))) return { ok: false, reason: 'split', detail: `${p.raw} → ${JSON.stringify(v)}` };
    value += v;
    active += ' '.repeat(v.length);
  }
  if (/[*?[]/.test(active)) return { ok: false, reason: 'glob', detail: word.raw };
  if (/\{[^{}]*(,|\.\.)[^{}]*\}/.test(active)) return { ok: false, reason: 'brace', detail: word.raw };
  return { ok: true, value };
}
