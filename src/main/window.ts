import path from 'node:path';
import { BrowserWindow, type WebPreferences } from 'electron';

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

/** Where the window loads the app from: the dev server in `electron-vite dev`, else the built file. */
export function appEntry(outDir: string, devServerUrl = process.env.ELECTRON_RENDERER_URL): { url: string } | { file: string } {
  return devServerUrl ? { url: devServerUrl } : { file: path.join(outDir, '../renderer/index.html') };
}

/** True when `url` is the app itself (same dev-server origin, or a file inside the built renderer). */
export function isAppUrl(url: string, entry: { url: string } | { file: string }): boolean {
  try {
    const target = new URL(url);
    if ('url' in entry) return target.origin === new URL(entry.url).origin;
    return target.protocol === 'file:' && decodeURIComponent(target.pathname).startsWith(path.dirname(entry.file));
  } catch {
    return false;
  }
}

/**
 * Creates the main window. Navigation away from the app is blocked and `window.open` is denied;
 * links reach the OS browser only through the link confirmation (`app.openExternal`).
 */
export function createMainWindow(outDir: string): BrowserWindow {
  const entry = appEntry(outDir);
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
  if ('url' in entry) void win.loadURL(entry.url);
  else void win.loadFile(entry.file);
  return win;
}
