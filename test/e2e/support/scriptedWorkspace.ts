import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../../support/corpus';

/**
 * Runs the real CLI (`bin/atrium.js`) on `dataDir` (as `ATRIUM_DATA_DIR`, so no option lands
 * after an agent command's `--`) the way a user would, with `env` added to the environment (e.g. a
 * test HOME). Returns its stdout; throws when it exits non-zero.
 */
export function atriumCli(dataDir: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): string {
  return execFileSync(process.execPath, [path.join(repoRoot, 'bin/atrium.js'), ...args], { cwd: repoRoot, env: { ...process.env, ...env, ATRIUM_DATA_DIR: dataDir }, encoding: 'utf8' });
}

/**
 * Defines the scripted fixture agent (`test/fixtures/agents/scripted-agent.ts`, run by this Node
 * through tsx) as "Scripted agent" in `dataDir`, playing `scenario`: a scenario file's path, or a
 * scenario object written to `<stateDir>/scenario.json`. Its state file goes in `stateDir`.
 */
export function defineScriptedAgent(dataDir: string, stateDir: string, scenario: string | object, env: NodeJS.ProcessEnv = {}): void {
  let scenarioFile = scenario as string;
  if (typeof scenario !== 'string') {
    scenarioFile = path.join(stateDir, 'scenario.json');
    writeFileSync(scenarioFile, JSON.stringify(scenario));
  }
  const loader = pathToFileURL(path.join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;
  const agent = path.join(repoRoot, 'test/fixtures/agents/scripted-agent.ts');
  atriumCli(dataDir, ['agents', 'define', 'scripted', process.execPath, '--name', 'Scripted agent', '--', '--import', loader, agent, '--scenario', scenarioFile, '--state', path.join(stateDir, 'agent-state.json')], env);
}

/**
 * A temp folder holding a data dir with one workspace, "project" (an empty folder), and the
 * scripted agent playing `scenario` ({@link defineScriptedAgent}).
 */
export function scriptedWorkspace(prefix: string, scenario: object): { base: string; dataDir: string; ws: string } {
  const base = mkdtempSync(path.join(os.tmpdir(), prefix));
  const dataDir = path.join(base, 'data');
  const ws = path.join(base, 'project');
  mkdirSync(ws);
  atriumCli(dataDir, ['workspace', 'add', ws, '--name', 'project']);
  defineScriptedAgent(dataDir, base, scenario);
  return { base, dataDir, ws };
}
