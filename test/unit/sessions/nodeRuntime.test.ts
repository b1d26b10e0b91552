import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../src/main/core/engine';
import { shellQuote } from '../../../src/main/core/formats/shell/quote';
import { nodeRuntime } from '../../../src/main/core/process/nodeRuntime';
import { INSTALL_MARKER, installDir } from '../../../src/main/core/sessions/installer';
import type { AgentPreset } from '../../../src/main/core/sessions/presets';
import { ClaudeHookBridge } from '../../../src/main/core/sessions/workspacePolicy/claudeBridge';
import { AtriumError } from '../../../src/shared/errors';
import { fakeNodeDir } from '../../support/fakeNode';
import { tempDir } from '../../support/tempDir';

/**
 * Which Node runs Node programs. Inside Electron the app's own binary is never used (the packaged
 * app has the RunAsNode fuse off): `ATRIUM_NODE`, else `node` on PATH, else a clear error. The
 * Electron branch runs here under plain Node through the `electron` option.
 */

const MISSING = 'Agents that are Node programs need Node.js 20 or newer on PATH in the desktop app (agents are installed with npm, which comes with it); install Node.js or set ATRIUM_NODE to its path.';

/** Runs `command` with `sh -c` (asynchronously: the bridge answers from this process), `input` on stdin. */
function runShell(command: string, input: string, env: NodeJS.ProcessEnv): Promise<{ stdout: string; status: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { env, stdio: ['pipe', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ stdout, status }));
    child.stdin.end(input);
  });
}

const thrown = (fn: () => unknown): AtriumError => {
  try {
    fn();
  } catch (error) {
    return error as AtriumError;
  }
  throw new Error('expected a throw');
};

describe('nodeRuntime', () => {
  it('under plain Node is the Node running Atrium, whatever PATH holds', () => {
    expect(nodeRuntime({ electron: false, envPath: '', env: { ATRIUM_NODE: '/nowhere/node' } })).toBe(process.execPath);
    expect(nodeRuntime()).toBe(process.execPath);
  });

  it('inside Electron is node on PATH, never the app binary', () => {
    const a = fakeNodeDir();
    const empty = tempDir('atrium-empty-');
    expect(nodeRuntime({ electron: true, envPath: [empty, a.dir].join(path.delimiter), env: {} })).toBe(a.file);
    // env.PATH when no envPath is given
    expect(nodeRuntime({ electron: true, env: { PATH: a.dir } })).toBe(a.file);
    // a file named node that is not executable is skipped
    fs.writeFileSync(path.join(empty, 'node'), '#!/bin/sh\n', { mode: 0o644 });
    expect(nodeRuntime({ electron: true, envPath: [empty, a.dir].join(path.delimiter), env: {} })).toBe(a.file);
  });

  it('inside Electron, ATRIUM_NODE wins over PATH and must be an executable file', () => {
    const onPath = fakeNodeDir();
    const chosen = fakeNodeDir('node22');
    expect(nodeRuntime({ electron: true, envPath: onPath.dir, env: { ATRIUM_NODE: chosen.file } })).toBe(chosen.file);
    // a bare name is looked up on PATH
    expect(nodeRuntime({ electron: true, envPath: chosen.dir, env: { ATRIUM_NODE: 'node22' } })).toBe(chosen.file);
    for (const bad of [path.join(chosen.dir, 'missing'), chosen.dir, path.join(chosen.dir, 'node22.log')]) {
      if (bad.endsWith('.log')) fs.writeFileSync(bad, '');
      const error = thrown(() => nodeRuntime({ electron: true, envPath: onPath.dir, env: { ATRIUM_NODE: bad } }));
      expect(error).toBeInstanceOf(AtriumError);
      expect(error.code).toBe('NODE_UNAVAILABLE');
      expect(error.message).toContain(`ATRIUM_NODE is set to "${bad}", which is not an executable file.`);
    }
  });

  it('inside Electron without any Node fails with what to do', () => {
    const error = thrown(() => nodeRuntime({ electron: true, envPath: tempDir('atrium-empty-'), env: {} }));
    expect(error).toBeInstanceOf(AtriumError);
    expect(error.code).toBe('NODE_UNAVAILABLE');
    expect(error.message).toBe(MISSING);
  });
});

const engines: Engine[] = [];
afterEach(async () => {
  for (const e of engines.splice(0)) await e.close();
});

function preset(): AgentPreset {
  return { id: 'fake', name: 'Fake', description: 'test agent', package: 'fake-acp-agent', version: '1.2.3', bin: 'fake-acp', launch: 'node', args: ['--acp'], env: { FAKE: '1' }, allowScripts: [], initialModeId: null };
}

/** A data dir with the fake preset installed (the marker and entry `agents install` leaves). */
function installedDataDir(): { dataDir: string; entry: string } {
  const dataDir = path.join(tempDir(), 'data');
  const dir = installDir(dataDir, preset());
  const entry = path.join(dir, 'node_modules/fake-acp-agent/bin/agent.js');
  fs.mkdirSync(path.dirname(entry), { recursive: true });
  fs.writeFileSync(entry, 'process.stdin.resume();\n');
  fs.writeFileSync(path.join(dir, INSTALL_MARKER), JSON.stringify({ id: 'fake', package: 'fake-acp-agent', version: '1.2.3', entry, installedAt: new Date().toISOString() }));
  return { dataDir, entry };
}

function open(dataDir: string, envPath: string, node?: { electron?: boolean; env?: NodeJS.ProcessEnv }): Engine {
  const engine = createEngine({ dataDir, watchResources: false, sessions: { presets: [preset()], envPath, node } });
  engines.push(engine);
  return engine;
}

