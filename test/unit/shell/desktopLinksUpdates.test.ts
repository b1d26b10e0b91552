import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IPC_EVENT_CHANNEL, IPC_REQUEST_PREFIX } from '../../../src/shared/contract';
import { createFakeElectron, type FakeElectron } from '../../support/fakeElectron';
import { tempDir } from '../../support/tempDir';

// The shell imports 'electron' and gets the fake (electronModuleFor).
const holder = vi.hoisted(() => ({ fake: null as unknown }));
vi.mock('electron', async () => (await import('../../support/fakeElectron')).electronModuleFor(holder));

const { startDesktop } = await import('../../../src/main/app');
const { sendToWindows } = await import('../../../src/main/ipc');

let fake: FakeElectron;
let shutdown: (() => Promise<void>) | null = null;
const outDir = '/opt/atrium/out/main';
const appFile = 'app://atrium/index.html';

beforeEach(() => {
  fake = createFakeElectron();
  holder.fake = fake;
});
afterEach(async () => {
  await shutdown?.();
  shutdown = null;
});

async function start() {
  const app = await startDesktop(outDir, ['electron', '.', `--data-dir=${tempDir('atrium-shell-links-')}`]);
  shutdown = app?.shutdown ?? null;
  return app!;
}

type Outcome = { ok: true; result: unknown } | { ok: false; error: { code: string; message: string } };
const invoke = (method: string, params: unknown, frameUrl = appFile) => {
  const win = fake.windows[0];
  const frame = { url: frameUrl };
  win.webContents.mainFrame = frame;
  return fake.handlers.get(IPC_REQUEST_PREFIX + method)!({ sender: win.webContents, senderFrame: frame }, params) as Promise<Outcome>;
};

describe('desktop: opening links from agent text', () => {
  it('hands an https, http or mailto link to the system, in the normalised form the dialog showed', async () => {
    await start();
    expect(await invoke('app.openExternal', { url: 'https://docs.example.com/a b' })).toEqual({ ok: true, result: { opened: true } });
    expect(await invoke('app.openExternal', { url: 'http://2130706433/' })).toMatchObject({ ok: true });
    expect(await invoke('app.openExternal', { url: 'mailto:someone@example.com' })).toMatchObject({ ok: true });
    expect(fake.opened).toEqual(['https://docs.example.com/a%20b', 'http://127.0.0.1/', 'mailto:someone@example.com']);
  });

  it('refuses every other scheme, relative links and oversized input before the system sees them', async () => {
    await start();
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,x', 'vscode://file/x', './notes.md', '//evil.example/', `https://example.com/${'a'.repeat(9000)}`]) {
      const outcome = await invoke('app.openExternal', { url });
      expect(outcome, url).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS' } });
    }
    expect(await invoke('app.openExternal', { url: 42 })).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS' } });
    expect(fake.opened).toEqual([]);
  });

  it('answers only the app\'s own main frame, and never a browser tab of the pickup server', async () => {
    const app = await start();
    expect(await invoke('app.openExternal', { url: 'https://example.com/' }, 'https://evil.example/')).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
    // a tab served by the desktop's pickup server reaches the same dispatcher as `ws-<id>`
    expect(await app.dispatcher.dispatch('app.openExternal', { url: 'https://example.com/' }, { caller: 'ws-1' })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
    expect(await app.dispatcher.dispatch('app.installUpdate', {}, { caller: 'ws-1' })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN_SENDER' } });
    expect(fake.opened).toEqual([]);
  });

  it('window.open from the page opens nothing, not even an https link (only the confirmation does)', async () => {
    await start();
    expect(fake.windows[0].webContents.windowOpenHandler!({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    await new Promise((r) => setTimeout(r, 10));
    expect(fake.opened).toEqual([]);
  });

  it('a system opener that fails becomes an error that says what to do', async () => {
    await start();
    fake.shell.openExternal = async () => {
      throw new Error('No application knows how to open the URL');
    };
    expect(await invoke('app.openExternal', { url: 'https://example.com/' })).toEqual({
      ok: false,
      error: { code: 'INTERNAL', message: expect.stringMatching(/No application knows.*Copy it and paste it into your browser/) },
    });
  });
});

describe('desktop: updates', () => {
  it('are off in an unpackaged app: the state says why, and installing is refused', async () => {
    await start();
    expect(await invoke('app.updateStatus', {})).toEqual({ ok: true, result: { state: 'disabled', reason: 'Development build: updates are off.' } });
    expect(await invoke('app.installUpdate', {})).toMatchObject({ ok: false, error: { code: 'UPDATE_NOT_READY' } });
  });

  it('state changes reach the app\'s windows on the event channel, checked against the contract', async () => {
    await start();
    const wc = fake.windows[0].webContents;
    wc.sent = [];
    sendToWindows([wc as never], 'appUpdate', { state: 'ready', version: '0.2.0' });
    expect(wc.sent).toEqual([{ channel: IPC_EVENT_CHANNEL, payload: { event: 'appUpdate', payload: { state: 'ready', version: '0.2.0' } } }]);
    expect(() => sendToWindows([wc as never], 'appUpdate', { state: 'downloading', version: '1', percent: 140 })).toThrow();
    expect(wc.sent).toHaveLength(1);
  });
});
