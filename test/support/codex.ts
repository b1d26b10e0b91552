import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Engine } from '../../src/main/core/engine';
import { installCachedPreset } from './agents';
import { startFakeOpenAI, type FakeOpenAI, type FakeOpenAIReply, type FakeOpenAIRequest } from './fakeOpenAI';
import { agentEngines, agentTestEnv, worldDirs, type Files } from './policy';

/** A world for the real Codex preset (codex-acp 2.6.0 / Codex 0.166.0) against a fake Responses endpoint. */
export interface CodexWorld {
  base: string;
  home: string;
  ws: string;
  dataDir: string;
  fake: FakeOpenAI;
  /** The launch environment every engine's agents get (HOME, the fake's key…). */
  env: Record<string, string>;
  /** Entry of the installed codex-acp (`dist/index.js`). */
  entry: string;
  /** Opens an engine on the data dir (closed by `closeAll`); `idleMs` = idle shutdown (default 0 = never). */
  open(options?: { idleMs?: number }): Engine;
  /** `open(options)`, then records "trusted" for the workspace in that engine. */
  openTrusted(options?: { idleMs?: number }): Engine;
  /** Writes files below `ws` (see `writeFiles`). */
  write(files: Files): void;
  /** Appends TOML text to the temp user's `~/.codex/config.toml`. */
  appendUserConfig(toml: string): void;
  closeAll(): Promise<void>;
}

/**
 * Installs the pinned `codex` preset into `dataDir` (from the test agent cache), starts the fake
 * Responses endpoint with `reply`, and writes a fresh `$HOME/.codex/config.toml` that points Codex at
 * it through a custom model provider (agents-offline.md "A.": no login needed, no WebSocket), with
 * update checks off. Engines launch agents with HOME = that home and no OPENAI_* / CODEX_* from the
 * machine.
 */
export async function codexWorld(reply: (req: FakeOpenAIRequest) => FakeOpenAIReply): Promise<CodexWorld> {
  const dirs = worldDirs('atrium-codex-');
  const { home, dataDir } = dirs;
  const marker = await installCachedPreset('codex', dataDir);
  const fake = await startFakeOpenAI(reply);
  const codexHome = path.join(home, '.codex');
  writeCodexFakeConfig(codexHome, fake.url);
  const env = codexTestEnv({ HOME: home });
  const engines = agentEngines(dirs, env);
  const world: CodexWorld = {
    ...dirs,
    fake,
    env,
    entry: marker.entry,
    open: engines.open,
    openTrusted: engines.openTrusted,
    write: engines.write,
    appendUserConfig(toml) {
      fs.appendFileSync(path.join(codexHome, 'config.toml'), `\n${toml}\n`);
    },
    async closeAll() {
      await engines.closeEngines();
      await fake.close();
    },
  };
  return world;
}

/**
 * Writes `<codexHome>/config.toml` pointing Codex 0.166.0 at the fake Responses endpoint `fakeUrl`
 * through a custom model provider (agents-offline.md "A.": no login needed, no WebSocket), with
 * update checks off, followed by `extraToml` (e.g. `project_doc_max_bytes = 64`). Creates the folder.
 */
export function writeCodexFakeConfig(codexHome: string, fakeUrl: string, extraToml = ''): void {
  fs.mkdirSync(codexHome, { recursive: true });
  fs.writeFileSync(
    path.join(codexHome, 'config.toml'),
    [
      'model = "gpt-5.5"',
      'model_provider = "atrium_fake"',
      'check_for_update_on_startup = false',
      extraToml,
      '',
      '[model_providers.atrium_fake]',
      'name = "Atrium fake"',
      `base_url = "${fakeUrl}"`,
      'env_key = "ATRIUM_FAKE_OPENAI_KEY"',
      'wire_api = "responses"',
      '',
    ].join('\n'),
  );
}

/**
 * The environment a Codex test agent runs with: the machine's environment without OPENAI_* / CODEX_*
 * (and the other agent switches), plus the fake's key, NO_COLOR and `extra` (HOME, CODEX_HOME…).
 */
