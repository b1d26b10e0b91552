import { beforeAll, describe, expect, it } from 'vitest';
import type { Parser } from 'web-tree-sitter';
import { bladeMatcherMatches, claudeMatcherMatches, ifRuleMatches, parseClaudeMatcher, parsePermissionRule } from '../../../src/main/core/hooks/matchers';
import { bashParser } from '../../../src/main/core/formats/shell/grammar';

let shellParser: Parser;
beforeAll(async () => {
  shellParser = await bashParser();
});
const call = (toolName: string, toolInput: Record<string, unknown>) => ({ toolName, toolInput, projectDir: '/w', homeDir: '/h', shellParser });

describe("Claude Code's matcher semantics (formats.md §2.5)", () => {
  const table: Array<[string | undefined, string, boolean]> = [
    [undefined, 'Bash', true],
    ['', 'Bash', true],
    ['*', 'Anything', true],
    ['Bash', 'Bash', true],
    ['Bash', 'BashOutput', false],
    ['Edit|Write', 'Write', true],
    ['Edit|Write', 'MultiEdit', false],
    ['Edit, Write', 'Write', true],
    ['Edit , Write', 'Edit', true],
    ['my-tool', 'my-tool', true],
    ['Edit.*', 'NotebookEdit', true], // unanchored RegExp
    ['^Edit$', 'NotebookEdit', false],
    ['^Edit$', 'Edit', true],
    ['mcp__memory__.*', 'mcp__memory__create', true],
    ['mcp__memory', 'mcp__memory__create', false], // exact: matches nothing useful
    ['Bash(git commit*)', 'Bash', false], // permission-rule syntax never matches a tool name
    ['^claude-security:claude-security$', 'claude-security:claude-security', true],
  ];
  it.each(table)('matcher %j vs %j → %s', (matcher, value, expected) => {
    expect(claudeMatcherMatches(parseClaudeMatcher(matcher), value)).toBe(expected);
  });

  it('ignores the matcher on events without a matched field', () => {
    expect(claudeMatcherMatches(parseClaudeMatcher('Bash'), undefined)).toBe(true);
  });
});

