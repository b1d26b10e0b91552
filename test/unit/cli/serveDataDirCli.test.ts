import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readServerInfo, serverInfoPath, writeServerInfo } from '../../../src/main/cli/remote';
import { createEngine } from '../../../src/main/core/engine';
import { createPickupServer } from '../../../src/main/pickupServer';
import { runCli, spawnServe, startServe, stopSpawned } from '../../support/cli';
import { isAlive, testDispatcher } from '../../support/sessions';
import { tempDir } from '../../support/tempDir';

/**
 * One data directory, one server: `atrium serve` owns `<dataDir>/server.json` (the discovery file
 * `atrium session pickup` and host routing read); a second `atrium serve` there is refused with
 * where the first one serves, a stale file (its server gone) is replaced, and a server stopping
 * removes only its own entry. Real `atrium serve` processes, as in the integration host-routing test.
 */

afterEach(() => stopSpawned());

/** `atrium serve` on `dataDir` with stdin closed (/dev/null), not yet listening. */
const spawnServeHere = (dataDir: string) => spawnServe(dataDir, process.env, { stdin: 'ignore' });

/** `atrium serve` on `dataDir` with stdin closed, once it listens and owns the discovery file: the process and that entry. */
const startServeHere = (dataDir: string) => startServe(dataDir, process.env, { stdin: 'ignore' });

describe('atrium serve: one server per data directory', () => {
  it('a second serve on the same data dir is refused with the first one’s address and pid; pickup still finds the first; stopping removes its entry', async () => {
    const dataDir = path.join(tempDir('atrium-serve2-'), 'data');
    const { serve: first, info } = await startServeHere(dataDir);

    const second = spawnServeHere(dataDir);
    expect((await second.exited).status).toBe(1);
    expect(second.stderr()).toContain(`atrium: Atrium is already serving this data directory at ${info.origin} (pid ${first.child.pid}); stop it first or use another --data-dir.`);
    expect(second.stderr()).not.toContain(info.token);
    expect(JSON.parse(second.stdout().trim())).toMatchObject({ error: { code: 'FAILED' } });
    // the first server's entry is untouched, so a terminal still reaches it
    expect(readServerInfo(dataDir)).toEqual(info);
    expect(isAlive(first.child.pid!)).toBe(true);
    const pickup = runCli(['session', 'pickup', 'ZZZZ', '--no-follow', '--data-dir', dataDir]);
    expect(pickup.status).toBe(1);
    expect(pickup.stderr).not.toContain('No running Atrium found');
    expect(pickup.stderr).toMatch(/code|handover/i);

    first.child.kill('SIGTERM');
    expect((await first.exited).status).toBe(0);
    expect(fs.existsSync(serverInfoPath(dataDir))).toBe(false);
  }, 120_000);

  it('a stale server.json (its pid is gone, or nothing listens at its origin) is replaced by the next serve', async () => {
    const dataDir = path.join(tempDir('atrium-serve-stale-'), 'data');
    fs.mkdirSync(dataDir, { recursive: true });
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(gone.stdout);
    expect(isAlive(deadPid)).toBe(false);
    writeServerInfo(dataDir, { origin: 'http://127.0.0.1:9', token: 'stale'.repeat(8), pid: deadPid, startedAt: '2020-01-01T00:00:00.000Z' });

    const { serve, info } = await startServeHere(dataDir);
    expect(info.token).not.toBe('stale'.repeat(8));
    expect((fs.statSync(serverInfoPath(dataDir)).mode & 0o777).toString(8)).toBe('600');
    serve.child.kill('SIGTERM');
    await serve.exited;

    // a pid that is alive again (reused after a crash or reboot) with nothing listening at the origin is stale too
    writeServerInfo(dataDir, { origin: 'http://127.0.0.1:9', token: 'reused'.repeat(8), pid: process.pid, startedAt: '2020-01-01T00:00:00.000Z' });
    const next = await startServeHere(dataDir);
    expect(next.info.token).not.toBe('reused'.repeat(8));
  }, 120_000);

  it('a server stopping leaves another server’s entry in place', async () => {
    const dataDir = path.join(tempDir('atrium-serve-own-'), 'data');
    const { serve } = await startServeHere(dataDir);
    // another server's entry under the same pid (the desktop app turns its pickup server off and on): not this server's to remove
    const other = { origin: 'http://127.0.0.1:9', token: 'other'.repeat(8), pid: serve.child.pid!, startedAt: new Date().toISOString() };
    writeServerInfo(dataDir, other);
    serve.child.kill('SIGTERM');
    expect((await serve.exited).status).toBe(0);
    expect(readServerInfo(dataDir)).toEqual(other);
  }, 120_000);

  it("the desktop app's pickup server is refused while atrium serve owns the data dir, and takes over once it stopped", async () => {
    const dataDir = path.join(tempDir('atrium-serve-pickup-'), 'data');
    const { serve, info } = await startServeHere(dataDir);
    const engine = createEngine({ dataDir, watchResources: false });
    const pickup = createPickupServer(engine, testDispatcher(engine), path.join(tempDir('atrium-out-'), 'main'));
    try {
      await expect(pickup.set(true)).rejects.toMatchObject({
        code: 'UNSUPPORTED',
        message: `Atrium is already serving this data directory at ${info.origin} (pid ${serve.child.pid}); pick up sessions there, or stop it first to allow pickup from this app.`,
      });
      expect(readServerInfo(dataDir)).toEqual(info);

      serve.child.kill('SIGTERM');
      await serve.exited;
      const { url } = await pickup.set(true);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
      expect(readServerInfo(dataDir)).toMatchObject({ pid: process.pid, origin: new URL(url!).origin });
      await pickup.set(false);
      expect(fs.existsSync(serverInfoPath(dataDir))).toBe(false);
    } finally {
      await pickup.close();
      await engine.close();
    }
  }, 120_000);
});
