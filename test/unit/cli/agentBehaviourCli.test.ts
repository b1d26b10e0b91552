import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../src/main/core/engine';
import { agentBehaviourLines } from '../../../src/shared/agentBehaviourText';
import type { AgentBehaviour } from '../../../src/shared/contract';
import { runCli } from '../../support/cli';
import { scriptedAgentCommand, testDispatcher } from '../../support/sessions';
import { tempDir } from '../../support/tempDir';

/** `atrium session new` says, before launching, what the new-session dialog says about the agent. */

function world() {
  const base = tempDir('atrium-behaviour-cli-');
  const home = path.join(base, 'home');
  const ws = path.join(home, 'ws');
  fs.mkdirSync(ws, { recursive: true });
  return { base, home, ws, dataDir: path.join(base, 'data') };
}

/** What the dialog gets: the `sessions.agentBehaviour` answer of an engine on the same data dir. */
async function dialogBehaviour(dataDir: string, home: string, agentId: string): Promise<AgentBehaviour> {
  const engine = createEngine({ dataDir, homeDir: home, watchResources: false, watchHooks: false, sessions: { envPath: '' } });
  try {
    return (await testDispatcher(engine).call('sessions.agentBehaviour', { agentId })).behaviour;
  } finally {
    await engine.close();
  }
}

describe('atrium session new prints what Atrium enforces for the agent before it launches', () => {
  it('a command line Atrium cannot identify: a warning first, the same lines in --json as the dialog data, also in the final object', async () => {
    const w = world();
    const { command, args } = scriptedAgentCommand(w.base, {});
    const cmdline = [command, ...args].map((a) => `'${a}'`).join(' ');
    const json = runCli(['session', 'new', w.ws, '--agent-command', cmdline, '--agent', 'wrapped', '--prompt', 'hello', '--json', '--data-dir', w.dataDir], { HOME: w.home });
    expect(json.status, json.stderr).toBe(0);
    const out = json.stdout.trim().split('\n').map((l) => JSON.parse(l) as { event?: string; behaviour?: AgentBehaviour; lines?: string[]; agentBehaviour?: { lines: string[] } });
    expect(out[0].event).toBe('agentBehaviour');
    const behaviour = await dialogBehaviour(w.dataDir, w.home, 'wrapped');
    expect(out[0].behaviour).toEqual(behaviour);
    expect(out[0].lines).toEqual(agentBehaviourLines(behaviour));
    expect(out[0].lines![0]).toBe('Warning: Atrium cannot enforce approvals for wrapped.');
    expect(out[0].lines!.join('\n')).toContain("may still load and run the repository's own hooks and MCP servers");
    expect(out.at(-1)!.agentBehaviour?.lines).toEqual(out[0].lines);

    const human = runCli(['session', 'new', w.ws, '--agent', 'wrapped', '--prompt', 'hello', '--data-dir', w.dataDir], { HOME: w.home });
    expect(human.status, human.stderr).toBe(0);
    const expected = agentBehaviourLines(behaviour).join('\n');
    expect(human.stderr).toContain(expected);
    expect(human.stderr.indexOf(expected)).toBeLessThan(human.stderr.indexOf('Session '));
    expect(human.stderr).not.toMatch(/\b(skipped|withheld)\b/);
  }, 90_000);

  it('presets: Claude and OpenCode say what is enforced; Qwen warns before launch, even when the agent then fails to start', async () => {
    const w = world();
    for (const [id, heading, mentions] of [
      ['claude', 'What Atrium enforces for Claude Code:', 'settingSources = []'],
      ['opencode', 'What Atrium enforces for OpenCode:', 'OPENCODE_DISABLE_PROJECT_CONFIG=1'],
      ['qwen', 'Warning: Atrium cannot enforce approvals for Qwen Code.', '.qwen/settings.json'],
    ] as const) {
      // not installed here: the command fails, after saying what it would have enforced
      const run = runCli(['session', 'new', w.ws, '--agent', id, '--data-dir', w.dataDir], { HOME: w.home, PATH: '/nonexistent' });
      expect(run.status).not.toBe(0);
      const lines = agentBehaviourLines(await dialogBehaviour(w.dataDir, w.home, id));
      expect(lines[0]).toBe(heading);
      expect(run.stderr).toContain(lines.join('\n'));
      expect(run.stderr).toContain(mentions);
    }
  }, 90_000);
});
