import { beforeAll, describe, expect, it } from 'vitest';
import type { Parser } from 'web-tree-sitter';
import { bashParser } from '../../../src/main/core/formats/shell/grammar';
import { parseShell } from '../../../src/main/core/formats/shell/parse';
import { argWord, commandArgvs, knownText, unwrappedForms } from '../../../src/main/core/formats/shell/argv';
import { bashRuleMatches } from '../../../src/main/core/hooks/bashRule';

/**
 * A hook's `if: "Bash(...)"` as Claude Code defines it. Sources: code.claude.com/docs/en/permissions
 * ("Wildcard patterns": `Bash(ls *)` matches `ls -la` but not `lsof`, `Bash(ls*)` both; the legacy
 * `:*` suffix; a trailing ` *` also matches the bare command), code.claude.com/docs/en/hooks (the
 * handler `if` field takes permission-rule syntax), anthropics/claude-code#26229 (`Bash(git stash *)`
 * must also match bare `git stash`; it does in 2.1.318) and #56871 (`*` before a trailing `:*` is
 * literal), and what Claude Code 2.1.318
 * itself does: each "measured" row below was run through the real `claude` binary (a PreToolUse
 * hook with the rule, a fake model issuing the command) and records whether its hook fired.
 */
let parser: Parser;
beforeAll(async () => {
  parser = await bashParser();
});
const matches = (rule: string, command: string) => bashRuleMatches(rule, command, parser);

describe('rule forms (permissions docs, "Wildcard patterns")', () => {
  const table: Array<[string, string, boolean]> = [
    ['ls *', 'ls -la', true],
    ['ls *', 'lsof', false],
    ['ls*', 'lsof', true],
    ['ls*', 'ls -la', true],
    ['git stash *', 'git stash', true], // the trailing " *" is optional: also the bare command
    ['git stash *', 'git stash pop', true],
    ['git stash *', 'git stashfoo', false],
    ['git stash:*', 'git stash', true], // legacy prefix form: the same word boundary
    ['git stash:*', 'git stash pop', true],
    ['git stash:*', 'git stashfoo', false],
    ['npm run test:*', 'npm run test', true],
    ['npm run test:*', 'npm run test:unit', false],
    ['npm run test*', 'npm run test:unit', true],
    ['* install', 'pnpm install', true],
    ['git * main', 'git checkout main', true],
    ['git * main', 'git log main', true],
    ['git * main', 'git log mainline', false],
    ['git push', 'git push', true], // no star: the exact command
    ['git push', 'git push origin', false],
    ['git push *', 'git   push\torigin', true], // whitespace runs are one space, in the rule and the command
    ['git  push  *', 'git push', true],
    ['echo \\*', 'echo *', true], // \* is a literal star
    ['echo \\*', 'echo x', false],
    ['rm -rf *', 'rm -rf build', true],
    ['rm -rf *', 'rm -r build', false],
    ['cat src/**/x.ts', 'cat src/x.ts', true], // "/**/" also matches "/"
    ['cat src/**/x.ts', 'cat src/a/b/x.ts', true],
    ['cat src/**/x.ts', 'cat srcx.ts', false],
    ['git push*', 'git pushx', true],
    ['git push *', 'git pushx', false],
    ['git push:*', 'git pushx', false],
    ['git -C * show:*', 'git -C /tmp show HEAD', false], // #56871: the * before a trailing :* is literal (measured in 2.1.318)
    ['git -C * show *', 'git -C /tmp show HEAD', true],
    ['ssh * uptime *', 'ssh host uptime', false], // only a lone trailing " *" is optional (#36873; measured in 2.1.318)
    ['ssh * uptime *', 'ssh host uptime -s', true],
  ];
  it.each(table)('Bash(%s) on %j → %s', (rule, command, expected) => {
    expect(matches(rule, command)).toBe(expected);
  });
});

