import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IPC_EVENT_CHANNEL, IPC_REQUEST_PREFIX, REQUEST_NAMES } from '../../../src/shared/contract';
import { createFakeElectron, type FakeElectron } from '../../support/fakeElectron';
import { scriptedAgentCommand, waitFor } from '../../support/sessions';
import { tempDir } from '../../support/tempDir';

// The shell imports 'electron'; here it gets the fake, so the shell's wiring runs under plain Node.
const holder = vi.hoisted(() => ({ fake: null as unknown }));
vi.mock('electron', async () => (await import('../../support/fakeElectron')).electronModuleFor(holder));

const { startDesktop } = await import('../../../src/main/app');
const { rendererFileFor } = await import('../../../src/main/appProtocol');
const { contentSecurityPolicy } = await import('../../../src/main/server/security');

let fake: FakeElectron;
let shutdown: (() => Promise<void>) | null = null;
let outDir: string;
const appFile = 'app://atrium/index.html';

/** A built app in a temp dir: out/main, out/renderer (index.html, a script, a stylesheet) and a sibling out/renderer-evil. */
function fakeBuild(): string {
  const out = path.join(tempDir('atrium-out-'), 'out');
  fs.mkdirSync(path.join(out, 'main'), { recursive: true });
  fs.mkdirSync(path.join(out, 'renderer', 'assets'), { recursive: true });
  fs.mkdirSync(path.join(out, 'renderer-evil'), { recursive: true });
  fs.writeFileSync(path.join(out, 'renderer', 'index.html'), '<!doctype html><script type="module" src="./assets/index.js"></script>');
  fs.writeFileSync(path.join(out, 'renderer', 'assets', 'index.js'), 'console.log("atrium")');
  fs.writeFileSync(path.join(out, 'renderer', 'assets', 'index.css'), 'body{}');
  fs.writeFileSync(path.join(out, 'renderer-evil', 'secret.js'), 'stolen');
  return path.join(out, 'main');
}