export function codexTestEnv(extra: Record<string, string>): Record<string, string> {
  return agentTestEnv(/^(OPENAI_|CODEX_|ATRIUM_FAKE_|DISABLE_MCP|INITIAL_AGENT_MODE)/, { ATRIUM_FAKE_OPENAI_KEY: 'sk-fake', NO_COLOR: '1', ...extra });
}

/** The Codex binary's JS launcher next to the installed codex-acp (`@openai/codex/bin/codex.js`). */
export function codexLauncher(world: Pick<CodexWorld, 'entry'>): string {
  return path.join(path.dirname(world.entry), '..', '..', '..', '@openai', 'codex', 'bin', 'codex.js');
}

/**
 * Gives the workspace's Codex hooks the agent's OWN trust, as a user who pressed "Trust all and
 * continue" in Codex's hook review has it (agents-offline.md): asks the real Codex app-server
 * `hooks/list` for the workspace, then `config/batchWrite`s `hooks.state."<key>".trusted_hash` for
 * every listed hook into the temp user's config.toml (the project is marked trusted there first, so
 * its `.codex` layer is listed, as codex-acp itself trusts every session root).
 * @returns the keys trusted
 */
export async function trustCodexHooksNatively(world: CodexWorld): Promise<string[]> {
  world.appendUserConfig(`[projects."${world.ws}"]\ntrust_level = "trusted"`);
  const child = spawn(process.execPath, [codexLauncher(world), 'app-server'], { cwd: world.ws, env: world.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let buf = '';
  const waiting = new Map<number, (msg: { result?: unknown; error?: unknown }) => void>();
  child.stdout.on('data', (d: Buffer) => {
    buf += d.toString('utf8');
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      try {
        const msg = JSON.parse(line) as { id?: number; result?: unknown; error?: unknown };
        if (typeof msg.id === 'number' && waiting.has(msg.id)) waiting.get(msg.id)!(msg);
      } catch {
        // not a JSON-RPC line
      }
    }
  });
  let next = 0;
  const call = (method: string, params: unknown) =>
    new Promise<unknown>((resolve, reject) => {
      const id = ++next;
      const timer = setTimeout(() => reject(new Error(`app-server ${method} timed out`)), 30_000);
      waiting.set(id, (msg) => {
        clearTimeout(timer);
        if (msg.error) reject(new Error(`app-server ${method}: ${JSON.stringify(msg.error)}`));
        else resolve(msg.result);
      });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  try {
    await call('initialize', { clientInfo: { name: 'atrium-test', version: '0' } });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'initialized' })}\n`);
    const listed = (await call('hooks/list', { cwds: [world.ws] })) as { data: Array<{ hooks: Array<{ key: string; currentHash: string; trustStatus: string }> }> };
    const hooks = listed.data.flatMap((d) => d.hooks);
    const edits = hooks.map((h) => ({ keyPath: `hooks.state.${JSON.stringify(h.key)}.trusted_hash`, value: h.currentHash, mergeStrategy: 'replace' }));
    if (edits.length) await call('config/batchWrite', { edits, reloadUserConfig: true });
    return hooks.map((h) => h.key);
  } finally {
    child.kill();
  }
}

/** Answers every permission request of a session with its allow-once option until `done` resolves; counts them. */
export function allowAll(engine: Engine, sessionId: string, done: Promise<unknown>, seen: string[] = []): Promise<void> {
  let finished = false;
  void done.finally(() => (finished = true));
  const answered = new Set<string>();
  return (async () => {
    while (!finished) {
      const pending = engine.sessions.show(sessionId).permissions[0];
      if (pending && !answered.has(pending.requestId)) {
        const allow = pending.options.find((o) => o.kind === 'allow_once');
        if (allow) {
          answered.add(pending.requestId);
          seen.push(pending.title ?? '');
          try {
            engine.sessions.answerPermission(sessionId, pending.requestId, allow.optionId);
          } catch {
            // answered meanwhile
          }
        }
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
}
