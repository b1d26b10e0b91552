import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { installDir, readInstallMarker } from '../../../src/main/core/sessions/installer';
import { recogniseAgentCommand } from '../../../src/main/core/sessions/knownAgents';
import { AGENT_PRESETS } from '../../../src/main/core/sessions/presets';
import { behaviourOf, isolationFor, notIsolatedNotice, notRunWording } from '../../../src/main/core/sessions/workspacePolicy/agentIsolation';
import { AGENT_CACHE, presetOf } from '../../support/agents';
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
    expect(idOf('codex-acp', [])).toBeNull(); // Zed's Rust adapter and forks use this name too
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

  it("codex-acp and Gemini CLI as npm lays them out (global install with .bin symlinks), by node, by path, on PATH, through runners", () => {
    // a global npm install: <prefix>/lib/node_modules/<package>, bins linked from <prefix>/bin
    const prefix = tempDir('atrium-known-');
    const layout = (pkg: string, entry: string, bin: string) => {
      const file = path.join(prefix, 'lib', 'node_modules', pkg, entry);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, '#!/usr/bin/env node\n');
      fs.mkdirSync(path.join(prefix, 'bin'), { recursive: true });
      fs.symlinkSync(file, path.join(prefix, 'bin', bin));
      return file;
    };
    const codexEntry = layout('@agentclientprotocol/codex-acp', 'dist/index.js', 'codex-acp');
    const geminiEntry = layout('@google/gemini-cli', 'bundle/gemini.js', 'gemini');
    const bin = path.join(prefix, 'bin');
    expect(idOf('node', [codexEntry])).toBe('codex');
    expect(idOf(process.execPath, ['--no-warnings', geminiEntry, '--acp'])).toBe('gemini');
    expect(idOf(path.join(bin, 'codex-acp'), [])).toBe('codex');
    expect(idOf('codex-acp', [], bin)).toBe('codex'); // on PATH, its symlink leads into the package
    expect(idOf('gemini', ['--acp'], bin)).toBe('gemini');
    expect(idOf('node', [path.join(bin, 'gemini'), '--acp'])).toBe('gemini');
    for (const [cmd, args, id] of [
      ['npx', ['-y', '@agentclientprotocol/codex-acp@2.6.0'], 'codex'],
      ['bunx', ['@agentclientprotocol/codex-acp'], 'codex'],
      ['npx', ['-y', '@google/gemini-cli@0.61.0', '--acp'], 'gemini'],
      ['bunx', ['@google/gemini-cli', '--acp'], 'gemini'],
      ['pnpm', ['dlx', '@google/gemini-cli', '--acp'], 'gemini'],
    ] as const) {
      expect(idOf(cmd, [...args]), `${cmd} ${args.join(' ')}`).toBe(id);
    }
    // codex-acp's Bun-compiled release binaries, by their published names
    for (const name of ['codex-acp-x64-linux', 'codex-acp-arm64-darwin', 'codex-acp-x64-windows.exe']) {
      expect(recogniseAgentCommand(path.join('/opt/tools', name), [], AGENT_PRESETS, '')).toMatchObject({ preset: { id: 'codex' }, how: expect.stringContaining('native release binary') });
    }
    // OpenCode's native binary comes from a platform package beside opencode-ai
    const opencode = path.join(prefix, 'lib', 'node_modules', 'opencode-ai', 'node_modules', 'opencode-linux-x64', 'bin', 'opencode');
    fs.mkdirSync(path.dirname(opencode), { recursive: true });
    fs.writeFileSync(opencode, '', { mode: 0o755 });
    fs.symlinkSync(opencode, path.join(bin, 'opencode'));
    expect(idOf('opencode', ['acp'], bin)).toBe('opencode');
    expect(idOf('/home/u/.opencode/bin/opencode', ['acp'])).toBeNull(); // the same name elsewhere: not known to be it
    expect(idOf('npx', ['-y', '@qwen-code/qwen-code@0.24.4', '--acp'])).toBe('qwen');
    // a wrapper script that runs the adapter is a different program as far as Atrium can tell
    const wrapper = path.join(prefix, 'run-codex.sh');
    fs.writeFileSync(wrapper, `#!/bin/sh\nexec node ${codexEntry} "$@"\n`, { mode: 0o755 });
    expect(idOf(wrapper, [])).toBeNull();
    expect(idOf('sh', [wrapper])).toBeNull();
    expect(idOf('codex-acp-x64-linux-wrapper', [])).toBeNull();
  });

  it('the pinned installs in the agent cache (when present) are recognised by their real entry files', () => {
    let checked = 0;
    for (const id of ['codex', 'gemini']) {
      const marker = readInstallMarker(AGENT_CACHE, presetOf(id));
      if (!marker) continue; // not installed on this machine yet: the layout test above covers the shape
      expect(idOf(process.execPath, [marker.entry, ...presetOf(id).args]), marker.entry).toBe(id);
      const dotBin = path.join(installDir(AGENT_CACHE, presetOf(id)), 'node_modules', '.bin');
      checked++;
      expect(idOf(presetOf(id).bin, [], dotBin), dotBin).toBe(id);
    }
    if (process.env.ATRIUM_TEST_AGENT_CACHE) expect(checked, `both presets installed in ${AGENT_CACHE}`).toBe(2);
  });

  it('what each preset lets the agent load when trusted, and the notice for an agent Atrium does not isolate', () => {
    for (const preset of AGENT_PRESETS) {
      const b = behaviourOf(isolationFor(preset.id, { preset, recognised: null }));
      expect(b.name).toBe(preset.name);
      expect(b.whenTrusted.length, preset.id).toBeGreaterThan(0);
      expect(b.whenTrusted.join(' '), preset.id).not.toMatch(/\b(skipped|withheld)\b/);
    }
    const claude = behaviourOf(isolationFor('claude', { preset: presetOf('claude'), recognised: null }));
    expect(claude.whenTrusted[0]).toMatch(/^Nothing of its own/);
    expect(behaviourOf(isolationFor('codex', { preset: presetOf('codex'), recognised: null })).whenTrusted.join(' ')).toContain('AGENTS.md');
    expect(behaviourOf(isolationFor('gemini', { preset: presetOf('gemini'), recognised: null })).whenTrusted.join(' ')).toContain('GEMINI.md');
    const qwen = behaviourOf(isolationFor('qwen', { preset: presetOf('qwen'), recognised: null }));
    expect(qwen).toMatchObject({ isolated: false, switches: [] });
    expect(qwen.whenTrusted.join(' ')).toContain('approvals are not enforced');
    const opencode = isolationFor('opencode', { preset: presetOf('opencode'), recognised: null });
    expect(opencode).toMatchObject({ isolated: true, claudeBridge: false, nativeRuleFormats: [], launchEnv: { OPENCODE_DISABLE_PROJECT_CONFIG: '1', OPENCODE_DISABLE_EXTERNAL_SKILLS: '1' } });
    expect(opencode.whenTrusted[0]).toMatch(/^Nothing of the repository's own/);
    expect(JSON.parse(opencode.launchEnv.OPENCODE_PERMISSION)).toEqual({ edit: 'ask', bash: 'ask' });
    // a recognised command line is named after its id and the preset
    expect(isolationFor('my-codex', { preset: presetOf('codex'), recognised: 'the command runs @agentclientprotocol/codex-acp (node x)' }).name).toBe('my-codex (Codex)');
    const unknown = isolationFor('wrapper', null);
    expect(unknown.name).toBe('wrapper');
    const notice = notIsolatedNotice(unknown);
    expect(notice).toMatchObject({ severity: 'warning', code: 'agent_not_isolated', title: 'Atrium cannot enforce approvals for wrapper: it may load and run workspace configuration by itself' });
    expect(notice.detail).toContain("may still load and run the repository's own hooks and MCP servers");
    expect(`${notice.title} ${notice.detail}`).not.toMatch(/\b(skipped|withheld)\b/);
  });
});
