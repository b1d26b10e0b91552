import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../src/main/core/engine';
import type { AgentPreset } from '../../../src/main/core/sessions/presets';
import type { AgentInstallProgress } from '../../../src/shared/contract';
import { tempDir } from '../../support/tempDir';

const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
});

/** A tiny npm package tarball with a `bin`, so installs run offline. */
function fakeAgentTarball(version: string): string {
  const dir = tempDir('atrium-pkg-');
  const pkg = path.join(dir, 'pkg');
  fs.mkdirSync(path.join(pkg, 'bin'), { recursive: true });
  fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'fake-acp-agent', version, bin: { 'fake-acp': 'bin/agent.js' } }));
  fs.writeFileSync(path.join(pkg, 'bin/agent.js'), '#!/usr/bin/env node\nprocess.stdin.resume();\n');
  execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: pkg, stdio: 'ignore' });
  return path.join(dir, `fake-acp-agent-${version}.tgz`);
}

function preset(over: Partial<AgentPreset>): AgentPreset {
  return { id: 'fake', name: 'Fake', description: 'test agent', package: 'fake-acp-agent', version: '1.2.3', bin: 'fake-acp', launch: 'node', args: ['--acp'], env: { FAKE: '1' }, allowScripts: [], initialModeId: null, ...over };
}

describe('agent presets: on-demand install into the data directory', () => {
  it('installs the pinned version with progress, then launches it as `node <entry>` (never npx)', async () => {
    const dataDir = path.join(tempDir(), 'data');
    const engine = createEngine({ dataDir, watchResources: false, sessions: { presets: [preset({ installSpec: fakeAgentTarball('1.2.3') })], envPath: '' } });
    engines.push(engine);
    const progress: AgentInstallProgress[] = [];
    engine.bus.subscribe((event, payload) => event === 'agentInstallProgress' && progress.push(payload as AgentInstallProgress));
    expect(engine.sessions.agents.get('fake').install.state).toBe('available');
    expect(() => engine.sessions.agents.resolve('fake')).toThrow(/not installed.*atrium agents install fake/);
    const [a, b] = await Promise.all([engine.sessions.agents.install('fake'), engine.sessions.agents.install('fake')]);
    expect(a).toEqual(b);
    expect(a.install).toMatchObject({ state: 'installed', source: 'data-dir', path: path.join(dataDir, 'agents', 'fake@1.2.3') });
    expect(progress[0]).toMatchObject({ agentId: 'fake', version: '1.2.3', phase: 'started' });
    expect(progress.at(-1)).toMatchObject({ phase: 'done', agent: { install: { state: 'installed' } } });
    expect(progress.filter((p) => p.phase === 'started')).toHaveLength(1);
    const launch = engine.sessions.agents.resolve('fake');
    expect(launch.command).toBe(process.execPath);
    expect(launch.args).toEqual([path.join(dataDir, 'agents/fake@1.2.3/node_modules/fake-acp-agent/bin/agent.js'), '--acp']);
    expect(launch.env).toEqual({ FAKE: '1' });
    expect(fs.readdirSync(path.join(dataDir, 'agents'))).toEqual(['fake@1.2.3']);
    // per-agent variables are merged after the preset's; names only are reported
    expect(engine.sessions.agents.setEnv('fake', { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' }).envNames).toEqual(['ANTHROPIC_BASE_URL', 'FAKE']);
    expect(engine.sessions.agents.resolve('fake').env).toEqual({ FAKE: '1', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' });
  }, 60_000);

  it('refuses a version other than the pinned one and leaves nothing half-installed', async () => {
    const dataDir = path.join(tempDir(), 'data');
    const engine = createEngine({ dataDir, watchResources: false, sessions: { presets: [preset({ installSpec: fakeAgentTarball('9.9.9') })], envPath: '' } });
    engines.push(engine);
    await expect(engine.sessions.agents.install('fake')).rejects.toThrow(/npm installed version 9.9.9, but 1.2.3 is pinned/);
    expect(fs.readdirSync(path.join(dataDir, 'agents'))).toEqual([]);
    expect(engine.sessions.agents.get('fake').install).toMatchObject({ state: 'available', error: expect.stringContaining('9.9.9') });
  }, 60_000);

  it('uses a binary of the same name on PATH when the pinned install is absent', () => {
    const bin = tempDir('atrium-bin-');
    fs.writeFileSync(path.join(bin, 'fake-acp'), '#!/bin/sh\n', { mode: 0o755 });
    const engine = createEngine({ dataDir: path.join(tempDir(), 'data'), watchResources: false, sessions: { presets: [preset({})], envPath: bin } });
    engines.push(engine);
    expect(engine.sessions.agents.get('fake').install).toMatchObject({ state: 'installed', source: 'path', path: path.join(bin, 'fake-acp') });
    expect(engine.sessions.agents.resolve('fake')).toMatchObject({ command: path.join(bin, 'fake-acp'), args: ['--acp'] });
  });

  it('lists the built-in presets with pinned versions and stores user-defined agents', () => {
    const engine = createEngine({ dataDir: path.join(tempDir(), 'data'), watchResources: false, sessions: { envPath: '' } });
    engines.push(engine);
    const list = engine.sessions.agents.list();
    expect(list.map((a) => [a.id, a.version])).toEqual([
      ['claude', '0.101.0'],
      ['codex', '2.6.0'],
      ['gemini', '0.61.0'],
      ['opencode', '1.18.33'],
      ['qwen', '0.24.4'],
    ]);
    expect(list.every((a) => a.install.state === 'available')).toBe(true);
    // whether Atrium isolates each one is known before it is installed (the picker marks the others)
    expect(list.map((a) => [a.id, a.isolated])).toEqual([
      ['claude', true],
      ['codex', true],
      ['gemini', true],
      ['opencode', true],
      ['qwen', false],
    ]);
    engine.sessions.agents.define({ id: 'mine', command: process.execPath, args: ['agent.js'], env: { K: 'v' } });
    expect(engine.sessions.agents.get('mine').isolated, 'an agent Atrium cannot identify').toBe(false);
    expect(engine.sessions.agents.get('mine')).toMatchObject({ kind: 'user', install: { state: 'installed', source: 'command' }, envNames: ['K'] });
    expect(() => engine.sessions.agents.define({ id: 'claude', command: 'x', args: [], env: {} })).toThrow(/built-in preset/);
    expect(engine.sessions.agents.remove('claude')).toBe(false);
    expect(engine.sessions.agents.remove('mine')).toBe(true);
  });
});
