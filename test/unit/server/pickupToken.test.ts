import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { tokenProtocols } from '../../../src/shared/browserAuth';
import { runCli } from '../../support/cli';
import { repoRoot } from '../../support/corpus';
import { scriptedAgentCommand } from '../../support/sessions';
import { tempDir } from '../../support/tempDir';

/**
 * `atrium session pickup` never takes the server token from argv (every local user can read a
 * command line): `--token` is refused, `$ATRIUM_TOKEN` and `--token-stdin` work with `--url`, the
 * data directory's `server.json` still works alone, and its token never goes to another `--url`.
 * Against a real `atrium serve` process, with the real CLI.
 */

const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode !== null) continue;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
});

/** `atrium serve --json --port 0` from source on `dataDir`; its first stdout line. */
async function serve(dataDir: string): Promise<{ url: string; port: number; token: string; origin: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'src/main/cli/entry.ts'), 'serve', '--json', '--port', '0', '--data-dir', dataDir, '--renderer-dir', tempDir('atrium-renderer-')], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const first = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`atrium serve exited with ${code}: ${stderr}`)));
  });
  const info = JSON.parse(first) as { url: string; port: number; token: string };
  return { ...info, origin: new URL(info.url).origin };
}

/** A tab's WebSocket on the served Atrium: one request, its result. */
async function call<R>(origin: string, token: string, method: string, params: unknown): Promise<R> {
  const ws = new WebSocket(`${origin.replace('http', 'ws')}/ws`, tokenProtocols(token), { headers: { Origin: origin } });
  await new Promise<void>((resolve, reject) => (ws.once('open', () => resolve()), ws.once('error', reject)));
  try {
    return await new Promise<R>((resolve, reject) => {
      ws.on('message', (data) => {
        const frame = JSON.parse(data.toString()) as { id?: number; ok: boolean; result: R; error?: { message: string } };
        if (frame.id !== 1) return;
        if (frame.ok) resolve(frame.result);
        else reject(new Error(frame.error?.message));
      });
      ws.send(JSON.stringify({ id: 1, method, params }));
    });
  } finally {
    ws.close();
  }
}

describe('atrium session pickup: the token never on the command line', () => {
  it('refuses --token, picks up with $ATRIUM_TOKEN or --token-stdin and --url, and through server.json alone', async () => {
    const base = tempDir('atrium-pickup-');
    const dataDir = path.join(base, 'data');
    const project = path.join(base, 'project');
    fs.mkdirSync(project);
    const { command, args } = scriptedAgentCommand(base, {});
    const defined = runCli(['agents', 'define', 'scripted', command, '--data-dir', dataDir, '--', ...args]);
    expect(defined.status, defined.stderr).toBe(0);
    const served = await serve(dataDir);
    const { session } = await call<{ session: { id: string } }>(served.origin, served.token, 'sessions.new', { cwd: project, agentId: 'scripted' });
    const code = async () => (await call<{ code: string }>(served.origin, served.token, 'sessions.handover', { sessionId: session.id })).code;
    const pickedUp = (run: ReturnType<typeof runCli>) => {
      expect(run.status, run.stderr).toBe(0);
      expect((run.json as { session: { id: string }; surface: { kind: string } }).session.id).toBe(session.id);
    };
    const noEnv = { ATRIUM_TOKEN: '' };

    // argv: refused before anything is sent, the code is not spent
    const first = await code();
    const argv = runCli(['session', 'pickup', first, '--url', served.origin, '--token', served.token, '--no-follow', '--json', '--data-dir', dataDir], noEnv);
    expect(argv.status).toBe(2);
    expect(argv.stderr).toContain('--token puts the server token on the command line, where every local user can read it (ps)');
    expect(argv.stderr).toContain('$ATRIUM_TOKEN');
    expect(argv.stderr).toContain('--token-stdin');

    // the environment, with --url
    pickedUp(runCli(['session', 'pickup', first, '--url', served.origin, '--no-follow', '--json', '--data-dir', tempDir()], { ATRIUM_TOKEN: served.token }));
    // a wrong token in the environment: refused by the server
    const wrong = runCli(['session', 'pickup', await code(), '--url', served.origin, '--no-follow', '--data-dir', tempDir()], { ATRIUM_TOKEN: 'wrong-token-wrong-token' });
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toContain('refused the connection (HTTP 401)');

    // stdin, with --url
    pickedUp(runCli(['session', 'pickup', await code(), '--url', served.origin, '--token-stdin', '--no-follow', '--json', '--data-dir', tempDir()], noEnv, `${served.token}\n`));
    const empty = runCli(['session', 'pickup', await code(), '--url', served.origin, '--token-stdin', '--no-follow', '--data-dir', tempDir()], noEnv, '');
    expect(empty.status).toBe(2);
    expect(empty.stderr).toContain('stdin ended before a token line');

    // server.json (0600, written by serve) alone
    expect(fs.statSync(path.join(dataDir, 'server.json')).mode & 0o777).toBe(0o600);
    pickedUp(runCli(['session', 'pickup', await code(), '--no-follow', '--json', '--data-dir', dataDir], noEnv));
  }, 120_000);

  it('never sends the data directory’s token to another --url', async () => {
    const dataDir = tempDir();
    const served = await serve(dataDir);
    const seen: http.IncomingHttpHeaders[] = [];
    const other = http.createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(404);
      res.end();
    });
    other.on('upgrade', (req, socket) => {
      seen.push(req.headers);
      socket.destroy();
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
      const run = runCli(['session', 'pickup', 'ABCD', '--url', url, '--no-follow', '--data-dir', dataDir], { ATRIUM_TOKEN: '' });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(`is not the Atrium serving this data directory (${served.origin})`);
      expect(JSON.stringify(seen)).not.toContain(served.token);
    } finally {
      other.closeAllConnections();
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  }, 60_000);
});