beforeEach(() => {
  // the login shell's PATH is read only in the test that says so (never the real shell of whoever runs the tests)
  vi.stubEnv('ATRIUM_SKIP_SHELL_ENV', '1');
  fake = createFakeElectron();
  holder.fake = fake;
  outDir = fakeBuild();
});
afterEach(async () => {
  await shutdown?.();
  shutdown = null;
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

async function start(extraArgs: string[] = []) {
  const app = await startDesktop(outDir, ['electron', '.', `--data-dir=${tempDir('atrium-shell-')}`, ...extraArgs]);
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
    expect(fake.windows[0].loaded).toEqual({ url: 'app://atrium/index.html' });
  });

  it('on a GUI launch, merges the login shell\'s PATH before the engine starts: agents on it are found', async () => {
    const loginBin = tempDir('atrium-login-bin-');
    fs.writeFileSync(path.join(loginBin, 'my-agent'), '#!/bin/sh\n', { mode: 0o755 });
    const shell = path.join(tempDir('atrium-login-shell-'), 'zsh');
    // like a .zprofile that adds a Node manager's folder, with noise around
    fs.writeFileSync(shell, `#!/bin/sh\necho 'Last login: today'\nPATH=${loginBin}:$PATH\nexport PATH\neval "$2"\necho bye\n`, { mode: 0o755 });
    vi.stubEnv('ATRIUM_SKIP_SHELL_ENV', '');
    vi.stubEnv('SHELL', shell);
    vi.stubEnv('PATH', '/usr/bin:/bin');
    const tty = { stdin: process.stdin.isTTY, stdout: process.stdout.isTTY };
    process.stdin.isTTY = false;
    process.stdout.isTTY = false;
    try {
      const app = await start();
      expect(process.env.PATH).toBe(`${loginBin}:/usr/bin:/bin`);
      app.engine.sessions.agents.define({ id: 'mine', command: 'my-agent', args: [], env: {} });
      expect(app.engine.sessions.agents.get('mine').install).toMatchObject({ state: 'installed', path: path.join(loginBin, 'my-agent') });
    } finally {
      process.stdin.isTTY = tty.stdin;
      process.stdout.isTTY = tty.stdout;
    }
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

  it('accepts IPC from the app:// origin only: not file:// (even the built index.html), not a look-alike host, user or port', async () => {
    await start();
    const list = async (frameUrl: string) => ((await invoke(`${IPC_REQUEST_PREFIX}workspaces.list`, {}, frameUrl)) as { ok: boolean }).ok;
    expect(await list('app://atrium/index.html#/sessions')).toBe(true);
    expect(await list(`file://${path.join(outDir, '../renderer/index.html')}`)).toBe(false);
    for (const url of ['app://atrium.evil/index.html', 'app://evil/index.html', 'app://x@atrium/index.html', 'app://atrium:8080/index.html', 'http://localhost:5173/', 'about:blank', 'data:text/html,x']) {
      expect(await list(url), url).toBe(false);
    }
  });

  it('under electron-vite dev, loads and accepts the dev server\'s origin and nothing else', async () => {
    vi.stubEnv('ELECTRON_RENDERER_URL', 'http://localhost:5173');
    await start();
    expect(fake.windows[0].loaded).toEqual({ url: 'http://localhost:5173' });
    const list = async (frameUrl: string) => ((await invoke(`${IPC_REQUEST_PREFIX}workspaces.list`, {}, frameUrl)) as { ok: boolean }).ok;
    expect(await list('http://localhost:5173/#/sessions')).toBe(true);
    expect(await list('http://localhost:5174/')).toBe(false);
    expect(await list('app://atrium/index.html')).toBe(false);
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
    expect(navigate(`file://${path.join(outDir, '../renderer/index.html')}`)).toBe(true);
    expect(navigate('app://atrium.evil/index.html')).toBe(true);
    expect(navigate(appFile)).toBe(false);
    expect(navigate(`${appFile}#/sessions`)).toBe(false);
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

describe('Desktop security (fake electron module)', () => {
  const serve = (url: string, method = 'GET') => fake.protocolHandlers.get('app')!({ url, method } as Request);

  it('registers app:// as a standard, secure scheme before ready, and serves it only after', async () => {
    await start();
    expect(fake.privilegedSchemes).toEqual([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
    expect(fake.timeline.indexOf('schemes')).toBeLessThan(fake.timeline.indexOf('ready'));
    expect(fake.timeline.indexOf('protocol:app')).toBeGreaterThan(fake.timeline.indexOf('ready'));
  });

  it('serves the built renderer over app:// with MIME types, and the browser mode\'s CSP on every response, 404 and 405 included', async () => {
    await start();
    const csp = contentSecurityPolicy();
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    const cases: Array<[string, string, number, string]> = [
      ['GET', 'app://atrium/', 200, 'text/html; charset=utf-8'],
      ['GET', 'app://atrium/index.html', 200, 'text/html; charset=utf-8'],
      ['GET', 'app://atrium/assets/index.js', 200, 'text/javascript; charset=utf-8'],
      ['GET', 'app://atrium/assets/index.css', 200, 'text/css; charset=utf-8'],
      ['HEAD', 'app://atrium/assets/index.js', 200, 'text/javascript; charset=utf-8'],
      ['GET', 'app://atrium/missing.js', 404, 'text/plain; charset=utf-8'],
      ['POST', 'app://atrium/index.html', 405, 'text/plain; charset=utf-8'],
    ];
    for (const [method, url, status, type] of cases) {
      const res = await serve(url, method);
      expect([method, url, res.status], url).toEqual([method, url, status]);
      expect(res.headers.get('content-type'), url).toBe(type);
      expect(res.headers.get('content-security-policy'), url).toBe(csp);
      expect(res.headers.get('x-content-type-options'), url).toBe('nosniff');
    }
    expect(await (await serve('app://atrium/assets/index.js')).text()).toBe('console.log("atrium")');
    // the browser server sends the same policy, plus its own WebSocket
    expect(contentSecurityPolicy(['ws://127.0.0.1:1'])).toBe(csp.replace("connect-src 'self'", "connect-src 'self' ws://127.0.0.1:1"));
  });

  it('serves nothing outside out/renderer: the renderer-evil prefix trick, traversal (plain, encoded, backslashes), absolute paths, other hosts', async () => {
    await start();
    const root = path.join(outDir, '../renderer');
    // a symlink inside the build that resolves to the sibling: a string-prefix check would let it through
    fs.symlinkSync(path.join(outDir, '../renderer-evil/secret.js'), path.join(root, 'assets', 'linked.js'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    for (const url of [
      'app://atrium/assets/linked.js',
      'app://atrium/../renderer-evil/secret.js',
      'app://atrium/%2e%2e/renderer-evil/secret.js',
      'app://atrium/%2E%2E%2Frenderer-evil%2Fsecret.js',
      'app://atrium/assets/..%2f..%2frenderer-evil/secret.js',
      'app://atrium/..\\renderer-evil\\secret.js',
      'app://atrium/..%5crenderer-evil%5csecret.js',
      `app://atrium/${encodeURIComponent(path.join(outDir, '../renderer-evil/secret.js'))}`,
      `app://atrium${path.join(outDir, '../renderer-evil/secret.js')}`,
      'app://atrium//etc/passwd',
      'app://atrium/C:/Windows/win.ini',
      'app://atrium/assets',
      'app://atrium/assets/',
      'app://atrium/index.html%00.js',
      'app://atrium/%E0%A4%A',
      'app://evil/index.html',
      'app://atrium.evil/index.html',
      'file:///etc/passwd',
    ]) {
      const res = await serve(url);
      expect(res.status, url).toBe(404);
      expect(res.headers.get('content-security-policy'), url).toBe(contentSecurityPolicy());
      expect(await res.text(), url).not.toContain('stolen');
    }
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('app:// answered 404'));
    // the path check itself, with the real folders
    expect(rendererFileFor(root, 'app://atrium/assets/index.js')).toBe(path.join(root, 'assets', 'index.js'));
    expect(rendererFileFor(`${root}-evil`, 'app://atrium/secret.js')).toBe(path.join(`${root}-evil`, 'secret.js'));
    expect(rendererFileFor(root, 'app://atrium/assets/linked.js')).toBeNull();
  });

  it('grants the app\'s own page only clipboard writes (Copy link), and no other page even that', async () => {
    await start();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { request, check } = fake.sessionHandlers;
    const ask = (url: string) => new Promise<boolean>((resolve) => request!(fake.windows[0].webContents, 'clipboard-sanitized-write', resolve, { requestingUrl: url }));
    expect(await ask(appFile)).toBe(true);
    expect(check!(fake.windows[0].webContents, 'clipboard-sanitized-write', 'app://atrium', {})).toBe(true);
    for (const other of ['https://evil.example/', 'app://atrium.evil/index.html', 'file:///tmp/x.html', 'about:blank']) {
      expect(await ask(other), other).toBe(false);
      expect(check!(fake.windows[0].webContents, 'clipboard-sanitized-write', other, {}), other).toBe(false);
    }
  });

  it('denies every other permission request and check, and every device, from the app\'s own page too', async () => {
    await start();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { request, check, device } = fake.sessionHandlers;
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'midiSysex', 'pointerLock', 'fullscreen', 'openExternal', 'hid', 'serial', 'usb', 'display-capture']) {
      const granted = await new Promise<boolean>((resolve) => request!(fake.windows[0].webContents, permission, resolve, { requestingUrl: appFile }));
      expect(granted, permission).toBe(false);
      expect(check!(fake.windows[0].webContents, permission, 'app://atrium', {}), permission).toBe(false);
    }
    expect(device!({ deviceType: 'usb', origin: 'app://atrium' })).toBe(false);
    expect(console.warn).toHaveBeenCalledWith('[atrium] denied the permission "media" requested by app://atrium');
  });

  it('refuses <webview> on every web contents, and a new web contents opens no windows', async () => {
    await start();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const attach = (wc: InstanceType<FakeElectron['WebContents']>) => {
      const event = { defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } };
      wc.emit('will-attach-webview', event, { preload: '/x.js' }, { src: 'https://evil.example' });
      return event.defaultPrevented;
    };
    expect(attach(fake.windows[0].webContents)).toBe(true);
    const other = new fake.WebContents();
    expect(attach(other)).toBe(true);
    expect(other.windowOpenHandler!({ url: 'https://example.com' })).toEqual({ action: 'deny' });
  });

  describe('atrium:// links', () => {
    const hashes = () => fake.windows[0].webContents.executed;
    const secondLaunch = (...args: string[]) => fake.app.emit('second-instance', {}, ['/opt/Atrium/atrium', ...args], '/home/me');

    it('routes the first launch\'s link once the window exists', async () => {
      await start(['atrium://sessions']);
      await waitFor(() => hashes().length === 1, 'the route');
      expect(hashes()).toEqual(['location.hash = "#/sessions"']);
    });

    it('a second launch restores and focuses the window; with a link to a workspace or session, shows it', async () => {
      const app = await start();
      const win = fake.windows[0];
      win.minimized = true;
      secondLaunch();
      expect(win.restored).toBe(1);
      expect(win.focusCount).toBe(1);
      expect(hashes()).toEqual([]);

      const { workspace } = await app.dispatcher.call('workspaces.add', { path: tempDir('atrium-link-ws-') });
      secondLaunch(`atrium://workspace/${workspace.id}`);
      await waitFor(() => hashes().length === 1, 'the workspace route');
      expect(hashes()).toEqual([`location.hash = "#/workspace/${workspace.id}"`]);
      expect(win.focusCount).toBe(2);

      const { command, args } = scriptedAgentCommand(tempDir('atrium-agent-'), {});
      await app.dispatcher.call('agents.define', { id: 'scripted', command, args });
      const { session } = await app.dispatcher.call('sessions.new', { cwd: workspace.path, agentId: 'scripted' });
      secondLaunch('--no-sandbox', `atrium://session/${session.id}`);
      await waitFor(() => hashes().length === 2, 'the session route');
      expect(hashes()[1]).toBe(`location.hash = "#/sessions/${session.id}"`);
    });

    it('open-url (macOS) routes too, and takes the event from the OS', async () => {
      await start();
      const event = { defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } };
      fake.app.emit('open-url', event, 'atrium://sessions');
      expect(event.defaultPrevented).toBe(true);
      await waitFor(() => hashes().length === 1, 'the route');
      expect(hashes()).toEqual(['location.hash = "#/sessions"']);
    });

    it('an open-url that arrives before ready is kept and routed once the window exists', async () => {
      const pending = startDesktop(outDir, ['electron', '.', `--data-dir=${tempDir('atrium-shell-')}`]);
      fake.app.emit('open-url', { preventDefault() {} }, 'atrium://sessions');
      shutdown = (await pending)!.shutdown;
      await waitFor(() => hashes().length === 1, 'the route');
      expect(hashes()).toEqual(['location.hash = "#/sessions"']);
    });

    it('malformed, unknown or dangling links are logged and ignored: the window comes forward, nothing navigates, nothing crashes', async () => {
      await start();
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const links = [
        'atrium://workspace/..%2f..%2fsettings',
        'atrium://preferences',
        'atrium://workspace/3f2b8c1e-0000-4c4e-9a51-0b6f1d2e3c4a',
        'atrium://session/3f2b8c1e-0000-4c4e-9a51-0b6f1d2e3c4a',
        `atrium://open?path=/${'x'.repeat(5000)}`,
        'atrium://workspace/x#javascript:alert(1)',
      ];
      for (const link of links) secondLaunch(link);
      await waitFor(() => warn.mock.calls.length === links.length, 'a log line per link');
      const lines = warn.mock.calls.map((c) => String(c[0]));
      expect(lines).toEqual(links.map(() => expect.stringMatching(/^\[atrium\] ignored the link "atrium:\/\//)));
      const lineFor = (start: string) => lines.find((l) => l.startsWith(`[atrium] ignored the link ${JSON.stringify(start)}`)) ?? '';
      expect(lineFor(links[0])).toContain('not a valid workspace id');
      expect(lineFor(links[1])).toContain('unknown host "preferences"');
      expect(lineFor(links[2])).toContain('no workspace has the id');
      expect(lineFor(links[3])).toMatch(/session.*not found|no session/i);
      expect(lines.find((l) => l.includes('longer than 2048'))!.length).toBeLessThan(400);
      expect(hashes()).toEqual([]);
      expect(fake.windows[0].focusCount).toBe(links.length);
      expect(fake.windows).toHaveLength(1);
    });

    it('open?path= shows a listed workspace, and never adds an unlisted folder (it says so instead)', async () => {
      const app = await start();
      const listed = tempDir('atrium-listed-');
      const { workspace } = await app.dispatcher.call('workspaces.add', { path: listed });
      secondLaunch(`atrium://open?path=${encodeURIComponent(listed)}`);
      await waitFor(() => hashes().length === 1, 'the workspace route');
      expect(hashes()).toEqual([`location.hash = "#/workspace/${workspace.id}"`]);

      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const unlisted = tempDir('atrium-unlisted-');
      secondLaunch(`atrium://open?path=${encodeURIComponent(unlisted)}`);
      await waitFor(() => fake.messageBoxes.length === 1, 'the explanation');
      expect(fake.messageBoxes[0].message).toBe('This folder is not one of your workspaces');
      expect(fake.messageBoxes[0].detail).toContain(unlisted);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('not added'));
      expect((await app.dispatcher.call('workspaces.list', {})).workspaces.map((w) => w.path)).toEqual([listed]);
      expect(hashes()).toHaveLength(1);
    });

    it('the packaged app claims the atrium:// scheme with the OS; a development run does not', async () => {
      await start();
      expect(fake.defaultProtocolClients).toEqual([]);
      await shutdown?.();
      fake = createFakeElectron();
      holder.fake = fake;
      (fake.app as { isPackaged: boolean }).isPackaged = true;
      await start();
      expect(fake.defaultProtocolClients).toEqual(['atrium']);
    });

    it('losing the single-instance lock quits before registering anything: the running instance gets the link', async () => {
      fake.setLock(false);
      const quit = vi.fn();
      fake.app.on('quit-called', quit);
      expect(await startDesktop(outDir, ['electron', '.', 'atrium://sessions'])).toBeNull();
      expect(quit).toHaveBeenCalled();
      expect(fake.timeline).toEqual([]);
      expect(fake.app.listenerCount('open-url')).toBe(0);
      expect(fake.app.listenerCount('second-instance')).toBe(0);
      expect(fake.windows).toHaveLength(0);
    });
  });
});
