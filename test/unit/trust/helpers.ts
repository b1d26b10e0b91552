import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EventName, PayloadOf } from '../../../src/shared/contract';
import { createEngine, type Engine, type EngineOptions } from '../../../src/main/core/engine';
import { tempDir } from '../../support/tempDir';

/** A test world: an isolated home directory (with `~/src`), a data dir, and an engine over a real SQLite file. */
export interface TrustWorld {
  root: string;
  home: string;
  src: string;
  dataDir: string;
  engine: Engine;
  /** Every event the engine pushed, in order. */
  events: Array<{ event: EventName; payload: unknown }>;
  /** Creates `~/src/<rel>` (and parents) and returns its path. */
  mkdir(rel: string): string;
  /** Closes the engine and opens a new one on the same data dir and home (a restart). */
  restart(): Engine;
}

/** Builds a {@link TrustWorld} in a temp dir that is removed after the test. */
export function trustWorld(options: Partial<EngineOptions> = {}): TrustWorld {
  const root = tempDir('atrium-trust-');
  const home = path.join(root, 'home');
  const src = path.join(home, 'src');
  const dataDir = path.join(root, 'data');
  fs.mkdirSync(src, { recursive: true });
  const events: TrustWorld['events'] = [];
  const open = () => {
    const engine = createEngine({ dataDir, homeDir: home, ...options });
    engine.bus.subscribe(<E extends EventName>(event: E, payload: PayloadOf<E>) => {
      events.push({ event, payload });
    });
    return engine;
  };
  const world: TrustWorld = {
    root,
    home,
    src,
    dataDir,
    engine: open(),
    events,
    mkdir(rel) {
      const dir = path.join(src, rel);
      fs.mkdirSync(dir, { recursive: true });
      return dir;
    },
    restart() {
      void world.engine.close();
      world.engine = open();
      return world.engine;
    },
  };
  return world;
}

/** Runs git in `cwd` with a fixed identity (no global config needed). */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** A directory that survives across the tests of one file (for slow corpus materialisation); remove it in afterAll. */
export function persistentTempDir(prefix: string): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

/** Writes `files` (relative path → content) below `dir`, creating folders. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(dir, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
}
