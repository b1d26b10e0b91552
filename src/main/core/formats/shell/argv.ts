/**
 * The argument vectors a bash text runs, as far as they can be known without running it: every
 * simple command's words after quote removal (assignments and redirections left out), with the
 * parts only the running shell knows kept as holes; and the same vectors with leading process
 * wrappers (`env A=1`, `timeout 5`, `sudo -u x`, `command`, ...) removed, so a reader sees the
 * program they start.
 */
import type { ShellScript, Word } from './types';

/** One piece of a word: literal text, or a part only the running shell knows (`$X`, `$(…)`, `~`, `{a,b}`, `$'\n'`), with its source text. */
export type ArgPiece = { text: string } | { unknown: string };

/** A word as pieces (adjacent literal text joined). An empty array is an empty word (`""`). */
export type ArgWord = ArgPiece[];

/**
 * The pieces of a parsed word: literal parts as text (quotes removed), everything else a hole. An
 * unquoted glob (`*`, `?`, a `[...]` class) is a hole too: bash replaces it with the names of
 * matching files, which the repository may provide (`git p*sh` runs `git push` next to a file
 * named `push`).
 */
export function argWord(word: Word): ArgWord {
  const out: ArgWord = [];
  const text = (t: string) => {
    const last = out[out.length - 1];
    if (last && 'text' in last) out[out.length - 1] = { text: last.text + t };
    else out.push({ text: t });
  };
  const hasClass = word.parts.some((p) => p.kind === 'literal' && !p.quoted && /\[[^\]]*\]/.test(p.text));
  for (const p of word.parts) {
    if (p.kind !== 'literal') out.push({ unknown: p.kind === 'tilde' ? `~${p.user}` : p.raw });
    else if (p.quoted) text(p.text);
    else
      for (const piece of p.text.split(hasClass ? /(\*|\?|\[[^\]]*\])/ : /(\*|\?)/)) {
        if (piece === '') continue;
        if (piece === '*' || piece === '?' || (hasClass && /^\[[^\]]*\]$/.test(piece))) out.push({ unknown: piece });
        else text(piece);
      }
  }
  return out;
}

/** The word's text when it has no hole, else null. */
export function knownText(word: ArgWord): string | null {
  let s = '';
  for (const p of word) {
    if (!('text' in p)) return null;
    s += p.text;
  }
  return s;
}

/**
 * The argument vector of every simple command of `script` that starts a program (bare assignments
 * and bare redirections have none), in source order: those in pipelines, lists, subshells, groups,
 * conditionals, loops, function bodies, `$(...)`, backticks, `<(...)` and unquoted heredocs alike.
 */
export function commandArgvs(script: ShellScript): ArgWord[][] {
  return script.commands.filter((c) => c.words.length > 0).map((c) => c.words.map(argWord));
}

/** The word as wrapper-matching text: its known text, or `\0` for a word with a hole (never a wrapper's name or option). */
const HOLE_WORD = '\0';

/**
 * Programs that run the command in their arguments, and how to step over their own options. Each
 * entry returns where the wrapped command may start (several places when an option it does not
 * know may or may not take a value; none when its syntax cannot be read). The set is the one Claude
 * Code 2.1.318 strips before matching Bash deny and ask rules (`time`, `nohup`, `timeout`, `nice`,
 * `stdbuf`, `env`, `command`, `builtin`, `noglob`, `exec`, `sudo`, `doas`, `setsid`, `xargs`)
 * plus bash's `coproc`.
 */
