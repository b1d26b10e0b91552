import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect } from 'vitest';
import { createEngine, type Engine, type EngineOptions } from '../../src/main/core/engine';
import type { SessionServiceOptions } from '../../src/main/core/sessions/service';
import { resolveFolder } from '../../src/main/core/workspaces/paths';
import type { TranscriptItem } from '../../src/shared/contract';
import { scriptedAgentCommand, waitFor, type Scenario } from './sessions';
import { tempDir } from './tempDir';

/** Files to lay out: relative path → text, or an object written as pretty JSON. */
export type Files = Record<string, string | object>;

/** A test world for session policy: an isolated home, a workspace folder, a data dir, real engines over one database. */
export interface PolicyWorld {
  base: string;
  home: string;
  ws: string;
  dataDir: string;
  /** Opens an engine (closed by `closeAll`) with the scripted agent defined as `scripted`. */
  open(options?: Partial<EngineOptions>): Engine;
  /** `open(options)`, then records "trusted" for the workspace in that engine (the usual start of a test). */
  openTrusted(options?: Partial<EngineOptions>): Engine;
  /** Writes files below `ws` (or `base`). */
  write(files: Files, base?: string): void;
  /** Records "trusted" for the workspace with the real TrustService of `engine`. */
  trust(engine: Engine): void;
  /** `git init` + commit everything in `ws`. */
  gitInit(): void;
  closeAll(): Promise<void>;
}

/**
 * Writes `files` below `dir`, creating folders; `.sh` and `.py` files are made executable.
 * Objects are written as pretty JSON (e.g. `.claude/settings.json`).
 */
export function writeFiles(dir: string, files: Files): void {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(dir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
    if (/\.(sh|py)$/.test(rel)) fs.chmodSync(file, 0o755);
  }
}

/** The folders of a test world: a temp `base`, an isolated `home`, a workspace `ws` below it (created), a `dataDir` (not yet created). */
export interface WorldDirs {
  base: string;
  home: string;
  ws: string;
  dataDir: string;
}

/** Lays out {@link WorldDirs} in a fresh temp dir named with `prefix`; the workspace is `<home>/src/proj`. */
export function worldDirs(prefix: string): WorldDirs {
  const base = tempDir(prefix);
  const home = path.join(base, 'home');
  const ws = path.join(home, 'src', 'proj');
  fs.mkdirSync(ws, { recursive: true });
  return { base, home, ws, dataDir: path.join(base, 'data') };
}

/**
 * The environment a real-agent test gives its agents: `process.env` without the variables whose
 * names match `drop` (the machine's own credentials and settings for that agent), then `set`.
 */
export function agentTestEnv(drop: RegExp, set: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !drop.test(k)) env[k] = v;
  return Object.assign(env, set);
}

/** Options of {@link AgentEngines.open}: idle shutdown (default never) and session options over the defaults. */
export interface AgentEngineOptions {
  idleMs?: number;
  sessions?: SessionServiceOptions;
}

/** The engines of a real-agent world (see {@link agentEngines}). */
export interface AgentEngines {
  /** An engine on the world's data dir and home, `env` as every agent's base environment, no watchers; idle shutdown only with `idleMs`. */
  open(options?: AgentEngineOptions): Engine;
  /** `open(options)`, then records "trusted" for the workspace in that engine. */
  openTrusted(options?: AgentEngineOptions): Engine;
  /** Writes files below the workspace (see `writeFiles`). */
  write(files: Files): void;
  /** Closes every engine opened so far. */
  closeEngines(): Promise<void>;
}

/** Engines over one data dir for a real agent against a fake model endpoint (`claudeWorld`, `codexWorld`, `geminiWorld`). */
export function agentEngines(dirs: WorldDirs, env: Record<string, string>): AgentEngines {
  const engines: Engine[] = [];
  const open = (options: AgentEngineOptions = {}) => {
    const engine = createEngine({ dataDir: dirs.dataDir, homeDir: dirs.home, watchResources: false, watchHooks: false, sessions: { baseEnv: env, envPath: '', idleMs: options.idleMs ?? 0, ...options.sessions } });
    engines.push(engine);
    return engine;
  };
  return {
    open,
    openTrusted(options) {
      const engine = open(options);
      engine.trust.set(resolveFolder(dirs.ws), 'trusted');
      return engine;
    },
    write(files) {
      writeFiles(dirs.ws, files);
    },
    async closeEngines() {
      for (const e of engines.splice(0)) await e.close();
    },
  };
}

