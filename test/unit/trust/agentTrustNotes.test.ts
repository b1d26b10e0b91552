import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentTrustLines } from '../../../src/main/cli/commands/trust';
import { AGENT_PRESETS } from '../../../src/main/core/sessions/presets';
import { isolationFor } from '../../../src/main/core/sessions/workspacePolicy/agentIsolation';
import type { AgentTrustNote } from '../../../src/shared/contract';
import { runCli } from '../../support/cli';
import { tempDir } from '../../support/tempDir';

/** The trust review says per agent what trusting the folder lets it load by itself when Atrium launches it. */
describe('atrium trust review: what each agent loads by itself', () => {
  it('lists every preset and user-defined agent with its whenTrusted lines, in --json and in the human output', () => {
    const base = tempDir('atrium-trust-agents-');
    const home = path.join(base, 'home');
    const ws = path.join(home, 'src', 'proj');
    fs.mkdirSync(ws, { recursive: true });
    fs.writeFileSync(path.join(ws, 'AGENTS.md'), 'Be kind.\n');
    const dataDir = path.join(base, 'data');
    // a user agent that is codex-acp by path, and a wrapper Atrium cannot identify
    const entry = path.join(base, 'lib', 'node_modules', '@agentclientprotocol', 'codex-acp', 'dist', 'index.js');
    fs.mkdirSync(path.dirname(entry), { recursive: true });
    fs.writeFileSync(entry, '');
    const env = { HOME: home };
    expect(runCli(['agents', 'define', 'my-codex', process.execPath, '--name', 'My Codex', '--data-dir', dataDir, '--', entry], env).status).toBe(0);
    expect(runCli(['agents', 'define', 'wrapper', path.join(base, 'run-agent.sh'), '--data-dir', dataDir], env).status).toBe(0);

    const json = runCli(['trust', 'review', ws, '--json', '--data-dir', dataDir], env);
    expect(json.status, json.stderr).toBe(0);
    const review = json.json as { state: string; counts: { instruction: number }; agents: AgentTrustNote[] };
    expect(review.state).toBe('undecided');
    expect(review.counts.instruction).toBe(1); // the review itself is unchanged
    expect(review.agents.map((a) => a.agentId)).toEqual([...AGENT_PRESETS.map((p) => p.id), 'my-codex', 'wrapper']);
    for (const p of AGENT_PRESETS) {
      const iso = isolationFor(p.id, { preset: p, recognised: null });
      expect(review.agents.find((a) => a.agentId === p.id)).toEqual({ agentId: p.id, name: p.name, isolated: iso.isolated, whenTrusted: iso.whenTrusted });
    }
    const byId = (id: string) => review.agents.find((a) => a.agentId === id)!;
    expect(byId('claude').whenTrusted[0]).toMatch(/^Nothing of its own/);
    expect(byId('my-codex')).toMatchObject({ name: 'My Codex (Codex)', whenTrusted: byId('codex').whenTrusted });
    expect(byId('wrapper')).toMatchObject({ name: 'wrapper', isolated: false });
    expect(byId('wrapper').whenTrusted.join(' ')).toContain('Atrium cannot enforce approvals for it');
    expect(byId('qwen')).toMatchObject({ isolated: false });

    const human = runCli(['trust', 'review', ws, '--data-dir', dataDir], env);
    expect(human.status, human.stderr).toBe(0);
    expect(human.stdout).toContain(agentTrustLines(review.agents).join('\n'));
    expect(human.stdout).toContain('  Qwen Code (! approvals not enforced):');
    expect(human.stdout).toContain(`  Claude Code:\n    - ${byId('claude').whenTrusted[0]}`);
  }, 60_000);
});
