import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RulesExplainResult } from '../../../src/shared/contract/rules';
import { runCli } from '../../support/cli';
import { tempDir } from '../../support/tempDir';
import { makeHome, makeRepo, writeTree } from './helpers';

describe('agent views on the CLI', () => {
  it('rules explain --agent codex reads $CODEX_HOME; --agent copilot is a choice whose output says it is modelled, not proven', { timeout: 120_000 }, () => {
    const dir = makeRepo({ 'AGENTS.md': 'root agents', '.github/instructions/ts.instructions.md': '---\napplyTo: "src/**"\n---\nts rules', 'pkg/src/a.ts': '' });
    const codexHome = tempDir('atrium-codex-home-');
    writeTree(codexHome, { 'AGENTS.md': 'from CODEX_HOME' });
    const env = { HOME: makeHome({ '.codex/AGENTS.md': 'from HOME, not used' }), CODEX_HOME: codexHome };
    const dataDir = tempDir('atrium-cli-data-');
    expect(runCli(['trust', 'set', dir, 'trusted', '--data-dir', dataDir], env).status).toBe(0);
    const codex = runCli(['rules', 'explain', dir, '--path', 'pkg/src/a.ts', '--agent', 'codex', '--content', '--data-dir', dataDir], env);
    expect(codex.status, codex.stderr).toBe(0);
    expect(codex.stdout).toContain('<INSTRUCTIONS>\nfrom CODEX_HOME\n\n--- project-doc ---\n\nroot agents\n</INSTRUCTIONS>');
    expect(codex.stdout).not.toContain('from HOME');
    const copilot = runCli(['rules', 'explain', dir, '--path', 'pkg/src/a.ts', '--agent', 'copilot', '--json', '--data-dir', dataDir], env);
    expect(copilot.status, copilot.stderr).toBe(0);
    const parsed = RulesExplainResult.parse(copilot.json);
    expect(parsed.agentView?.agent).toBe('copilot');
    expect(parsed.contextual.map((r) => r.path)).toContain('.github/instructions/ts.instructions.md');
    const human = runCli(['rules', 'explain', dir, '--path', 'pkg/src/a.ts', '--agent', 'copilot', '--data-dir', dataDir], env);
    expect(human.stdout).toContain('Copilot (VS Code, modelled from its docs)');
    expect(human.stdout).toContain('not proven');
  });

  it('the plain-text agent view names every file the agent could see, a link outside the workspace included, and counts start bytes apart from on-read ones', { timeout: 120_000 }, () => {
    const outside = tempDir('atrium-outside-');
    fs.writeFileSync(path.join(outside, 'secret.md'), 'outside text');
    const dir = makeRepo({ 'CLAUDE.md': 'root claude', 'GEMINI.md': 'gemini only', 'pkg/CLAUDE.md': 'pkg claude', 'pkg/a.ts': '' });
    fs.mkdirSync(path.join(dir, '.claude', 'rules'), { recursive: true });
    fs.symlinkSync(path.join(outside, 'secret.md'), path.join(dir, '.claude', 'rules', 'linked.md'));
    const env = { HOME: makeHome() };
    const dataDir = tempDir('atrium-cli-data-');
    expect(runCli(['trust', 'set', dir, 'trusted', '--data-dir', dataDir], env).status).toBe(0);
    const human = runCli(['rules', 'explain', dir, '--path', 'pkg/a.ts', '--agent', 'claude', '--data-dir', dataDir], env);
    expect(human.status, human.stderr).toBe(0);
    expect(human.stdout).toContain('Not loaded:');
    expect(human.stdout).toMatch(/GEMINI\.md .*\[ignored\]/);
    expect(human.stdout).toMatch(/\.claude\/rules\/linked\.md .*\[restricted\] Links to .*secret\.md \(outside the workspace\)/);
    expect(human.stdout).not.toContain('outside text');
    expect(human.stdout).toContain('Loaded: 11 B at start, 10 B on reading the path');
  });
});