describe('installed Node agents in the desktop app', () => {
  it('run with node from PATH and no ELECTRON_RUN_AS_NODE', () => {
    const { dataDir, entry } = installedDataDir();
    const a = fakeNodeDir();
    const engine = open(dataDir, a.dir, { electron: true, env: {} });
    const launch = engine.sessions.agents.resolve('fake');
    expect(launch).toMatchObject({ command: a.file, args: [entry, '--acp'] });
    expect(launch.env).toEqual({ FAKE: '1' });
    expect(engine.sessions.agents.get('fake')).toMatchObject({ command: a.file, install: { state: 'installed', source: 'data-dir', error: null } });
  });

  it('run with ATRIUM_NODE when it is set', () => {
    const { dataDir } = installedDataDir();
    const chosen = fakeNodeDir('node-from-env');
    const engine = open(dataDir, fakeNodeDir().dir, { electron: true, env: { ATRIUM_NODE: chosen.file } });
    expect(engine.sessions.agents.resolve('fake').command).toBe(chosen.file);
  });

  it('without Node: the agent is unavailable with what to do, and a session fails to start with it', () => {
    const { dataDir, entry } = installedDataDir();
    const engine = open(dataDir, tempDir('atrium-empty-'), { electron: true, env: {} });
    const error = thrown(() => engine.sessions.agents.resolve('fake'));
    expect(error).toMatchObject({ code: 'NODE_UNAVAILABLE', message: MISSING });
    expect(engine.sessions.agents.get('fake')).toMatchObject({ install: { state: 'unavailable', source: 'data-dir', error: MISSING }, command: 'node', args: [entry, '--acp'] });
    const ws = tempDir('atrium-ws-');
    expect(() => engine.sessions.create({ cwd: ws, agentId: 'fake' })).toThrow(MISSING);
    expect(engine.sessions.list({}).length).toBe(0);
  });

  it('under plain Node run with the Node running Atrium, as before', () => {
    const { dataDir, entry } = installedDataDir();
    const engine = open(dataDir, fakeNodeDir().dir);
    expect(engine.sessions.agents.resolve('fake')).toMatchObject({ command: process.execPath, args: [entry, '--acp'], env: { FAKE: '1' } });
  });

  it('recognises a user agent run by the ATRIUM_NODE Node (not named node) as the preset behind it', () => {
    const { dataDir, entry } = installedDataDir();
    const chosen = fakeNodeDir('node22');
    const engine = open(dataDir, '', { electron: true, env: { ATRIUM_NODE: chosen.file } });
    engine.sessions.agents.define({ id: 'mine', command: chosen.file, args: [entry], env: {} });
    expect(engine.sessions.agents.knownAgent('mine')?.preset.id).toBe('fake');
  });
});

describe('the Claude hook bridge command', () => {
  const bridges: ClaudeHookBridge[] = [];
  afterEach(async () => {
    for (const b of bridges.splice(0)) await b.close();
  });

  it('in the desktop app runs the hook script with node from PATH, no ELECTRON_RUN_AS_NODE, and reaches Atrium', async () => {
    const a = fakeNodeDir();
    const dataDir = tempDir('atrium-data-');
    const bridge = new ClaudeHookBridge(dataDir, () => nodeRuntime({ electron: true, envPath: a.dir, env: {} }));
    bridges.push(bridge);
    const calls: Array<[string, unknown]> = [];
    const { env, hooks } = await bridge.register(async (event, input) => {
      calls.push([event, input]);
      return { stdout: '{"decision":"approve"}', stderr: '', exitCode: 0 };
    });
    expect(Object.keys(env).sort()).toEqual(['ATRIUM_BRIDGE_TOKEN', 'ATRIUM_BRIDGE_URL']);
    const command = (hooks.PreToolUse as Array<{ hooks: Array<{ command: string }> }>)[0].hooks[0].command;
    expect(command).toBe(`${shellQuote(a.file)} ${shellQuote(path.join(dataDir, 'bridge/claude-hook.cjs'))} PreToolUse`);
    // Claude Code runs hook commands through the shell, with the agent's environment
    const run = await runShell(command, '{"tool_name":"Read"}', { PATH: process.env.PATH, ...env });
    expect(run).toEqual({ stdout: '{"decision":"approve"}', status: 0 });
    expect(calls).toEqual([['PreToolUse', { tool_name: 'Read' }]]);
    expect(a.log()).toEqual([`unset|${path.join(dataDir, 'bridge/claude-hook.cjs')} PreToolUse`]);
  });

  it('in the desktop app without Node refuses to register (the start fails) with what to do', async () => {
    const bridge = new ClaudeHookBridge(tempDir('atrium-data-'), () => nodeRuntime({ electron: true, envPath: tempDir('atrium-empty-'), env: {} }));
    bridges.push(bridge);
    await expect(bridge.register(async () => ({ stdout: '', stderr: '', exitCode: 0 }))).rejects.toMatchObject({ code: 'NODE_UNAVAILABLE', message: MISSING });
  });

  it('under plain Node runs the hook script with the Node running Atrium', async () => {
    const dataDir = tempDir('atrium-data-');
    const bridge = new ClaudeHookBridge(dataDir);
    bridges.push(bridge);
    const { env, hooks } = await bridge.register(async () => ({ stdout: '', stderr: '', exitCode: 0 }));
    expect((hooks.PostToolUse as Array<{ hooks: Array<{ command: string }> }>)[0].hooks[0].command).toBe(`${shellQuote(process.execPath)} ${shellQuote(path.join(dataDir, 'bridge/claude-hook.cjs'))} PostToolUse`);
    expect(env).not.toHaveProperty('ELECTRON_RUN_AS_NODE');
  });
});