describe('commands read as bash reads them (measured with Claude Code 2.1.318, rule "git push *")', () => {
  const fires = [
    'git push',
    'git push origin main',
    'git  push',
    'git\tpush',
    '  git push  ',
    'FOO=bar git push', // leading environment assignments are not the command
    'FOO=bar BAZ=1 git push origin',
    'GIT_DIR=x git push',
    '\\git push', // quote removal
    '"git" push',
    "'git' 'push'",
    'g"it" push',
    'git "push"',
    'true && git push', // every part of a compound command
    'git push; :',
    'false || git push',
    'echo a | git push',
    'ls\ngit push',
    '(git push)',
    '{ git push; }',
    '! git push',
    'git push &',
    '$(git push)',
    'echo $(git push)',
    'echo `git push`',
    'echo "$(git push)"',
    'diff <(git push) x',
    'cat <<EOF\n$(git push)\nEOF',
    'if true; then git push; fi',
    'for i in 1; do git push; done',
    'while false; do :; done; git push',
    'f() { git push; }; f',
    'x=1; git push',
    'export A=1; git push',
    'cd /tmp && git push',
    'git push 2>&1',
    'git push > out.txt',
    'git push <<< x',
    'git push # comment',
    'git pu\\\nsh', // a line continuation joins the word
    'git push\\\n origin',
    'xargs git push',
    'echo x | xargs git push',
    'git $EMPTY push', // a word only the shell knows may be anything, even nothing
    '$GIT push',
    'echo "unbalanced', // cannot be parsed: fails open
  ];
  it.each(fires)('fires on %j', (command) => {
    expect(matches('git push *', command)).toBe(true);
  });

  const quiet = ['git pushx', 'git stash', '# git push', "echo 'git push'", 'echo git push', 'git status', 'git', 'gitpush', 'git-push', 'git push-all', 'ls', '', '   ', 'echo $HOME', 'ls "$HOME" | grep x'];
  it.each(quiet)('stays quiet on %j', (command) => {
    expect(matches('git push *', command)).toBe(false);
  });
});

describe('guards see through process wrappers (Claude Code 2.1.318 deny rules do; its hook "if" does not)', () => {
  const wrapped = [
    'env FOO=1 git push',
    'env git push',
    'env -i PATH=/usr/bin git push',
    'command git push',
    'command -p git push',
    'builtin git push',
    'exec git push',
    'exec -a x git push',
    'nohup git push',
    'timeout 5 git push',
    'timeout -s KILL 5s git push',
    'nice git push',
    'nice -n 5 git push',
    'nice -10 git push',
    'time git push',
    'time -p git push',
    '\\time git push',
    'stdbuf -oL git push',
    'sudo git push',
    'sudo -u root env A=1 timeout 5 git push',
    'doas git push',
    'setsid git push',
    'xargs -0 git push',
    'xargs -n 1 git push',
    '/usr/bin/git push', // a path-qualified program counts as its name
    './git push',
    'coproc git push',
    'timeout $T git push', // a duration only the shell knows
    'env $VARS git push',
    'sudo -u "$U" git push',
    '$SUDO git push',
    'GIT push', // case-insensitive file systems
    'Sudo /usr/bin/Git push',
    'git${IFS}push', // variables, brace expansion and globs are only known when bash runs
    '{git,push}',
    'git p*sh', // next to a file named "push"
    'git pu[s]h',
    '/usr/bin/g?t push',
  ];
  it.each(wrapped)('fires on %j', (command) => {
    expect(matches('git push *', command)).toBe(true);
    expect(matches('git push:*', command)).toBe(true);
  });

  it('reads an option the table lacks both without and with a value, so it cannot hide the command', () => {
    expect(matches('git push *', 'timeout --frobnicate 5 git push')).toBe(true);
    expect(matches('git push *', 'sudo --preserve-env=PATH git push')).toBe(true);
    expect(matches('git push *', 'nice --weird 3 git push')).toBe(true);
    expect(matches('git push *', "env -S 'git push'")).toBe(true);
  });

  it('unwraps only what a wrapper runs', () => {
    expect(matches('git push *', 'sudo echo git push')).toBe(false);
    expect(matches('git push *', 'timeout git push')).toBe(false); // no duration: timeout runs nothing
    expect(matches('git push *', 'nice -n')).toBe(false);
    expect(matches('git push *', 'env A=git push')).toBe(false);
  });
});

