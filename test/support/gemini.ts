import fs from 'node:fs';
import path from 'node:path';
import type { Engine } from '../../src/main/core/engine';
import { installCachedPreset } from './agents';
import { startFakeGemini, type FakeGemini, type GeminiReply, type GeminiRequest } from './fakeGemini';
import { agentEngines, agentTestEnv, worldDirs, type Files } from './policy';

/** User settings that keep Gemini CLI 0.61.0 from reaching out (usage statistics, update checks); agents-offline.md. */
export const OFFLINE_USER_SETTINGS = { privacy: { usageStatisticsEnabled: false }, general: { enableAutoUpdate: false, enableAutoUpdateNotification: false } };

/** A world for the real Gemini CLI (`gemini --acp`, pinned preset) against a fake Gemini API. */
export interface GeminiWorld {
  base: string;
  home: string;
  ws: string;
  dataDir: string;
  fake: FakeGemini;
  /** Opens an engine (closed by `closeAll`) whose agents run with the world's env. */
  open(): Engine;
  /** `open()`, then records "trusted" for the workspace in that engine. */
  openTrusted(): Engine;
  /** Writes files below `ws` (see `writeFiles`). */
  write(files: Files): void;
  /** Writes (true) or removes (false) Gemini's OWN folder trust for the workspace (`~/.gemini/trustedFolders.json`). */
  setGeminiTrust(trusted: boolean): void;
  /** The env the agent processes get. */
  env: Record<string, string>;
  closeAll(): Promise<void>;
}

/**
 * Installs the pinned `gemini` preset (cached; {@link installCachedPreset}) into a fresh world
 * ({@link worldDirs}: temp HOME, workspace `<home>/src/proj`), starts the fake Gemini API with `reply`,
 * writes `~/.gemini/settings.json` = {@link OFFLINE_USER_SETTINGS} and, unless `geminiTrust` is false,
 * Gemini's own folder trust for the workspace. Agents get HOME = the temp home,
 * `GOOGLE_GEMINI_BASE_URL` = the fake (auth type "gateway"), `GEMINI_API_KEY` = a fake key, and none
 * of the caller's `GEMINI_*`/`GOOGLE_*` variables.
 */
export async function geminiWorld(reply: (req: GeminiRequest) => GeminiReply, options: { geminiTrust?: boolean } = {}): Promise<GeminiWorld> {
  const dirs = worldDirs('atrium-gemini-');
  const { home, ws, dataDir } = dirs;
  await installCachedPreset('gemini', dataDir);
  fs.mkdirSync(path.join(home, '.gemini'), { recursive: true });
  fs.writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify(OFFLINE_USER_SETTINGS, null, 2));
  const fake = await startFakeGemini(reply);
  const env = agentTestEnv(/^(GEMINI|GOOGLE)/, { HOME: home, GOOGLE_GEMINI_BASE_URL: fake.url, GEMINI_API_KEY: 'fake-gemini-key', NO_BROWSER: 'true' });
  const engines = agentEngines(dirs, env);
  const trustFile = path.join(home, '.gemini', 'trustedFolders.json');
  const world: GeminiWorld = {
    ...dirs,
    fake,
    env,
    open: engines.open,
    openTrusted: engines.openTrusted,
    write: engines.write,
    setGeminiTrust(trusted) {
      if (trusted) fs.writeFileSync(trustFile, JSON.stringify({ [ws]: 'TRUST_FOLDER' }, null, 2));
      else fs.rmSync(trustFile, { force: true });
    },
    async closeAll() {
      await engines.closeEngines();
      await fake.close();
    },
  };
  if (options.geminiTrust !== false) world.setGeminiTrust(true);
  return world;
}
