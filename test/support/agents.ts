import fs from 'node:fs';
import path from 'node:path';
import { INSTALL_MARKER, installDir, installPreset, readInstallMarker, type InstallMarker } from '../../src/main/core/sessions/installer';
import { AGENT_PRESETS, type AgentPreset } from '../../src/main/core/sessions/presets';
import { repoRoot } from './corpus';

/**
 * Where the integration tests keep their installs of the pinned agent presets (`$ATRIUM_TEST_AGENT_CACHE`,
 * default `node_modules/.cache/atrium-agents`): one `npm install` per preset version, reused by later runs
 * (it sits beside the project's other installed packages and goes away with them).
 */
export const AGENT_CACHE = process.env.ATRIUM_TEST_AGENT_CACHE || path.join(repoRoot, 'node_modules', '.cache', 'atrium-agents');

/** The preset of `id`. @throws Error for an unknown id */
export function presetOf(id: string): AgentPreset {
  const p = AGENT_PRESETS.find((x) => x.id === id);
  if (!p) throw new Error(`no preset "${id}"`);
  return p;
}

/** Waits until `dir` can be created (a cross-process lock), runs `fn`, removes it. Stale locks (over 10 minutes) are broken. */
async function withLock<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(dir);
      break;
    } catch {
      try {
        if (Date.now() - fs.statSync(dir).mtimeMs > 10 * 60_000) fs.rmSync(dir, { recursive: true, force: true });
      } catch {
        // gone meanwhile
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Installs preset `id` at its pinned version into {@link AGENT_CACHE} with Atrium's own installer (npm
 * from the registry; a no-op when already there; test files running in parallel wait for one install),
 * then lays it out as installed in `dataDir` (the marker `agents install` writes, pointing at the cached
 * entry), so an engine on `dataDir` launches the pinned agent.
 * @returns the install marker
 * @throws AtriumError AGENT_INSTALL_FAILED when npm cannot install it
 */
export async function installCachedPreset(id: string, dataDir: string): Promise<InstallMarker> {
  const preset = presetOf(id);
  const cached =
    readInstallMarker(AGENT_CACHE, preset) ??
    (await withLock(path.join(AGENT_CACHE, `.lock-${id}`), async () => readInstallMarker(AGENT_CACHE, preset) ?? installPreset(AGENT_CACHE, preset, () => undefined)));
  fs.mkdirSync(installDir(dataDir, preset), { recursive: true });
  const marker: InstallMarker = { ...cached, installedAt: new Date().toISOString() };
  fs.writeFileSync(path.join(installDir(dataDir, preset), INSTALL_MARKER), JSON.stringify(marker));
  return marker;
}