describe('scripts handed to a shell or eval are read too (Claude Code 2.1.318 does not)', () => {
  it.each(["bash -c 'git push'", 'sh -c "git push"', "bash -lc 'cd x && git push'", "bash -o pipefail -c 'git push'", "zsh --no-rcs -ec 'git push'", 'eval git push', "eval 'git push'", "sudo bash -c 'git push'", `bash -c "bash -c 'git push'"`, 'bash -c "$CMD"', 'eval "$CMD"', "bash $FLAGS 'git push'"])(
    'fires on %j',
    (command) => {
      expect(matches('git push *', command)).toBe(true);
    },
  );
  it.each(["bash -c 'git status'", 'eval git status', 'bash script.sh', 'bash -c', "bash -x 'git push'"])('stays quiet on %j', (command) => {
    expect(matches('git push *', command)).toBe(false);
  });
});

describe('out of reach (Claude Code does not match these either)', () => {
  it.each(['git -C . push', 'bash <<EOF\ngit push\nEOF', 'echo git push | sh', 'python3 -c "import os; os.system(\'git push\')"'])('%j', (command) => {
    expect(matches('git push *', command)).toBe(false);
  });
});

describe('holes: words only the shell knows', () => {
  it('match any text, but literal words around them still have to fit', () => {
    expect(matches('git push *', '"$X" origin')).toBe(true); // $X may be "git push"
    expect(matches('git push *', 'echo $X')).toBe(false); // starts with echo whatever $X is
    expect(matches('* main', '$X push')).toBe(false); // ends with push whatever $X is
    expect(matches('rm -rf *', 'rm $FLAGS /')).toBe(true);
    expect(matches('rm -rf *', 'ls ~/x')).toBe(false);
    expect(matches('git push', 'git ${SUB}')).toBe(true);
  });
});

describe('argument vectors (formats/shell/argv)', () => {
  const argvs = async (text: string) =>
    commandArgvs(await parseShell(text)).map((argv) => argv.map((w) => w.map((p) => ('text' in p ? p.text : `<${p.unknown}>`)).join('')));

  it('lists every program a text runs with quotes removed and assignments and redirections left out', async () => {
    expect(await argvs('A=1 "git" push 2>&1 | tee log && x=$(id -u)')).toEqual([['git', 'push'], ['tee', 'log'], ['id', '-u']]);
    expect(await argvs('echo ~/x $HOME "${A:-b}"')).toEqual([['echo', '<~>/x', '<$HOME>', '<${A:-b}>']]);
  });

  it('unwraps wrappers one at a time and names a path-qualified program bare', async () => {
    const [argv] = commandArgvs(await parseShell('sudo -u root env A=1 /usr/bin/git push'));
    const forms = unwrappedForms(argv).map((f) => f.map((w) => knownText(w)).join(' '));
    expect(forms).toEqual(['sudo -u root env A=1 /usr/bin/git push', 'env A=1 /usr/bin/git push', '/usr/bin/git push', 'git push']);
  });

  it('keeps a word with a hole as pieces', async () => {
    const script = await parseShell('echo pre"$X"post');
    expect(argWord(script.commands[0].words[1])).toEqual([{ text: 'pre' }, { unknown: '$X' }, { text: 'post' }]);
  });

  it('makes unquoted globs holes, quoted ones and a lone [ text', async () => {
    const [argv] = commandArgvs(await parseShell('ls a*b "c*d" e?[xy] [ f'));
    expect(argv).toEqual([[{ text: 'ls' }], [{ text: 'a' }, { unknown: '*' }, { text: 'b' }], [{ text: 'c*d' }], [{ text: 'e' }, { unknown: '?' }, { unknown: '[xy]' }], [{ text: '[' }], [{ text: 'f' }]]);
  });
});
