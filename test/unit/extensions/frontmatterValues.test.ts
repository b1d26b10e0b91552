import { describe, expect, it } from 'vitest';
import { presentList } from '../../../src/main/core/extensions/present';
import { build, makeDir } from './helpers';

/**
 * Frontmatter values documented as text that YAML reads as something else. Claude Code 2.1.318
 * (the CLI bundled in @anthropic-ai/claude-agent-sdk 0.3.318) parses frontmatter with Bun's YAML
 * parser and uses `String(value)` for `argument-hint`, `when_to_use` and `name`, drops a
 * `description` that is a list or mapping ("Description invalid … omitting") and ignores a `model`
 * that is not text. Atrium lists the author's text (or follows the agent) and says so with a fix.
 */

const ARGUMENT_HINT_MAP = ['---', 'description: Research a topic', 'argument-hint: [topic: foo | bar]', '---', 'Research $ARGUMENTS and summarise it.', ''].join('\n');

describe('frontmatter values YAML does not read as text', () => {
  it('commands: a hint YAML reads as a list holding a mapping is shown as written, with the quoting fix; numbers as written; a model list and a tools mapping are ignored with warnings', async () => {
    const dir = makeDir({
      '.claude/commands/research.md': ARGUMENT_HINT_MAP,
      '.claude/commands/release.md': ['---', 'description: 1.50', 'argument-hint: [version]', 'model: [claude-sonnet-4-5, claude-opus-4-1]', 'allowed-tools: {Bash: true}', '---', 'Release $0.', ''].join('\n'),
      '.claude/commands/plain.md': ['---', 'description: 2024', 'argument-hint: 2024-01-01', 'when_to_use: yes', '---', 'Plan 2024.', ''].join('\n'),
      '.claude/commands/empty.md': ['---', 'description: ~', '---', 'First paragraph describes it.', ''].join('\n'),
    });
    const r = presentList(await build(dir, makeDir()));
    const cmd = (id: string) => r.commands.find((c) => c.id === id)!;

    expect(cmd('research')).toMatchObject({ argumentHint: '[topic: foo | bar]', description: 'Research a topic', status: 'active' });
    expect(cmd('research').frontmatterSource).toEqual({ description: 'Research a topic', 'argument-hint': '[topic: foo | bar]' });
    expect(cmd('research').warnings).toEqual([
      {
        path: '.claude/commands/research.md',
        line: 3,
        message: 'YAML reads "argument-hint: [topic: foo | bar]" as a list holding a mapping (a "key: value" inside [ ] or { }), so Claude Code shows "[object Object]"; Atrium shows what you wrote',
        fix: 'Quote the value: argument-hint: "[topic: foo | bar]"',
      },
    ]);

    const release = cmd('release');
    // the documented `[version]` form stays as written, without a warning
    expect(release).toMatchObject({ description: '1.50', argumentHint: '[version]', model: null, allowedTools: [] });
    expect(release.warnings.map((w) => [w.line, w.message, w.fix])).toEqual([
      [2, 'YAML reads "description: 1.50" as the number 1.5, so agents show "1.5"; Atrium shows what you wrote', 'Quote the value: description: "1.50"'],
      [5, 'YAML reads "allowed-tools: {Bash: true}" as a mapping, not a list of tools, so it is ignored', 'Write allowed-tools: Read, Grep, Bash(git status:*) or a YAML list of tool names.'],
      [4, 'YAML reads "model: [claude-sonnet-4-5, claude-opus-4-1]" as a list, not text; Claude Code ignores a model that is not text', 'Quote the value: model: "[claude-sonnet-4-5, claude-opus-4-1]"'],
    ]);

    // YAML 1.2 reads 2024 as a number that prints the same, a date and yes as text: shown as written, no warnings
    expect(cmd('plain')).toMatchObject({ description: '2024', argumentHint: '2024-01-01', warnings: [] });
    expect(cmd('plain').frontmatterSource).toMatchObject({ description: '2024', 'argument-hint': '2024-01-01', when_to_use: 'yes' });

    expect(cmd('empty')).toMatchObject({ description: 'First paragraph describes it.' });
    expect(cmd('empty').warnings).toEqual([
      { path: '.claude/commands/empty.md', line: 2, message: '"description: ~" is YAML\'s null, so agents read no description', fix: 'Write the description as text, or remove the line (Quote the value: description: "~" to keep "~").' },
    ]);

    const listed = JSON.stringify(r.commands.map(({ warnings: _w, ...c }) => c));
    expect(listed).not.toContain('[object Object]');
    expect(listed).not.toContain('"true"');
  });

  it('skills: a description YAML reads as a list is dropped as Claude Code does (first paragraph, warning); hint, when_to_use and name keep the author\'s text', async () => {
    const dir = makeDir({
      '.claude/skills/triage/SKILL.md': ['---', 'name: triage', 'description: [bugs, regressions]', 'when_to_use: {after: release}', 'argument-hint: [issue: 123 | url]', 'allowed-tools: [Read, {Bash: git}]', '---', 'Sort incoming issues by severity.', ''].join('\n'),
    });
    const skill = presentList(await build(dir, makeDir())).skills[0];
    expect(skill).toMatchObject({ name: 'triage', description: 'Sort incoming issues by severity.', whenToUse: '{after: release}', argumentHint: '[issue: 123 | url]', allowedTools: ['Read'] });
    expect(skill.warnings.map((w) => [w.line, w.message, w.fix])).toEqual([
      [3, 'YAML reads "description: [bugs, regressions]" as a list, not text; Claude Code drops a description that is not text ("Description invalid")', 'Quote the value: description: "[bugs, regressions]"'],
      [3, 'no "description"; the first paragraph is used', 'Add description: what the skill does and when to use it.'],
      [4, 'YAML reads "when_to_use: {after: release}" as a mapping, so Claude Code shows "[object Object]"; Atrium shows what you wrote', 'Quote the value: when_to_use: "{after: release}"'],
      [5, 'YAML reads "argument-hint: [issue: 123 | url]" as a list holding a mapping (a "key: value" inside [ ] or { }), so Claude Code shows "[object Object]"; Atrium shows what you wrote', 'Quote the value: argument-hint: "[issue: 123 | url]"'],
      [6, 'allowed-tools has entries YAML does not read as tool names ({"Bash":"git"}); they are ignored', 'Quote each entry, e.g. - "Bash(git add:*)". Write allowed-tools: Read, Grep, Bash(git status:*) or a YAML list of tool names.'],
    ]);
  });

  it('subagents and output styles: numbers and booleans show as written, a tools mapping is named', async () => {
    const dir = makeDir({
      '.claude/agents/auditor.md': ['---', 'name: auditor', 'description: 42', 'tools: {Read: yes}', 'model: 4', '---', 'You audit.', ''].join('\n'),
      '.claude/output-styles/terse.md': ['---', 'name: 2025', 'description: true', '---', 'Answer in one line.', ''].join('\n'),
    });
    const r = presentList(await build(dir, makeDir()));
    expect(r.agents[0]).toMatchObject({ name: 'auditor', description: '42', tools: [], model: null });
    expect(r.agents[0].warnings.map((w) => [w.line, w.message])).toEqual([
      [4, 'YAML reads "tools: {Read: yes}" as a mapping, not a list of tools, so it is ignored'],
      [5, 'YAML reads "model: 4" as the number 4, not text; Claude Code ignores a model that is not text'],
    ]);
    expect(r.styles.find((s) => s.id === 'project:terse')).toMatchObject({ name: '2025', description: 'true', warnings: [] });
  });
});