const WRAPPERS: Record<string, (args: string[]) => number[]> = {
  time: (a) => skipOptions(a, { flags: ['-p'] }),
  nohup: (a) => skipOptions(a, {}),
  coproc: () => [1],
  noglob: () => [1],
  builtin: (a) => skipOptions(a, {}),
  command: (a) => skipOptions(a, { flags: ['-p'] }),
  exec: (a) => skipOptions(a, { flags: ['-c', '-l', '-cl', '-lc'], valued: ['-a'] }),
  setsid: (a) => skipOptions(a, { flags: ['-c', '-f', '-w', '--ctty', '--fork', '--wait'] }),
  nice: (a) => skipOptions(a, { valued: ['-n', '--adjustment'], numericFlag: true }),
  timeout: (a) =>
    skipOptions(a, { flags: ['-v', '--verbose', '--foreground', '--preserve-status'], valued: ['-k', '-s', '--kill-after', '--signal'] })
      .filter((i) => i < a.length && (a[i] === HOLE_WORD || /^\d+(?:\.\d+)?[smhd]?$/.test(a[i])))
      .map((i) => i + 1),
  stdbuf: (a) => skipOptions(a, { valued: ['-i', '-o', '-e', '--input', '--output', '--error'] }),
  env: (a) => skipOptions(a, { flags: ['-i', '-0', '-v', '-', '--ignore-environment', '--null', '--debug'], valued: ['-u', '-C', '--unset', '--chdir'], assignments: true }),
  sudo: (a) =>
    skipOptions(a, {
      flags: ['-A', '-b', '-E', '-e', '-H', '-i', '-K', '-k', '-n', '-P', '-S', '-s', '--askpass', '--background', '--preserve-env', '--login', '--non-interactive', '--stdin', '--shell', '--set-home', '--reset-timestamp'],
      valued: ['-u', '-g', '-U', '-C', '-D', '-h', '-p', '-r', '-R', '-t', '-T', '-a', '--user', '--group', '--other-user', '--close-from', '--chdir', '--host', '--prompt', '--role', '--chroot', '--type', '--command-timeout', '--auth-type'],
      assignments: true,
    }),
  doas: (a) => skipOptions(a, { flags: ['-n', '-s'], valued: ['-a', '-u', '-C'] }),
  xargs: (a) =>
    skipOptions(a, {
      flags: ['-0', '-o', '-p', '-r', '-t', '-x', '--null', '--open-tty', '--interactive', '--no-run-if-empty', '--verbose', '--exit'],
      valued: ['-a', '-d', '-E', '-e', '-I', '-i', '-L', '-l', '-n', '-P', '-s', '--arg-file', '--delimiter', '--eof', '--replace', '--max-lines', '--max-args', '--max-procs', '--max-chars', '--process-slot-var'],
    }),
};

interface OptionSyntax {
  /** Options without a value. */
  flags?: string[];
  /** Options whose value is the next word (or attached: `-n5`, `--user=x`). */
  valued?: string[];
  /** `NAME=value` words are skipped too (env, sudo). */
  assignments?: boolean;
  /** `-N` (a number) is an option (nice). */
  numericFlag?: boolean;
}

/**
 * Indexes where the command after the options of `args[0]` (the wrapper) may start. `--` ends the
 * options. An option not in `syntax` is read both ways, without and with a value (`--x=y` only
 * without), so an option this table lacks cannot hide the command; at most 8 places.
 */
function skipOptions(args: string[], syntax: OptionSyntax): number[] {
  const flags = new Set(syntax.flags ?? []);
  const valued = syntax.valued ?? [];
  const out = new Set<number>();
  const walk = (start: number) => {
    let i = start;
    while (i < args.length && out.size < 8) {
      const a = args[i];
      if (a === '--') {
        out.add(i + 1);
        return;
      }
      if (syntax.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(a)) i++;
      else if (flags.has(a) || (syntax.numericFlag && /^-\d+$/.test(a))) i++;
      else if (valued.includes(a)) i += 2;
      else if (valued.some((v) => (v.startsWith('--') ? a.startsWith(`${v}=`) : a.startsWith(v) && a.length > v.length))) i++;
      else if (a.startsWith('-') && a !== '-') {
        if (!a.includes('=')) walk(i + 2);
        i++;
      } else break;
    }
    out.add(i);
  };
  walk(1);
  return [...out].filter((i) => i < args.length).sort((x, y) => x - y);
}

/**
 * `argv`, then every form of it with leading process wrappers removed one at a time (`sudo env A=1
 * timeout 5 git push` → `env A=1 timeout 5 git push`, `timeout 5 git push`, `git push`), each also
 * with a path-qualified program (`/usr/bin/git`) as its bare name and a program name in capitals
 * (`GIT`) in lower case. A wrapper is recognised only when its name is plain text; a word with a
 * hole where an option could be is taken as the start of the wrapped command (a hole matches any
 * program). At most 64 forms.
 */
