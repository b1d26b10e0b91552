import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { repoRoot } from '../../support/corpus';

/** A running `atrium serve` child process, started exactly as a user would (the built CLI). */
export interface ServedAtrium {
  /** The address `atrium serve` printed: `<origin>/#token=<token>`. */
  url: string;
  origin: string;
  port: number;
  token: string;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * Starts `node bin/atrium.js serve --json --port <port>` on `dataDir` (a fresh temp dir by default;
 * port 0, a free one, by default; `extraArgs` appended, e.g. `--new-token`). Open `url` in a page: it carries the token in its fragment.
 */
export async function startAtrium(dataDir = mkdtempSync(path.join(os.tmpdir(), 'atrium-e2e-data-')), env: NodeJS.ProcessEnv = {}, listenPort = 0, extraArgs: readonly string[] = []): Promise<ServedAtrium> {
  const child = spawn(process.execPath, [path.join(repoRoot, 'bin/atrium.js'), 'serve', '--json', '--port', String(listenPort), '--data-dir', dataDir, ...extraArgs], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += String(d)));
  const first = await new Promise<string>((resolve, reject) => {
    const rl = readline.createInterface({ input: child.stdout! });
    rl.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`atrium serve exited with ${code}: ${stderr}`)));
  });
  const { url, port, token } = JSON.parse(first) as { url: string; port: number; token: string };
  return { url, port, token, origin: new URL(url).origin, dataDir, stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