/** Builds a {@link PolicyWorld} for a scenario of the scripted agent. */
export function policyWorld(scenario: Scenario, name = 'scenario'): PolicyWorld {
  const dirs = worldDirs('atrium-policy-');
  const { base, home, ws, dataDir } = dirs;
  const engines: Engine[] = [];
  const world: PolicyWorld = {
    ...dirs,
    open(options = {}) {
      const engine = createEngine({ dataDir, homeDir: home, watchResources: false, watchHooks: false, ...options, sessions: { batchMs: 5, idleMs: 0, envPath: '', ...options.sessions } });
      const { command, args } = scriptedAgentCommand(base, scenario, name);
      engine.sessions.agents.define({ id: 'scripted', name: 'Scripted', command, args, env: {} });
      engines.push(engine);
      return engine;
    },
    openTrusted(options) {
      const engine = world.open(options);
      world.trust(engine);
      return engine;
    },
    write(files, dir = ws) {
      writeFiles(dir, files);
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

/**
 * The policy worlds of one test file. Registers a vitest `afterEach` that closes the engines of
 * every world made through it, so call it once at the top level of the file.
 * `create(scenario, files)` is {@link policyWorld} with `files` already written below `ws`.
 */
export function policyWorlds(): { create(scenario: Scenario, files?: Files): PolicyWorld } {
  const made: PolicyWorld[] = [];
  afterEach(async () => {
    for (const world of made.splice(0)) await world.closeAll();
  });
  return {
    create(scenario, files = {}) {
      const world = policyWorld(scenario);
      world.write(files);
      made.push(world);
      return world;
    },
  };
}

/**
 * A workspace with one static rule (root AGENTS.md) and one contextual rule (pkg/AGENTS.md, loaded
 * once the agent reads pkg/notes.txt; see {@link READ_PKG_TURN}).
 */
export const NESTED_RULES: Files = {
  'AGENTS.md': 'Root rule: always be kind.\n',
  'pkg/AGENTS.md': 'Nested rule: use tabs in pkg.\n',
  'pkg/notes.txt': 'some notes\n',
};

/** A scripted-agent turn: a prompt starting "read pkg" reads pkg/notes.txt (triggering pkg/AGENTS.md). */
export const READ_PKG_TURN = { match: '^read pkg', steps: [{ read: { path: '{{cwd}}/pkg/notes.txt' } }] };

/**
 * Creates a scripted session in `ws` that was given the root rule (with "hello") and the pkg rule
 * (a "read pkg" turn, delivered with the "next" prompt), asserting each turn ends normally and the
 * pkg rule is recorded. Needs {@link NESTED_RULES} and {@link READ_PKG_TURN}.
 */
export async function sessionWithNestedRules(engine: Engine, ws: string) {
  const s = engine.sessions.create({ cwd: ws, agentId: 'scripted' });
  expect(await promptAndWait(engine, s.id, 'hello')).toBe('end_turn');
  expect(await promptAndWait(engine, s.id, 'read pkg')).toBe('end_turn');
  expect(await promptAndWait(engine, s.id, 'next')).toBe('end_turn');
  expect(engine.policy.view(s.id).contextualRules.map((r) => r.relativePath)).toEqual(['pkg/AGENTS.md']);
  return s;
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

/**
 * The agent's text of the last turn only (the messages after the last user message), joined by
 * newlines. With `stops`, the turn's stop item is included as `[stop <reason>: <error>]`, so a
 * turn that ended with an error shows why.
 */
export function lastTurnText(engine: Engine, sessionId: string, options: { stops?: boolean } = {}): string {
  const all = items(engine, sessionId);
  const lastUser = all.map((i) => i.kind).lastIndexOf('user_message');
  return all
    .slice(lastUser + 1)
    .flatMap((i) => {
      if (i.kind === 'agent_message') return [i.text];
      if (i.kind === 'stop' && options.stops) return [`[stop ${i.stopReason}${i.error ? `: ${i.error}` : ''}]`];
      return [];
    })
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

/**
 * Waits until the session's agent was stopped for idleness `count` times in all (that many
 * `idle_shutdown` notices) and is not live.
 * @throws Error from {@link waitFor} when that does not happen in time
 */
export async function idleShutdown(engine: Engine, sessionId: string, count = 1): Promise<void> {
  await waitFor(() => notices(engine, sessionId, 'idle_shutdown').length === count && !engine.sessions.show(sessionId).live, `idle shutdown ${count}`);
}

/** `.claude/settings.json` content with these hook events (formats.md §2.5). */
export const hookSettings = (hooks: Record<string, unknown>) => ({ hooks });

/** A `type: command` hook entry, with extra fields such as `async: true`. */
export const commandHook = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command, ...extra });

/**
 * A hook script that reads its JSON input from stdin and refuses (exit 2, `message` on stderr, as
 * Claude Code hooks block) when the input matches the shell `case` pattern `pattern`; else exit 0.
 */
export const refusingHookScript = (pattern: string, message: string) => `#!/bin/sh
input=$(cat)
case "$input" in
  ${pattern}) echo "${message}" >&2; exit 2;;
esac
exit 0
`;

/** A PreToolUse hook script for the Bash matcher that refuses any `rm` command. */
export const DENY_RM_HOOK = refusingHookScript(`*'"command":"rm '*`, 'rm is not allowed in this repository');

/**
 * The id and digest of the workspace hook whose command contains `needle`, else of the MCP server
 * named `needle`, as `engine.hooks.approve` takes them.
 * @throws Error when the workspace has neither
 */
export async function hookRef(engine: Engine, ws: string, needle: string): Promise<{ id: string; digest: string }> {
  const listing = await engine.hooks.list({ path: ws });
  const found = listing.hooks.find((h) => (h.command ?? '').includes(needle)) ?? listing.mcpServers.find((m) => m.name === needle);
  if (!found) throw new Error(`no hook or server ${needle}`);
  return { id: found.id, digest: found.digest };
}

/**
 * Approves the hooks and MCP servers picked by `needles` (see {@link hookRef}) in the workspace `ws`;
 * returns what it approved, in order.
 */
export async function approveHooks(engine: Engine, ws: string, needles: string[]): Promise<Array<{ id: string; digest: string }>> {
  const refs: Array<{ id: string; digest: string }> = [];
  for (const needle of needles) refs.push(await hookRef(engine, ws, needle));
  await engine.hooks.approve({ path: ws }, refs);
  return refs;
}