export function unwrappedForms(argv: ArgWord[]): ArgWord[][] {
  const out: ArgWord[][] = [];
  // every form is a suffix of argv: its length names it
  const seen = new Set<number>();
  const visit = (current: ArgWord[], depth: number) => {
    if (current.length === 0 || depth > 16 || out.length >= 64 || seen.has(current.length)) return;
    seen.add(current.length);
    out.push(current);
    const program = knownText(current[0]);
    if (program !== null) {
      const bare = program.includes('/') && !program.endsWith('/') ? program.slice(program.lastIndexOf('/') + 1) : program;
      // a case-insensitive file system (macOS, Windows) runs `GIT` as `git`
      for (const alias of new Set([bare, bare.toLowerCase()])) if (alias !== program) out.push([[{ text: alias }], ...current.slice(1)]);
    } else {
      const bare = baseName(current[0]);
      if (bare) out.push([bare, ...current.slice(1)]);
    }
    const name = program?.slice(program.lastIndexOf('/') + 1).toLowerCase();
    const skip = name !== undefined && Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined;
    if (!skip) return;
    for (const next of skip(current.map((w) => knownText(w) ?? HOLE_WORD))) if (next > 0) visit(current.slice(next), depth + 1);
  };
  visit(argv, 0);
  return out;
}

/** The pieces after the last `/` of a word with holes (`/usr/bin/g?t` → `g?t`), or null when it has no `/` in its text or ends with one. */
function baseName(word: ArgWord): ArgWord | null {
  for (let i = word.length - 1; i >= 0; i--) {
    const p = word[i];
    if (!('text' in p) || !p.text.includes('/')) continue;
    const rest = p.text.slice(p.text.lastIndexOf('/') + 1);
    const out = [...(rest ? [{ text: rest }] : []), ...word.slice(i + 1)];
    return out.length ? out : null;
  }
  return null;
}

/** Shells whose `-c STRING` runs STRING as a script. */
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash']);

/**
 * The script an argument vector hands to a shell: the STRING of `bash -c STRING` (`sh`, `zsh`,
 * `dash`, `ksh` too, after options such as `-l`, `-e`, `-o pipefail`, `--norc`; `-lc` and the
 * like count; an option only the shell knows may be `-c`), or the words of `eval` joined by
 * spaces as bash joins them. `{ unknown }` when that text has a part only the shell knows; null
 * when the argv runs no such script.
 */
export function scriptArgument(argv: ArgWord[]): { text: string } | { unknown: string } | null {
  const program = argv.length ? knownText(argv[0]) : null;
  if (program === null) return null;
  const name = program.slice(program.lastIndexOf('/') + 1).toLowerCase();
  if (name === 'eval') {
    const words = argv.slice(1).map(knownText);
    if (words.some((w) => w === null)) return { unknown: 'eval' };
    return words.length ? { text: words.join(' ') } : null;
  }
  if (!SHELLS.has(name)) return null;
  let script = false;
  for (let i = 1; i < argv.length; i++) {
    const w = knownText(argv[i]);
    if (w === null) {
      if (script) return { unknown: `${name} -c` };
      // the hole may be `-c`: then the next word is the script
      const next = argv[i + 1] ? knownText(argv[i + 1]) : null;
      return next === null ? null : { text: next };
    }
    if (w === '--' || w === '-') {
      const next = argv[i + 1];
      if (!script || !next) return null;
      const text = knownText(next);
      return text === null ? { unknown: `${name} -c` } : { text };
    }
    if (w === '-o' || w === '+o' || w === '-O' || w === '+O' || w === '--rcfile' || w === '--init-file') i++;
    else if (w.startsWith('--')) continue;
    else if (/^[-+][A-Za-z]+$/.test(w)) script ||= w.startsWith('-') && w.includes('c');
    else return script ? { text: w } : null;
  }
  return null;
}
