import { beforeAll, describe, expect, it } from 'vitest';
import type { Parser } from 'web-tree-sitter';
import { posixShellJoin } from '../../../src/main/core/formats/shell';
import { bashParser } from '../../../src/main/core/formats/shell/grammar';
import { bashRuleMatches } from '../../../src/main/core/hooks/bashRule';
import { claudeToolOf } from '../../../src/main/core/sessions/workspacePolicy/sessionHooks';

/**
 * A command an agent runs as an argv (ACP `terminal/create` with `args`, codex-acp's exec tool call
 * whose `rawInput.command` is `["bash", "-lc", "…"]`) reaches hooks as the shell text that runs the
 * same words, so a Bash `if` rule (Claude Code permission-rule syntax, which reads the script of
 * `bash -c`) and a guard script see the real command, not `bash -lc git push`.
 */
let parser: Parser;
beforeAll(async () => {
  parser = await bashParser();
});

describe('argv → shell text for hooks', () => {
  it('quotes only the words that need it, and a quote inside a word survives', () => {
    expect(posixShellJoin(['git', 'push', 'origin'])).toBe('git push origin');
    expect(posixShellJoin(['sh', '-c', 'git push origin'])).toBe("sh -c 'git push origin'");
    expect(posixShellJoin(['echo', "it's", ''])).toBe("echo 'it'\\''s' ''");
  });

  it('a Bash(git push *) rule reads the script inside sh -c / bash -lc once the argv is quoted, and did not before', () => {
    expect(bashRuleMatches('git push *', posixShellJoin(['sh', '-c', 'git push origin']), parser)).toBe(true);
    expect(bashRuleMatches('git push *', posixShellJoin(['bash', '-lc', 'FOO=1 git push; echo ran']), parser)).toBe(true);
    expect(bashRuleMatches('git push *', ['sh', '-c', 'git push origin'].join(' '), parser)).toBe(false);
  });

  it('a codex-style execute tool call with an argv command becomes Bash with that shell text', () => {
    const tool = claudeToolOf({ toolCallId: 'c1', kind: 'execute', title: 'git push', rawInput: { command: ['bash', '-lc', 'git push origin'] } });
    expect(tool).toEqual({ name: 'Bash', input: { command: "bash -lc 'git push origin'" } });
    // a string command is kept as the agent sent it; no command at all falls back to the title
    expect(claudeToolOf({ kind: 'execute', rawInput: { command: 'ls -la' } }).input.command).toBe('ls -la');
    expect(claudeToolOf({ kind: 'execute', title: 'make test', rawInput: {} }).input.command).toBe('make test');
  });
});
