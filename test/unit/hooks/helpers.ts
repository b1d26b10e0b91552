import fs from 'node:fs';
import path from 'node:path';
import type { EventName, Hook, HookListing, PayloadOf } from '../../../src/shared/contract';
import { createEngine, type Engine, type EngineOptions } from '../../../src/main/core/engine';
import { buildListing } from '../../../src/main/core/hooks/listing';
import type { ApprovalRow } from '../../../src/main/core/hooks/repository';
import { resolveFolder } from '../../../src/main/core/workspaces/paths';
import { tempDir } from '../../support/tempDir';

/** A test world for hooks: an isolated home, a project folder, a data dir and a real engine (real SQLite). */
export interface HookWorld {
  root: string;
  home: string;
  project: string;
  dataDir: string;
  engine: Engine;
  events: Array<{ event: EventName; payload: unknown }>;
  /** Writes files below the project (relative path → content; objects are written as JSON). */
  write(files: Record<string, string | object>, base?: string): void;
  /** Records "trusted" for the project folder with the real TrustService. */
  trust(): void;
  list(): Promise<HookListing>;
  /** The one hook whose literal command contains `needle`. */
  hook(needle: string): Promise<Hook>;
  restart(): Promise<Engine>;
}

/** Builds a {@link HookWorld}; `trusted` (default true) trusts the project folder. */
export function hookWorld(options: Partial<EngineOptions> & { trusted?: boolean } = {}): HookWorld {
  const root = tempDir('atrium-hooks-');
  const home = path.join(root, 'home');
  const project = path.join(home, 'src', 'proj');
  const dataDir = path.join(root, 'data');
  fs.mkdirSync(project, { recursive: true });
  const events: HookWorld['events'] = [];
  const { trusted = true, ...engineOptions } = options;
  const open = () => {
    const engine = createEngine({ dataDir, homeDir: home, watchHooks: false, watchResources: false, ...engineOptions });
    engine.bus.subscribe(<E extends EventName>(event: E, payload: PayloadOf<E>) => void events.push({ event, payload }));
    return engine;
  };
  const world: HookWorld = {
    root,
    home,
    project,
    dataDir,
    engine: open(),
    events,
    write(files, base = project) {
      for (const [rel, content] of Object.entries(files)) {
        const file = path.join(base, rel);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
        if (/\.(sh|py)$/.test(rel)) fs.chmodSync(file, 0o755);
      }
    },
    trust() {
      world.engine.trust.set(resolveFolder(project), 'trusted');
    },
    list: () => world.engine.hooks.list({ path: project }),
    async hook(needle) {
      const found = (await world.list()).hooks.filter((h) => (h.command ?? h.url ?? h.prompt ?? '').includes(needle));
      if (found.length !== 1) throw new Error(`expected one hook with "${needle}", found ${found.length}`);
      return found[0];
    },
    async restart() {
      await world.engine.close();
      world.engine = open();
      return world.engine;
    },
  };
  if (trusted) world.trust();
  return world;
}

/** `{hooks: {<event>: [{matcher?, hooks: [handler]}]}}` for one handler. */
export function settingsWith(event: string, handler: Record<string, unknown>, matcher?: unknown): object {
  return { hooks: { [event]: [{ ...(matcher === undefined ? {} : { matcher }), hooks: [handler] }] } };
}

/** Polls `check` until it returns a truthy value (no fixed sleeps in assertions); throws after `timeoutMs`. */
export async function until<T>(check: () => T | Promise<T>, timeoutMs = 10_000, what = 'condition'): Promise<NonNullable<T>> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Builds `w.project`'s hook listing directly (no service, no plugins), then again with an approval
 * row for its first hook at its current digest. `first` is that hook as first listed; `built` the
 * listing in which it is approved (an in-memory snapshot: later file changes are not in it).
 */
export async function listingWithFirstApproved(w: HookWorld) {
  const input = (approvals: Map<string, ApprovalRow>) => ({
    path: w.project, trustRoot: w.project, workspaceId: null, homeDir: w.home, home: w.home, restricted: false, includeHeldBack: false,
    approvals: () => approvals, plugins: async () => ({ plugins: [], hookSources: [] }), pluginStates: async () => [], httpAllowedHosts: [], env: {},
  });
  const first = (await buildListing(input(new Map()))).hooks[0].hook;
  const row: ApprovalRow = { trustRoot: w.project, key: first.key, itemId: first.id, kind: 'hook', digest: first.digest, definitionJson: '{}', scripts: [], approvedAt: '', approvedBy: 'test' };
  const built = await buildListing(input(new Map([[`${w.project}\0${first.key}`, row]])));
  return { first, built };
}