describe('handler "if" in permission-rule form', () => {
  const table: Array<[string, string, Record<string, unknown>, boolean]> = [
    ['Bash(git commit*)', 'Bash', { command: 'git commit -m x' }, true],
    ['Bash(git commit*)', 'Bash', { command: 'git status' }, false],
    ['Bash(git commit:*)', 'Bash', { command: 'npm test && git commit -m "x"' }, true], // every subcommand
    ['Bash(git commit:*)', 'Bash', { command: 'git committed' }, false], // word boundary
    ['Bash(git push:*)', 'Bash', { command: 'echo $(git push origin)' }, true], // inside $()
    ['Bash(rm *)', 'Bash', { command: 'echo "unbalanced' }, true], // fails open
    ['Bash(git commit*)', 'Edit', { command: 'git commit' }, false], // other tool
    ['Edit(src/**)', 'Edit', { file_path: '/w/src/a/b.ts' }, true],
    ['Edit(src/**)', 'Edit', { file_path: 'src/x.ts' }, true],
    ['Edit(src/**)', 'Edit', { file_path: '/w/lib/x.ts' }, false],
    ['Edit(*.md)', 'Edit', { file_path: '/w/docs/deep/x.md' }, true],
    ['Read(~/.ssh/**)', 'Read', { file_path: '/h/.ssh/id_rsa' }, true],
    ['Read(//etc/**)', 'Read', { file_path: '/etc/passwd' }, true],
    // measured with Claude Code 2.1.318 (a PreToolUse hook with the rule on Read calls): gitignore semantics
    ['Read(./x.txt)', 'Read', { file_path: '/w/sub/x.txt' }, true],
    ['Read(./x.txt)', 'Read', { file_path: '/w/x.txt' }, true],
    ['Read(x.txt)', 'Read', { file_path: '/w/sub/x.txt' }, true],
    ['Read(src/**)', 'Read', { file_path: '/w/lib/src/x.ts' }, false],
    ['Read(/src/**)', 'Read', { file_path: '/w/src/deep/b/c.ts' }, true],
    ['Read(/src/**)', 'Read', { file_path: '/tmp/src/a.ts' }, false],
    ['Read(**/*.md)', 'Read', { file_path: '/w/README.md' }, true],
    // Claude Code 2.1.318's WebFetch permission check: a plain domain is that host only; *. = any subdomain, not the apex
    ['WebFetch(domain:example.com)', 'WebFetch', { url: 'https://example.com/x' }, true],
    ['WebFetch(domain:example.com)', 'WebFetch', { url: 'https://EXAMPLE.com.:8080/x' }, true],
    ['WebFetch(domain:example.com)', 'WebFetch', { url: 'https://docs.example.com/x' }, false],
    ['WebFetch(domain:*.example.com)', 'WebFetch', { url: 'https://docs.example.com/x' }, true],
    ['WebFetch(domain:*.example.com)', 'WebFetch', { url: 'https://a.b.example.com/' }, true],
    ['WebFetch(domain:*.example.com)', 'WebFetch', { url: 'https://example.com/' }, false],
    ['WebFetch(domain:*.example.com)', 'WebFetch', { url: 'https://notexample.com/' }, false],
    ['WebFetch(domain:*)', 'WebFetch', { url: 'https://anything.org/' }, true],
    ['WebFetch(domain:api*.example.com)', 'WebFetch', { url: 'https://api2.example.com/' }, true],
    ['WebFetch(domain:api*.example.com)', 'WebFetch', { url: 'https://api.x.example.com/' }, false],
    ['WebFetch(domain:example.com)', 'WebFetch', { url: 'https://example.org/' }, false],
    ['Write', 'Write', { file_path: '/w/a' }, true],
    ['mcp__github__*', 'mcp__github__create_issue', {}, true],
  ];
  it.each(table)('if %s on %s %j → %s', (rule, tool, input, expected) => {
    expect(ifRuleMatches(parsePermissionRule(rule)!, call(tool, input))).toBe(expected);
  });

  it('rejects text that is not a permission rule', () => {
    expect(parsePermissionRule('git commit (x')).toBeNull();
    expect(parsePermissionRule('Bash(git push')).toBeNull();
    expect(parsePermissionRule('Bash(a) b')).toBeNull();
    expect(parsePermissionRule('Ba)sh(x)')).toBeNull();
  });

  it('reads \\( \\) and \\\\ in the content as Claude Code 2.1.318 does (first unescaped "(", closing ")" at the end)', () => {
    expect(parsePermissionRule('Bash(echo \\(x\\))')).toEqual({ tool: 'Bash', pattern: 'echo (x)' });
    expect(parsePermissionRule('Bash(printf a\\\\b)')).toEqual({ tool: 'Bash', pattern: 'printf a\\b' });
    expect(parsePermissionRule('Bash(echo (x))')).toEqual({ tool: 'Bash', pattern: 'echo (x)' });
    expect(parsePermissionRule('mcp__github__create_issue')).toEqual({ tool: 'mcp__github__create_issue', pattern: null });
  });

  it('without a loaded bash parser a Bash rule with a pattern matches every command (a guard fails open)', () => {
    const rule = parsePermissionRule('Bash(git push *)')!;
    expect(ifRuleMatches(rule, { ...call('Bash', { command: 'ls' }), shellParser: null })).toBe(true);
    expect(ifRuleMatches(rule, call('Bash', { command: 'ls' }))).toBe(false);
  });
});

describe('Blade object matchers (seed-behaviour §9.3)', () => {
  const table: Array<[unknown, string, Record<string, unknown>, boolean]> = [
    [undefined, 'Bash', {}, true],
    [{ tools: '*' }, 'Edit', {}, true],
    [{ tools: 'Edit|Write' }, 'Write', {}, true],
    [{ tools: ['Read', 'Edit'] }, 'Write', {}, false],
    [{ tools: 'Ed.*' }, 'Edit', {}, true],
    [{ tools: 'Bash(npm *)' }, 'Bash', { command: 'npm test' }, true],
    [{ tools: 'Bash(npm *)' }, 'Bash', { command: 'yarn test' }, false],
    [{ tools: 'Edit', paths: 'src/**' }, 'Edit', { file_path: '/w/src/a.ts' }, true],
    [{ tools: 'Edit', paths: 'src/**' }, 'Edit', { file_path: '/w/lib/a.ts' }, false],
    [{ paths: 'src/**' }, 'Bash', { command: 'ls' }, false], // no paths → fails
    [{ commands: '^npm' }, 'Bash', { command: 'npm i' }, true],
    [{ commands: '^npm' }, 'Bash', { command: 'pnpm i' }, false],
    [{ commands: '^npm' }, 'Read', { file_path: '/w/a' }, true], // only checked when there is a command
  ];
  it.each(table)('%j on %s %j → %s', (matcher, tool, input, expected) => {
    expect(bladeMatcherMatches(matcher, call(tool, input))).toBe(expected);
  });
});
