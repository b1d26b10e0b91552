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
    isMinimized = () => false;
    restore() {}
    focus() {}
    show() {}
  }

  const fake = {
    handlers,
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
      whenReady: () => Promise.resolve(),
      getPath: (_name: string) => '/nonexistent-userdata',
    }),
    BrowserWindow: FakeBrowserWindow,
    Menu: { setApplicationMenu: () => {}, buildFromTemplate: (t: unknown) => ({ template: t }) },
    dialog: { showOpenDialog: async () => ({ canceled: false, filePaths: ['/picked/folder'] }) },
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
