import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli';
import { scriptedAgentCommand } from '../../support/sessions';
import { tempDir } from '../../support/tempDir';

interface Line {
  event?: string;
  stopReason?: string;
  session?: { id: string; agentId: string; cwd: string };
}
const lines = (stdout: string) => stdout.trim().split('\n').map((l) => JSON.parse(l) as Line);

describe('atrium agents / atrium session', () => {
  it('lists agents, runs a session with the fixture agent, prompts it again, lists and shows it', () => {
    const base = tempDir('atrium-cli-');
    const ws = path.join(base, 'ws');
    fs.mkdirSync(ws);
    const dataDir = path.join(base, 'data');
    const { command, args } = scriptedAgentCommand(base, {
      capabilities: { loadSession: true, resume: true },
      turns: [{ match: 'write', steps: [{ text: 'writing' }, { permission: { title: 'Write notes.txt', kind: 'edit' } }, { write: { path: '{{cwd}}/notes.txt', content: 'from cli' } }] }],
    });
    const cmdline = [command, ...args].map((a) => `'${a}'`).join(' ');

    const agents = runCli(['agents', 'list', '--json', '--data-dir', dataDir]);
    expect(agents.status).toBe(0);
    expect((agents.json as { agents: Array<{ id: string }> }).agents.map((a) => a.id)).toEqual(['claude', 'codex', 'gemini', 'opencode', 'qwen']);

    const created = runCli(['session', 'new', ws, '--agent-command', cmdline, '--agent', 'fixture', '--prompt', 'please write', '--on-permission', 'allow-once', '--json', '--data-dir', dataDir]);
    expect(created.status, created.stderr).toBe(0);
    const out = lines(created.stdout);
    expect(out.slice(0, -1).every((l) => typeof l.event === 'string')).toBe(true);
    expect(out.some((l) => l.event === 'permissionRequested')).toBe(true);
    const last = out.at(-1)!;
    expect(last.stopReason).toBe('end_turn');
    expect(last.session).toMatchObject({ agentId: 'fixture', cwd: ws });
    expect(fs.readFileSync(path.join(ws, 'notes.txt'), 'utf8')).toBe('from cli');
    const id = last.session!.id;

    const prompted = runCli(['session', 'prompt', id, 'hello again', '--data-dir', dataDir]);
    expect(prompted.status, prompted.stderr).toBe(0);
    expect(prompted.stdout).toContain('echo: hello again');
    expect(prompted.stdout).toContain('Resumed the agent session');

    const listed = runCli(['session', 'list', ws, '--json', '--data-dir', dataDir]);
    expect((listed.json as { sessions: Array<{ id: string; state: string }> }).sessions.map((s) => [s.id, s.state])).toEqual([[id, 'idle']]);

    const shown = runCli(['session', 'show', id, '--json', '--data-dir', dataDir]);
    const show = shown.json as { session: { resume: { outcome: string } }; transcript: { items: Array<{ kind: string }> } };
    expect(show.session.resume.outcome).toBe('resumed');
    expect(show.transcript.items.filter((i) => i.kind === 'user_message')).toHaveLength(2);
    const human = runCli(['session', 'show', id, '--data-dir', dataDir]);
    expect(human.stdout).toContain('[permission] Write notes.txt: allow');

    const rejecting = runCli(['session', 'prompt', id, 'write again', '--on-permission', 'reject', '--data-dir', dataDir]);
    expect(rejecting.stdout).toContain('permission: reject');

    expect(runCli(['session', 'show', 'nope', '--data-dir', dataDir]).status).toBe(1);
    expect(runCli(['session', 'new', ws, '--data-dir', dataDir]).status).toBe(2);
    expect(runCli(['session', 'new', ws, '--agent', 'fixture', '--on-permission', 'maybe', '--data-dir', dataDir]).status).toBe(2);
  }, 120_000);

  it('prints a tool call first announced in a permission request (as Gemini CLI 0.61.0 asks) by the request\'s title, never its id', () => {
    const base = tempDir('atrium-cli-');
    const ws = path.join(base, 'ws');
    fs.mkdirSync(ws);
    const dataDir = path.join(base, 'data');
    const { command, args } = scriptedAgentCommand(base, {
      turns: [
        {
          match: 'write',
          steps: [
            { permission: { toolCallId: 'write_file__call_7', title: 'Writing to notes.md', kind: 'edit', locations: [{ path: '{{cwd}}/notes.md' }] } },
            // Gemini's update after running the tool repeats nothing when it failed: no title, no locations
            { toolUpdate: { id: 'write_file__call_7', status: 'failed' } },
          ],
        },
      ],
    });
    const cmdline = [command, ...args].map((a) => `'${a}'`).join(' ');
    const run = runCli(['session', 'new', ws, '--agent-command', cmdline, '--agent', 'fixture', '--prompt', 'please write', '--on-permission', 'allow-once', '--data-dir', dataDir]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`[tool] Writing to notes.md (edit) failed  ${path.join(ws, 'notes.md')}`);
    expect(run.stdout).not.toContain('write_file__call_7');
  }, 120_000);
});
