import path from 'node:path';
import { BrowserWindow, type WebPreferences } from 'electron';
import { APP_ENTRY_URL, isAppOrigin } from './appProtocol';

/**
 * The renderer's security settings: isolated, sandboxed, no Node, web security on. The preload is
 * the only bridge, and it exposes nothing but the contract's requests and events.
 */
export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    spellcheck: false,
  };
}

/**
 * Where the window loads the app from: the dev server in `electron-vite dev`, else the built
 * renderer over the app's own scheme (`app://atrium/index.html`, served by ./appProtocol), never
 * `file://`.
 */
export function appEntry(devServerUrl = process.env.ELECTRON_RENDERER_URL): { url: string } {
  return { url: devServerUrl || APP_ENTRY_URL };
}

/**
 * True when `url` is the app itself: on the origin of `entry` and nothing else (the dev server's
 * `http://localhost:<port>` in `electron-vite dev`, else `app://atrium`).
 */
export function isAppUrl(url: string, entry: { url: string }): boolean {
  if (isAppOrigin(entry.url)) return isAppOrigin(url);
  try {
    const target = new URL(url);
    return (target.protocol === 'http:' || target.protocol === 'https:') && target.origin === new URL(entry.url).origin;
  } catch {
    return false;
  }
}

/**
 * Creates the main window. Navigation away from the app is blocked and `window.open` is denied;
 * links reach the OS browser only through the link confirmation (`app.openExternal`).
 */
export function createMainWindow(outDir: string): BrowserWindow {
  const entry = appEntry();
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Atrium',
    backgroundColor: '#1e1f22',
    webPreferences: secureWebPreferences(path.join(outDir, '../preload/index.cjs')),
  });
  win.once('ready-to-show', () => win.show());
  win.webContents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url, entry)) event.preventDefault();
  });
  win.webContents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url, entry)) event.preventDefault();
  });
  // links open only through the renderer's confirmation (app.openExternal), never straight from window.open
  win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  void win.loadURL(entry.url);
  return win;
}
