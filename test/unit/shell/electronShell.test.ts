import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IPC_EVENT_CHANNEL, IPC_REQUEST_PREFIX, REQUEST_NAMES } from '../../../src/shared/contract';
import { createFakeElectron, type FakeElectron } from '../../support/fakeElectron';
import { scriptedAgentCommand, waitFor } from '../../support/sessions';
import { tempDir } from '../../support/tempDir';

// The shell imports 'electron'; here it gets the fake, so the shell's wiring runs under plain Node.
const holder = vi.hoisted(() => ({ fake: null as unknown }));
vi.mock('electron', () => {
  const names = ['app', 'BrowserWindow', 'dialog', 'ipcMain', 'Menu', 'Notification', 'shell'] as const;
  return Object.fromEntries(names.map((n) => [n, new Proxy(function () {}, forward(n))]));
});
function forward(name: string): ProxyHandler<object> {
  const target = () => (holder.fake as Record<string, object>)[name] as Record<string | symbol, unknown> & (new (...a: unknown[]) => object);
  return {
    get: (_t, key) => {
      const value = target()[key];
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target()) : value;
    },
    construct: (_t, args) => new (target())(...args),
  };
}

const { startDesktop } = await import('../../../src/main/app');

let fake: FakeElectron;
let shutdown: (() => Promise<void>) | null = null;
const outDir = '/opt/atrium/out/main';
const appFile = `file://${path.join(outDir, '../renderer/index.html')}`;

beforeEach(() => {
  fake = createFakeElectron();
  holder.fake = fake;
});
afterEach(async () => {
  await shutdown?.();
  shutdown = null;
});

async function start() {
  const app = await startDesktop(outDir, ['electron', '.', `--data-dir=${tempDir('atrium-shell-')}`]);
  shutdown = app?.shutdown ?? null;
  return app!;
}

const invoke = (channel: string, params: unknown, frameUrl = appFile) => {
  const win = fake.windows[0];
  const frame = { url: frameUrl };
  win.webContents.mainFrame = frame;
  return fake.handlers.get(channel)!({ sender: win.webContents, senderFrame: frame }, params) as Promise<unknown>;
};

