import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UpdateState } from '../../../src/shared/contract';
import { AtriumError } from '../../../src/shared/errors';
import { createUpdater, type AutoUpdaterLike, type UpdaterOptions } from '../../../src/main/updater';

/** A stand-in for electron-updater 6.8's autoUpdater: records calls, emits what a test says. */
class FakeAutoUpdater extends EventEmitter implements AutoUpdaterLike {
  autoDownload = false;
  autoInstallOnAppQuit = false;
  checks = 0;
  installs: Array<[boolean | undefined, boolean | undefined]> = [];
  nextCheck: () => Promise<unknown> = async () => null;
  checkForUpdates() {
    this.checks++;
    return this.nextCheck();
  }
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean) {
    this.installs.push([isSilent, isForceRunAfter]);
  }
}

let stops: Array<() => void> = [];
afterEach(() => {
  stops.forEach((s) => s());
  stops = [];
  vi.useRealTimers();
});

function setup(overrides: Partial<UpdaterOptions> = {}) {
  const fake = new FakeAutoUpdater();
  const published: UpdateState[] = [];
  const load = vi.fn(async () => fake);
  const updater = createUpdater({ isPackaged: true, env: {}, hasFeed: () => true, load, publish: (s) => published.push(s), ...overrides });
  stops.push(() => updater.stop());
  return { fake, published, load, updater };
}

describe('desktop updater', () => {
  it('stays off in a development build and never loads electron-updater', async () => {
    const { updater, load, published } = setup({ isPackaged: false });
    await updater.start();
    expect(load).not.toHaveBeenCalled();
    expect(updater.state()).toEqual({ state: 'disabled', reason: 'Development build: updates are off.' });
    expect(published).toEqual([]);
  });

  it('stays off when ATRIUM_DISABLE_UPDATES is set, and when the build has no update feed', async () => {
    const byEnv = setup({ env: { ATRIUM_DISABLE_UPDATES: '1' } });
    await byEnv.updater.start();
    expect(byEnv.load).not.toHaveBeenCalled();
    expect(byEnv.updater.state()).toMatchObject({ state: 'disabled', reason: expect.stringContaining('ATRIUM_DISABLE_UPDATES') });
    const noFeed = setup({ hasFeed: () => false });
    await noFeed.updater.start();
    expect(noFeed.load).not.toHaveBeenCalled();
    expect(noFeed.updater.state()).toMatchObject({ state: 'disabled', reason: expect.stringContaining('no update feed') });
    const zero = setup({ env: { ATRIUM_DISABLE_UPDATES: '0' } });
    await zero.updater.start();
    expect(zero.load).toHaveBeenCalled();
  });

  it('checks at start and then every interval, downloading by itself and installing on quit', async () => {
    vi.useFakeTimers();
    const { fake, updater } = setup({ intervalMs: 1000 });
    await updater.start();
    expect(fake.autoDownload).toBe(true);
    expect(fake.autoInstallOnAppQuit).toBe(true);
    expect(fake.checks).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(fake.checks).toBe(2);
    await vi.advanceTimersByTimeAsync(2000);
    expect(fake.checks).toBe(4);
    updater.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(fake.checks).toBe(4);
  });

  it('maps electron-updater events to states, each one valid against the contract', async () => {
    const { fake, updater, published } = setup();
    await updater.start();
    fake.emit('checking-for-update');
    fake.emit('update-not-available', { version: '0.1.0' });
    fake.emit('checking-for-update');
    fake.emit('update-available', { version: '0.2.0' });
    fake.emit('download-progress', { percent: 12.6, total: 100, transferred: 12, delta: 1, bytesPerSecond: 5 });
    fake.emit('download-progress', { percent: 100.4 });
    fake.emit('update-downloaded', { version: '0.2.0' });
    expect(published).toEqual([
      { state: 'checking' },
      { state: 'idle' },
      { state: 'checking' },
      { state: 'available', version: '0.2.0' },
      { state: 'downloading', version: '0.2.0', percent: 13 },
      { state: 'downloading', version: '0.2.0', percent: 100 },
      { state: 'ready', version: '0.2.0' },
    ]);
    for (const s of published) expect(UpdateState.safeParse(s).success).toBe(true);
    // later checks that find nothing newer, or fail, keep the downloaded update installable
    fake.emit('checking-for-update');
    fake.emit('update-not-available', { version: '0.2.0' });
    fake.emit('error', new Error('net::ERR_INTERNET_DISCONNECTED'));
    expect(updater.state()).toEqual({ state: 'ready', version: '0.2.0' });
  });

  it('installs only when an update is ready', async () => {
    const { fake, updater } = setup();
    await updater.start();
    expect(() => updater.install()).toThrowError(AtriumError);
    try {
      updater.install();
    } catch (e) {
      expect((e as AtriumError).code).toBe('UPDATE_NOT_READY');
    }
    fake.emit('update-available', { version: '0.3.0' });
    fake.emit('download-progress', { percent: 50 });
    expect(() => updater.install()).toThrowError(/No update has been downloaded/);
    expect(fake.installs).toEqual([]);
    fake.emit('update-downloaded', { version: '0.3.0' });
    expect(updater.install()).toEqual({ restarting: true });
    expect(fake.installs).toEqual([[false, true]]);
  });

  it('reports errors as a short state and never throws: emitted errors, rejected checks, a failing load', async () => {
    const { fake, updater } = setup();
    fake.nextCheck = () => Promise.reject(new Error('Cannot find latest-linux.yml in the latest release artifacts\nHeaders: {"x": "y"}'));
    await updater.start();
    await vi.waitFor(() => expect(updater.state()).toEqual({ state: 'error', message: 'Cannot find latest-linux.yml in the latest release artifacts' }));
    fake.emit('error', new Error(`HttpError: 404 ${'x'.repeat(1000)}`));
    const state = updater.state();
    expect(state.state).toBe('error');
    expect(state.state === 'error' && state.message.length).toBeLessThanOrEqual(300);
    // a recovered check clears the error
    fake.emit('checking-for-update');
    fake.emit('update-not-available', {});
    expect(updater.state()).toEqual({ state: 'idle' });

    const broken = setup({ load: async () => Promise.reject(new Error('Cannot find module electron-updater')) });
    await expect(broken.updater.start()).resolves.toBeUndefined();
    expect(broken.updater.state()).toEqual({ state: 'error', message: 'Cannot find module electron-updater' });

    const throwingPublish = setup({ publish: () => { throw new Error('window gone'); } });
    await throwingPublish.updater.start();
    expect(() => throwingPublish.fake.emit('checking-for-update')).not.toThrow();
    expect(throwingPublish.updater.state()).toEqual({ state: 'checking' });
  });
});
