import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createDispatcher, type Dispatcher } from '../../src/main/core/dispatcher';
import { createEngine, type Engine } from '../../src/main/core/engine';
import type { EventName, PayloadOf } from '../../src/shared/contract';
import { repoRoot } from './corpus';

/** Absolute path of the scripted ACP agent fixture. */
export const SCRIPTED_AGENT = path.join(repoRoot, 'test/fixtures/agents/scripted-agent.ts');
/** tsx's loader as a file URL, so `--import` works whatever the agent's cwd is. */
export const TSX_LOADER = pathToFileURL(path.join(repoRoot, 'node_modules/tsx/dist/loader.mjs')).href;

/** A scenario file for the fixture agent (see its header for the format). */
export type Scenario = Record<string, unknown>;

/**
 * Writes `scenario` into `dir` and returns the command line that runs the scripted agent with it
 * (and a state file in `dir`, so sessions survive agent restarts).
 */
export function scriptedAgentCommand(dir: string, scenario: Scenario, name = 'scenario'): { command: string; args: string[] } {
  const file = path.join(dir, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify(scenario));
  return { command: process.execPath, args: ['--import', TSX_LOADER, SCRIPTED_AGENT, '--scenario', file, '--state', path.join(dir, `${name}.state.json`)] };
}

/** Everything an engine pushed, in order, for assertions. */
export interface Recorder {
  events: Array<{ event: EventName; payload: unknown }>;
  of<E extends EventName>(event: E): Array<PayloadOf<E>>;
}

/** Subscribes to `engine.bus` and records every event. */
export function record(engine: Engine): Recorder {
  const events: Recorder['events'] = [];
  engine.bus.subscribe((event, payload) => events.push({ event, payload }));
  return { events, of: (event) => events.filter((e) => e.event === event).map((e) => e.payload) as never };
}

/** An engine for session tests: given data dir, scripted agent defined as `scripted`, quick batching, presets never found on PATH. */
export function sessionEngine(dataDir: string, agentDir: string, scenario: Scenario, options: { batchMs?: number; idleMs?: number } = {}): Engine {
  const engine = createEngine({ dataDir, watchResources: false, sessions: { batchMs: options.batchMs ?? 5, idleMs: options.idleMs ?? 0, envPath: '' } });
  const { command, args } = scriptedAgentCommand(agentDir, scenario);
  engine.sessions.agents.define({ id: 'scripted', name: 'Scripted', command, args, env: {} });
  return engine;
}

/**
 * A dispatcher over `engine` for tests that go through the contract (validated params and results)
 * without a desktop window: the host handlers `app.info` and `app.pickFolder` throw "unused".
 */
export function testDispatcher(engine: Engine): Dispatcher {
  const unused = (): never => {
    throw new Error('unused');
  };
  return createDispatcher(engine, { 'app.info': unused, 'app.pickFolder': unused });
}

/** Whether a process with this pid exists (signal 0; a pid we may not signal counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// waitFor lives in ./waitFor (no engine import) so test/support/cli.ts can use it; re-exported for existing callers.
export { waitFor } from './waitFor';