describe('Electron shell (fake electron module)', () => {
  it('creates the window with contextIsolation, sandbox, no nodeIntegration and webSecurity', async () => {
    await start();
    const prefs = fake.windows[0].options.webPreferences;
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false });
    expect(prefs.preload).toBe(path.join(outDir, '../preload/index.cjs'));
    expect(fake.windows[0].loaded.file).toBe(path.join(outDir, '../renderer/index.html'));
  });

  it('binds every contract request to an IPC handler, and nothing else', async () => {
    await start();
    expect([...fake.handlers.keys()].sort()).toEqual(REQUEST_NAMES.map((n) => IPC_REQUEST_PREFIX + n).sort());
  });

  it('validates payloads with the contract before the engine sees them; errors cross as {code, message} without a stack', async () => {
    await start();
    const bad = (await invoke(`${IPC_REQUEST_PREFIX}workspaces.add`, { path: 42 })) as { ok: boolean; error: Record<string, unknown> };
    expect(bad.ok).toBe(false);
    expect(bad.error.code).toBe('INVALID_PARAMS');
    expect(Object.keys(bad.error).sort()).toEqual(['code', 'message']);
    const missing = (await invoke(`${IPC_REQUEST_PREFIX}workspaces.add`, { path: '/definitely/not/here' })) as { ok: boolean; error: Record<string, unknown> };
    expect(missing).toEqual({ ok: false, error: { code: 'PATH_NOT_FOUND', message: expect.any(String) } });
  });

  it('answers a valid request and forwards engine events to the window', async () => {
    await start();
    const dir = tempDir('atrium-ws-');
    const added = (await invoke(`${IPC_REQUEST_PREFIX}workspaces.add`, { path: dir })) as { ok: boolean; result: { workspace: { path: string } } };
    expect(added).toEqual({ ok: true, result: expect.anything() });
    expect(added.result.workspace.path).toBe(dir);
    expect(fake.windows[0].webContents.sent).toEqual([{ channel: IPC_EVENT_CHANNEL, payload: { event: 'workspacesChanged', payload: expect.any(Object) } }]);
    const info = (await invoke(`${IPC_REQUEST_PREFIX}app.info`, {})) as { result: { host: string; capabilities: { nativeFolderPicker: boolean } } };
    expect(info.result.host).toBe('electron');
    expect(info.result.capabilities.nativeFolderPicker).toBe(true);
    const picked = (await invoke(`${IPC_REQUEST_PREFIX}app.pickFolder`, {})) as { result: { path: string } };
    expect(picked.result.path).toBe('/picked/folder');
  });

  it('refuses IPC from a frame that is not the app (e.g. a page navigated elsewhere)', async () => {
    await start();
    const res = (await invoke(`${IPC_REQUEST_PREFIX}workspaces.list`, {}, 'https://evil.example/')) as { ok: boolean; error: { code: string } };
    expect(res).toEqual({ ok: false, error: { code: 'FORBIDDEN_SENDER', message: expect.any(String) } });
  });

  it('blocks navigation away from the app and denies window.open', async () => {
    await start();
    const wc = fake.windows[0].webContents;
    const navigate = (url: string) => {
      const event = { defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } };
      wc.emit('will-navigate', event, url);
      return event.defaultPrevented;
    };
    expect(navigate('https://evil.example/')).toBe(true);
    expect(navigate(appFile)).toBe(false);
    expect(wc.windowOpenHandler!({ url: 'https://example.com' })).toEqual({ action: 'deny' });
  });

  it('raises a desktop notification for a permission request only when no window is focused; clicking opens the session', async () => {
    const app = await start();
    const permission = { title: 'Write notes.txt' } as never;
    fake.windows[0].focused = true;
    app.engine.bus.emit('permissionRequested', { sessionId: 's1', sessionTitle: 'fix', permission });
    expect(fake.notifications).toHaveLength(0);
    fake.windows[0].focused = false;
    app.engine.bus.emit('permissionRequested', { sessionId: 's1', sessionTitle: 'fix', permission });
    expect(fake.notifications).toHaveLength(1);
    expect(fake.notifications[0].options.title).toBe('Permission needed: fix');
    expect(fake.notifications[0].shown).toBe(true);
    fake.notifications[0].emit('click');
    expect(fake.windows[0].webContents.executed).toEqual(['location.hash = "#/sessions/s1"']);
  });

  it('notifies only requests addressed to a desktop window or to any surface, once each, including after a re-target', async () => {
    const app = await start();
    fake.windows[0].focused = false;
    const call = async <T,>(name: string, params: unknown): Promise<T> => {
      const res = (await invoke(`${IPC_REQUEST_PREFIX}${name}`, params)) as { ok: boolean; result: T; error?: unknown };
      expect(res.error).toBeUndefined();
      return res.result;
    };
    const asked: string[] = [];
    app.engine.bus.subscribe((event, payload) => event === 'permissionRequested' && asked.push(String((payload as { surfaceId: string | null }).surfaceId)));
    const scenario = { turns: [{ match: 'ask', steps: [{ permission: { title: 'Write notes.txt', kind: 'edit' } }, { permission: { toolCallId: 'p2', title: 'Run make', kind: 'execute' } }] }] };
    const { command, args } = scriptedAgentCommand(tempDir('atrium-agent-'), scenario);
    await call('agents.define', { id: 'scripted', command, args });
    const { session } = await call<{ session: { id: string } }>('sessions.new', { cwd: tempDir('atrium-project-'), agentId: 'scripted', title: 'notes' });
    // a browser tab (pickup server) and this window are attached; the tab sends the prompt
    await app.dispatcher.call('sessions.attach', { sessionId: session.id, surfaceId: 'browser-tab', kind: 'browser', label: 'Browser tab' });
    await call('sessions.attach', { sessionId: session.id, surfaceId: 'app-window', kind: 'app' });
    const { promptId } = await app.dispatcher.call('sessions.prompt', { sessionId: session.id, text: 'ask', surfaceId: 'browser-tab' });
    await waitFor(() => asked.length === 1, 'the first request');
    expect(asked).toEqual(['browser-tab']);
    expect(fake.notifications).toHaveLength(0);
    // the tab closes: the request is re-targeted to this window and notified now
    await app.dispatcher.call('sessions.detach', { sessionId: session.id, surfaceId: 'browser-tab' });
    expect(asked).toEqual(['browser-tab', 'app-window']);
    expect(fake.notifications.map((n) => n.options.body)).toEqual(['Write notes.txt. The agent waits until you answer in Atrium.']);
    // the window's page goes away: any surface may answer, but it was already notified
    fake.windows[0].webContents.emit('destroyed');
    await waitFor(() => asked.length === 3, 'the re-target to any surface');
    expect(asked[2]).toBe('null');
    expect(fake.notifications).toHaveLength(1);
    const first = app.engine.sessions.show(session.id).permissions[0];
    app.engine.sessions.answerPermission(session.id, first.requestId, 'allow');
    // the next request has no surface to go to (any): notified
    await waitFor(() => asked.length === 4, 'the second request');
    expect(asked[3]).toBe('null');
    expect(fake.notifications.map((n) => n.options.title)).toEqual(['Permission needed: notes', 'Permission needed: notes']);
    app.engine.sessions.answerPermission(session.id, app.engine.sessions.show(session.id).permissions[0].requestId, 'allow');
    expect(await app.engine.sessions.waitForTurn(session.id, promptId)).toBe('end_turn');
  });

  it('starts the pickup server on demand (token required, server.json written 0600) and stops it', async () => {
    const app = await start();
    const on = (await invoke(`${IPC_REQUEST_PREFIX}app.pickupServer`, { enable: true })) as { ok: boolean; result: { url: string } };
    expect(on.ok).toBe(true);
    const url = new URL(on.result.url);
    expect(url.hostname).toBe('127.0.0.1');
    // the token is in the fragment (never sent to a server); the API refuses a request without it
    const token = url.hash.replace(/^#token=/, '');
    expect(url.search).toBe('');
    expect((await fetch(`${url.origin}/auth`)).status).toBe(401);
    expect((await fetch(`${url.origin}/auth`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(204);
    const info = path.join(app.engine.dataDir, 'server.json');
    expect(fs.statSync(info).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(info, 'utf8')).token).toBe(token);
    const off = (await invoke(`${IPC_REQUEST_PREFIX}app.pickupServer`, { enable: false })) as { result: { url: string | null } };
    expect(off.result.url).toBeNull();
    expect(fs.existsSync(info)).toBe(false);
    await expect(fetch(url.origin)).rejects.toThrow();
  });

  it('detaches the session surfaces a window attached when its page goes away (new document, webContents destroyed), not on hash navigation', async () => {
    const app = await start();
    const call = async <T,>(name: string, params: unknown): Promise<T> => {
      const res = (await invoke(`${IPC_REQUEST_PREFIX}${name}`, params)) as { ok: boolean; result: T; error?: unknown };
      expect(res.error).toBeUndefined();
      return res.result;
    };
    const { command, args } = scriptedAgentCommand(tempDir('atrium-agent-'), {});
    await call('agents.define', { id: 'scripted', command, args });
    const { session } = await call<{ session: { id: string } }>('sessions.new', { cwd: tempDir('atrium-project-'), agentId: 'scripted' });
    const attached = async () => (await app.dispatcher.call('sessions.policy', { sessionId: session.id })).policy.surfaces.map((s) => s.surfaceId);
    const wc = fake.windows[0].webContents;

    await call('sessions.attach', { sessionId: session.id, surfaceId: 'app-first', kind: 'app' });
    expect(await attached()).toEqual(['app-first']);
    wc.emit('did-start-navigation', { isMainFrame: true, isSameDocument: true, url: `${appFile}#/sessions/x` });
    wc.emit('did-start-navigation', { isMainFrame: false, isSameDocument: false, url: 'about:blank' });
    await new Promise((r) => setTimeout(r, 50));
    expect(await attached()).toEqual(['app-first']);
    // a reload loads a new document: its surfaces are gone
    wc.emit('did-start-navigation', { isMainFrame: true, isSameDocument: false, url: appFile });
    await waitFor(async () => (await attached()).length === 0, 'the reloaded page to be detached');

    await call('sessions.attach', { sessionId: session.id, surfaceId: 'app-second', kind: 'app' });
    expect(await attached()).toEqual(['app-second']);
    wc.emit('destroyed');
    await waitFor(async () => (await attached()).length === 0, 'the closed window to be detached');
  });

  it('quits when another instance holds the single-instance lock', async () => {
    fake.setLock(false);
    const quit = vi.fn();
    fake.app.on('quit-called', quit);
    expect(await startDesktop(outDir, [])).toBeNull();
    expect(quit).toHaveBeenCalled();
    expect(fake.windows).toHaveLength(0);
  });
});
