import fs from 'node:fs';
import path from 'node:path';
import type { Engine } from '../../src/main/core/engine';
import { INSTALL_MARKER, installDir } from '../../src/main/core/sessions/installer';
import { AGENT_PRESETS } from '../../src/main/core/sessions/presets';
import { repoRoot } from './corpus';
import { startFakeAnthropic, type FakeAnthropic, type FakeReply, type FakeRequest } from './fakeAnthropic';
import { agentEngines, agentTestEnv, worldDirs, type AgentEngineOptions, type Files } from './policy';
import { waitFor } from './sessions';

/** The pinned Claude preset and its adapter entry in the repository's devDependencies. */
export const CLAUDE_PRESET = AGENT_PRESETS.find((p) => p.id === 'claude')!;
export const CLAUDE_ENTRY = path.join(repoRoot, 'node_modules', CLAUDE_PRESET.package, 'dist/index.js');

/** A world for the real Claude Code adapter against a fake Messages endpoint (acp.md §3.1). */
export interface ClaudeWorld {
  base: string;
  home: string;
  ws: string;
  dataDir: string;
  fake: FakeAnthropic;
  open(options?: AgentEngineOptions): Engine;
  /** `open()`, then records "trusted" for the workspace in that engine. */
  openTrusted(options?: AgentEngineOptions): Engine;
  /** Writes files below `ws` (see `writeFiles`). */
  write(files: Files): void;
  closeAll(): Promise<void>;
}

/**
 * Lays out `claude` as installed from the devDependency (what `agents install claude` does), starts
 * the fake endpoint with `reply`, and opens engines whose agents run with HOME = a temp home,
 * `IS_SANDBOX=1` (root) and `ANTHROPIC_BASE_URL` = the fake.
 */
export async function claudeWorld(reply: (req: FakeRequest) => FakeReply): Promise<ClaudeWorld> {
  const dirs = worldDirs('atrium-claude-policy-');
  const { home, dataDir } = dirs;
  if (!fs.existsSync(CLAUDE_ENTRY)) throw new Error(`${CLAUDE_ENTRY} is missing (npm install the devDependencies)`);
  fs.mkdirSync(installDir(dataDir, CLAUDE_PRESET), { recursive: true });
  fs.writeFileSync(
    path.join(installDir(dataDir, CLAUDE_PRESET), INSTALL_MARKER),
    JSON.stringify({ id: 'claude', package: CLAUDE_PRESET.package, version: CLAUDE_PRESET.version, entry: CLAUDE_ENTRY, installedAt: new Date().toISOString() }),
  );
  const fake = await startFakeAnthropic(reply);
  const env = agentTestEnv(/^(ANTHROPIC_|CLAUDE)/, { HOME: home, IS_SANDBOX: '1', ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'sk-ant-fake', DISABLE_AUTOUPDATER: '1' });
  const engines = agentEngines(dirs, env);
  const world: ClaudeWorld = {
    ...dirs,
    fake,
    open: engines.open,
    openTrusted: engines.openTrusted,
    write: engines.write,
    async closeAll() {
      await engines.closeEngines();
      await fake.close();
    },
  };
  return world;
}

/** JSON text of a request (system prompt, messages, tool results) for substring checks. */
export const requestText = (req: FakeRequest) => JSON.stringify(req.body);

/** The last message of a request as JSON text (e.g. the tool_result the model is being told). */
export const lastMessageText = (req: FakeRequest) => JSON.stringify(req.body.messages?.[req.body.messages.length - 1] ?? null);

/** Answers every permission request of a session with its allow-once option until `done` resolves. */
export function autoAllow(engine: Engine, sessionId: string, done: Promise<unknown>): Promise<void> {
  let finished = false;
  void done.finally(() => (finished = true));
  return (async () => {
    while (!finished) {
      const pending = engine.sessions.show(sessionId).permissions[0];
      if (pending) {
        const allow = pending.options.find((o) => o.kind === 'allow_once');
        if (allow) {
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

/**
 * Prompts and waits for the turn to end while {@link autoAllow} answers every permission request
 * with allow-once (Claude asks before it reads, writes or runs); returns the stop reason.
 */
export async function promptAllowing(engine: Engine, sessionId: string, text: string) {
  const { promptId } = engine.sessions.prompt(sessionId, text);
  const done = engine.sessions.waitForTurn(sessionId, promptId);
  void autoAllow(engine, sessionId, done);
  return done;
}

export { waitFor };
