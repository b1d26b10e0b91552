import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli';
import { repoRoot } from '../../support/corpus';
import { writeFiles, worldDirs } from '../../support/policy';
import { scriptedAgentCommand } from '../../support/sessions';

/**
 * `atrium session` as a trial user met it: the README's scripted agent (ui-tour scenario) in a
 * trusted workspace with an unapproved http hook and a command hook. A permission answered by
 * `--on-permission` is printed once and attributed to the policy, the state says in words that the
 * agent still runs, skipped hooks show what they call (URL or command), the typed title survives the
 * agent's, and `session rename` sets it.
 */
describe('atrium session: what a trial user tripped on', () => {
  it('prints a policy answer once, says "agent running", lists skipped hooks with their URL, keeps the typed title', () => {
    const { base, home, ws, dataDir } = worldDirs('atrium-cli-trial-');
    writeFiles(ws, {
      'AGENTS.md': 'Always write tests first; ask before deleting.\n',
      '.claude/settings.json': {
        hooks: {
          Stop: [{ hooks: [{ type: 'http', url: 'https://hooks.example.com/stop' }] }],
          PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: 'echo checked' }] }],
        },
      },
    });
    const env = { HOME: home };
    const scenario = JSON.parse(fs.readFileSync(path.join(repoRoot, 'test/fixtures/agents/scenarios/ui-tour.json'), 'utf8')) as Record<string, unknown>;
    const { command, args } = scriptedAgentCommand(base, scenario, 'ui-tour');
    expect(runCli(['trust', 'set', ws, 'trusted', '--data-dir', dataDir], env).status).toBe(0);
    expect(runCli(['agents', 'define', 'scripted', '--data-dir', dataDir, command, '--', ...args], env).status).toBe(0);

    const run = runCli(['session', 'new', ws, '--agent', 'scripted', '--title', 'Handover test', '--prompt', 'write', '--on-permission', 'allow-once', '--data-dir', dataDir], env);
    expect(run.status, run.stderr).toBe(0);
    const out = run.stdout;
    // one line for the answer, attributed to the policy (nobody clicked anything)
    expect(out.match(/\[permission\]/g)).toHaveLength(1);
    expect(out).toContain('[permission] Write notes.md: allow (--on-permission allow-once)');
    expect(out).not.toContain('by user');
    // the agent's own report and the write's result are two lines, not "permission: allowwrite ok"
    const lines = out.split('\n');
    expect(lines).toContain('permission: allow');
    expect(lines).toContain('write ok');
    // skipped hooks say what they would call
    expect(out).toContain('Stop .claude/settings.json: POST https://hooks.example.com/stop (unapproved)');
    expect(out).toContain('PreToolUse .claude/settings.json: echo checked (unapproved)');
    // the state is in words, and the title typed with --title is the one kept
    const summary = lines.find((l) => l.includes('Handover test'));
    expect(summary).toMatch(/ {2}idle, agent running {2}scripted {2}/);
    expect(out).not.toMatch(/idle\*/);
    const id = summary!.split(' ')[0];

    const listed = runCli(['session', 'list', ws, '--data-dir', dataDir], env);
    expect(listed.stdout).toContain('Handover test');
    expect(listed.stdout).not.toContain('Write the notes');
    expect(listed.stdout).not.toContain('agent running'); // this process hosts no agent

    const shown = runCli(['session', 'show', id, '--data-dir', dataDir], env);
    expect(shown.stdout).toContain("[permission] Write notes.md: allow (by a terminal's --on-permission)");

    const renamed = runCli(['session', 'rename', id, 'Notes session', '--json', '--data-dir', dataDir], env);
    expect(renamed.status, renamed.stderr).toBe(0);
    expect((renamed.json as { session: { title: string } }).session.title).toBe('Notes session');
    expect(runCli(['session', 'list', '--data-dir', dataDir], env).stdout).toContain('Notes session');
  }, 120_000);
});
