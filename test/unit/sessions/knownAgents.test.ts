import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { recogniseAgentCommand } from '../../../src/main/core/sessions/knownAgents';
import { AGENT_PRESETS } from '../../../src/main/core/sessions/presets';
import { isolationFor, notRunWording } from '../../../src/main/core/sessions/workspacePolicy/agentIsolation';
import { repoRoot } from '../../support/corpus';
import { tempDir } from '../../support/tempDir';

const CLAUDE_PKG = path.join(repoRoot, 'node_modules', '@agentclientprotocol', 'claude-agent-acp');
const idOf = (command: string, args: string[], envPath = '') => recogniseAgentCommand(command, args, AGENT_PRESETS, envPath)?.preset.id ?? null;

describe('recognising a preset agent behind a user-defined command line', () => {
  it('the Claude ACP adapter: by path with node (options before it), its bin (path, symlink, on PATH) and package runners', () => {
    const entry = path.join(CLAUDE_PKG, 'dist', 'index.js');
    expect(fs.existsSync(entry)).toBe(true);
    expect(idOf(process.execPath, [entry])).toBe('claude');
    expect(idOf('node', ['--import', '/x/loader.mjs', '--no-warnings', entry, '--flag'])).toBe('claude');
    expect(idOf('/usr/local/bin/node', ['--', entry])).toBe('claude');
    expect(idOf(path.join(repoRoot, 'node_modules', '.bin', 'claude-agent-acp'), [])).toBe('claude');
    expect(idOf('claude-agent-acp', [], path.join(repoRoot, 'node_modules', '.bin'))).toBe('claude');
    expect(idOf('claude-agent-acp', [])).toBe('claude'); // the bin's own name, wherever it lives
    // a symlink elsewhere pointing into the package
    const link = path.join(tempDir(), 'my-agent.js');
    fs.symlinkSync(entry, link);
    expect(idOf('node', [link])).toBe('claude');
    for (const [cmd, args] of [
      ['npx', ['-y', '@agentclientprotocol/claude-agent-acp']],
      ['npx', ['@agentclientprotocol/claude-agent-acp@0.101.0']],
      ['npx', ['--yes', '--package', '@agentclientprotocol/claude-agent-acp', 'claude-agent-acp']],
      ['npx', ['--package=@agentclientprotocol/claude-agent-acp@latest', 'claude-agent-acp']],
      ['/usr/bin/npx', ['@agentclientprotocol/claude-agent-acp', '--debug']],
      ['pnpm', ['dlx', '@agentclientprotocol/claude-agent-acp']],
      ['npm', ['exec', '--yes', '--', '@agentclientprotocol/claude-agent-acp']],
      ['bunx', ['@agentclientprotocol/claude-agent-acp']],
    ] as const) {
      expect(idOf(cmd, [...args]), `${cmd} ${args.join(' ')}`).toBe('claude');
    }
  });

  it('other presets by package, and nothing for commands it cannot identify', () => {
    expect(idOf('npx', ['-y', '@agentclientprotocol/codex-acp'])).toBe('codex');
    expect(idOf('npx', ['@google/gemini-cli', '--acp'])).toBe('gemini');
    expect(idOf('node', ['/opt/x/node_modules/@google/gemini-cli/dist/index.js', '--acp'])).toBe('gemini');
    expect(idOf('gemini', ['--acp'])).toBeNull(); // a plain name that is not the package's file: unknown
    expect(idOf('node', ['-e', 'require("@agentclientprotocol/claude-agent-acp")'])).toBeNull();
    expect(idOf('node', ['/work/my-agent.js'])).toBeNull();
    expect(idOf('npx', ['-c', 'claude-agent-acp'])).toBeNull();
    expect(idOf('npx', ['--package', '@agentclientprotocol/claude-agent-acp', 'other-bin'])).toBeNull();
    expect(idOf('npx', ['@agentclientprotocol/claude-agent-acp-fork'])).toBeNull();
    expect(idOf('python3', ['agent.py'])).toBeNull();
    expect(idOf('pnpm', ['@agentclientprotocol/claude-agent-acp'])).toBeNull();
  });

  it('a recognised command gets the preset isolation and says why; an unknown one is not isolated and says what it cannot stop', () => {
    const claude = AGENT_PRESETS.find((p) => p.id === 'claude')!;
    const recognised = isolationFor('my-claude', { preset: claude, recognised: 'the command runs @agentclientprotocol/claude-agent-acp (node x)' });
    expect(recognised).toMatchObject({ agentId: 'my-claude', isolated: true, claudeBridge: true });
    expect(recognised.ownBehaviour[0]).toContain('Recognised as Claude Code');
    expect(recognised.switches).toEqual(isolationFor('claude', { preset: claude, recognised: null }).switches);
    expect(isolationFor('claude', { preset: claude, recognised: null }).switches[0]).toContain('settingSources = []');
    const unknown = isolationFor('mine', null);
    expect(unknown).toMatchObject({ isolated: false, claudeBridge: false });
    expect(unknown.ownBehaviour.join(' ')).toContain("may still load and run the repository's own hooks and MCP servers");
    expect(notRunWording(recognised)).toMatchObject({ hooks: 'skipped', mcp: 'withheld', hooksCaveat: null });
    expect(notRunWording(unknown)).toMatchObject({ hooks: 'not run by Atrium', mcp: 'not passed by Atrium' });
  });
});
