import { EventEmitter } from 'node:events';

/**
 * A fake `electron` module for unit-testing the thin Electron shell under plain Node (the Electron
 * binary cannot be downloaded on CI machines). It records what the shell asks Electron to do, so
 * tests can assert security settings, bound channels and handlers.
 */
export function createFakeElectron() {
  const handlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>();
  const windows: FakeBrowserWindow[] = [];
  const appEvents = new EventEmitter();
  const notifications: FakeNotification[] = [];
  /** What happened in order, for before/after-ready checks: `ready`, `schemes`, `protocol:<scheme>`. */
  const timeline: string[] = [];
  const privilegedSchemes: Array<{ scheme: string; privileges: Record<string, boolean> }> = [];
  const protocolHandlers = new Map<string, (request: Request) => Promise<Response>>();
  const messageBoxes: Array<{ message: string; detail?: string }> = [];
  const defaultProtocolClients: string[] = [];
  type PermissionRequestHandler = (wc: unknown, permission: string, callback: (granted: boolean) => void, details: { requestingUrl?: string }) => void;
  const sessionHandlers: {
    request: PermissionRequestHandler | null;
    check: ((wc: unknown, permission: string, origin: string, details: unknown) => boolean) | null;
    device: ((details: unknown) => boolean) | null;
  } = { request: null, check: null, device: null };
  /** URLs given to `shell.openExternal`, in order. */
  const opened: string[] = [];

  class FakeNotification extends EventEmitter {
    static isSupported = () => true;
    shown = false;
    constructor(readonly options: { title: string; body: string }) {
      super();
      notifications.push(this);
    }
    show() {
      this.shown = true;
    }
  }
  let lockGranted = true;

  class FakeWebContents extends EventEmitter {
    constructor() {
      super();
      // Electron emits app 'web-contents-created' for every new web contents, as it is created
      appEvents.emit('web-contents-created', {}, this);
    }
    sent: Array<{ channel: string; payload: unknown }> = [];
    windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
    mainFrame = { url: '' };
    id = 1;
    executed: string[] = [];
    isDestroyed = () => false;
    executeJavaScript(code: string) {
      this.executed.push(code);
      return Promise.resolve();
    }
    send(channel: string, payload: unknown) {
      this.sent.push({ channel, payload });
    }
    setWindowOpenHandler(h: (details: { url: string }) => { action: string }) {
      this.windowOpenHandler = h;
    }
  }

  class FakeBrowserWindow extends EventEmitter {
    static getAllWindows = () => windows;
    static getFocusedWindow = () => windows[0] ?? null;
    webContents = new FakeWebContents();
    restored = 0;
    focusCount = 0;
    minimized = false;
    loaded: { url?: string; file?: string } = {};
    constructor(readonly options: { webPreferences: Record<string, unknown> }) {
      super();
      windows.push(this);
    }
    loadURL(url: string) {
      this.loaded = { url };
      this.webContents.mainFrame.url = url;
      return Promise.resolve();
    }
    loadFile(file: string) {
      this.loaded = { file };
      this.webContents.mainFrame.url = `file://${file}`;
      return Promise.resolve();
    }
    focused = false;
    isFocused = () => this.focused;
    isDestroyed = () => false;
    isMinimized = () => this.minimized;
    restore() {
      this.restored++;
      this.minimized = false;
    }
    focus() {
      this.focusCount++;
    }
    show() {}
  }

  const fake = {
    handlers,
    timeline,
    privilegedSchemes,
    protocolHandlers,
    sessionHandlers,
    messageBoxes,
    defaultProtocolClients,
    WebContents: FakeWebContents,
    windows,
    notifications,
    Notification: FakeNotification,
    setLock(granted: boolean) {
      lockGranted = granted;
    },
    ipcMain: {
      handle: (channel: string, fn: (event: unknown, ...args: unknown[]) => unknown) => {
        if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
        handlers.set(channel, fn);
      },
      removeHandler: (channel: string) => handlers.delete(channel),
    },
    app: Object.assign(appEvents, {
      requestSingleInstanceLock: () => lockGranted,
      quit: () => appEvents.emit('quit-called'),
      exit: () => {},
      whenReady: () => {
        timeline.push('ready');
        return Promise.resolve();
      },
      getPath: (_name: string) => '/nonexistent-userdata',
      isPackaged: false,
      isDefaultProtocolClient: (scheme: string) => defaultProtocolClients.includes(scheme),
      setAsDefaultProtocolClient: (scheme: string) => {
        defaultProtocolClients.push(scheme);
        return true;
      },
    }),
    protocol: {
      registerSchemesAsPrivileged: (schemes: Array<{ scheme: string; privileges: Record<string, boolean> }>) => {
        timeline.push('schemes');
        privilegedSchemes.push(...schemes);
      },
      handle: (scheme: string, handler: (request: Request) => Promise<Response>) => {
        timeline.push(`protocol:${scheme}`);
        protocolHandlers.set(scheme, handler);
      },
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (h: PermissionRequestHandler) => (sessionHandlers.request = h),
        setPermissionCheckHandler: (h: typeof sessionHandlers.check) => (sessionHandlers.check = h),
        setDevicePermissionHandler: (h: typeof sessionHandlers.device) => (sessionHandlers.device = h),
      },
    },
    BrowserWindow: FakeBrowserWindow,
    Menu: { setApplicationMenu: () => {}, buildFromTemplate: (t: unknown) => ({ template: t }) },
    dialog: {
      showOpenDialog: async () => ({ canceled: false, filePaths: ['/picked/folder'] }),
      showMessageBox: async (_win: unknown, options: { message: string; detail?: string }) => {
        messageBoxes.push({ message: options.message, detail: options.detail });
        return { response: 0 };
      },
    },
    opened,
    shell: {
      openExternal: async (url: string) => {
        opened.push(url);
      },
    },
  };
  return fake;
}

export type FakeElectron = ReturnType<typeof createFakeElectron>;

/** The `electron` exports the shell uses; each is forwarded to the fake a test puts in its holder. */
const ELECTRON_EXPORTS = ['app', 'BrowserWindow', 'dialog', 'ipcMain', 'Menu', 'Notification', 'protocol', 'session', 'shell'] as const;

/**
 * The module a test's `vi.mock('electron', …)` returns: every export forwards (property reads,
 * bound methods, `new`) to `holder.fake` as it is at the time of use, so each test can install a
 * fresh {@link createFakeElectron} in `beforeEach` while the shell keeps its one import.
 */
export function electronModuleFor(holder: { fake: unknown }): Record<string, unknown> {
  const forward = (name: string): ProxyHandler<object> => {
    const target = () => (holder.fake as Record<string, object>)[name] as Record<string | symbol, unknown> & (new (...a: unknown[]) => object);
    return {
      get: (_t, key) => {
        const value = target()[key];
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target()) : value;
      },
      construct: (_t, args) => new (target())(...args),
    };
  };
  return Object.fromEntries(ELECTRON_EXPORTS.map((n) => [n, new Proxy(function () {}, forward(n))]));
}
