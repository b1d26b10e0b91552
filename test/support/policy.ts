import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createEngine, type Engine, type EngineOptions } from '../../src/main/core/engine';
import { resolveFolder } from '../../src/main/core/trust/paths';
import type { TranscriptItem } from '../../src/shared/contract';
import { scriptedAgentCommand, type Scenario } from './sessions';
import { tempDir } from './tempDir';

/** A test world for issue 8: an isolated home, a workspace folder, a data dir, real engines over one database. */
export interface PolicyWorld {
  base: string;
  home: string;
  ws: string;
  dataDir: string;
  /** Opens an engine (closed by `closeAll`) with the scripted agent defined as `scripted`. */
  open(options?: Partial<EngineOptions>): Engine;
  /** Writes files below `ws` (or `base`). */
  write(files: Record<string, string | object>, base?: string): void;
  /** Records "trusted" for the workspace with the real TrustService of `engine`. */
  trust(engine: Engine): void;
  /** `git init` + commit everything in `ws`. */
  gitInit(): void;
  closeAll(): Promise<void>;
}

/** Builds a {@link PolicyWorld} for a scenario of the scripted agent. */
export function policyWorld(scenario: Scenario, name = 'scenario'): PolicyWorld {
  const base = tempDir('atrium-policy-');
  const home = path.join(base, 'home');
  const ws = path.join(home, 'src', 'proj');
  const dataDir = path.join(base, 'data');
  fs.mkdirSync(ws, { recursive: true });
  const engines: Engine[] = [];
  const world: PolicyWorld = {
    base,
    home,
    ws,
    dataDir,
    open(options = {}) {
      const engine = createEngine({ dataDir, homeDir: home, watchResources: false, watchHooks: false, ...options, sessions: { batchMs: 5, idleMs: 0, envPath: '', ...options.sessions } });
      const { command, args } = scriptedAgentCommand(base, scenario, name);
      engine.sessions.agents.define({ id: 'scripted', name: 'Scripted', command, args, env: {} });
      engines.push(engine);
      return engine;
    },
    write(files, dir = ws) {
      for (const [rel, content] of Object.entries(files)) {
        const file = path.join(dir, rel);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
        if (/\.(sh|py)$/.test(rel)) fs.chmodSync(file, 0o755);
      }
    },
    trust(engine) {
      engine.trust.set(resolveFolder(ws), 'trusted');
    },
    gitInit() {
      const git = (...args: string[]) => execFileSync('git', args, { cwd: ws, stdio: 'pipe', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' } });
      git('init', '-q', '-b', 'main');
      git('add', '-A');
      git('commit', '-q', '-m', 'init');
    },
    async closeAll() {
      for (const e of engines.splice(0)) await e.close();
    },
  };
  return world;
}

/** Every transcript item of a session. */
export function items(engine: Engine, sessionId: string): TranscriptItem[] {
  return engine.sessions.transcript(sessionId, { limit: 1000 }).items;
}

/** The agent's text of a session, all messages joined by newlines. */
export function agentText(engine: Engine, sessionId: string): string {
  return items(engine, sessionId)
    .filter((i) => i.kind === 'agent_message')
    .map((i) => (i.kind === 'agent_message' ? i.text : ''))
    .join('\n');
}

/** Notices with a code. */
export function notices(engine: Engine, sessionId: string, code: string) {
  return items(engine, sessionId).filter((i): i is Extract<TranscriptItem, { kind: 'notice' }> => i.kind === 'notice' && i.code === code);
}

/** Prompts and waits for the turn to end; returns the stop reason. */
export async function promptAndWait(engine: Engine, sessionId: string, text: string, surfaceId?: string) {
  const { promptId } = engine.sessions.prompt(sessionId, text, surfaceId);
  return engine.sessions.waitForTurn(sessionId, promptId);
}
