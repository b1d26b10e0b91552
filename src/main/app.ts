import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, Menu, session, shell, type IpcMainInvokeEvent } from 'electron';
import { registerAppScheme, serveApp } from './appProtocol';
import { resolveDataDir } from './core/dataDir';
import { createDispatcher, type Dispatcher } from './core/dispatcher';
import { createEngine, type Engine } from './core/engine';
import type { HostHandlers } from './core/handlers';
import { APP_VERSION } from './core/version';
import { electronSafeStorage } from './credentialsPort';
import { claimDeepLinkScheme, receiveDeepLinks } from './deepLinks';
import { openExternalHandler, requireDesktopWindow } from './externalLinks';
import { bindContract, forwardEvents, sendToWindows } from './ipc';
import { adoptLoginShellPath } from './loginShellPath';
import { buildMenu } from './menu';
import { notifyPermissionRequests } from './notifications';
import { denyPermissions, refuseWebviews } from './permissions';
import { createPickupServer } from './pickupServer';
import { createUpdater, loadElectronUpdater, type Updater } from './updater';
import { createMainWindow, isAppUrl, appEntry } from './window';

/** What {@link startDesktop} returns, for tests and for the quit path. */
export interface DesktopApp {
  engine: Engine;
  dispatcher: Dispatcher;
  window: BrowserWindow;
  shutdown(): Promise<void>;
}

/**
 * The desktop app's lifecycle: single-instance lock (a second launch focuses the first window,
 * routing an `atrium://` link it carries, and quits), the login shell's PATH merged into
 * `process.env.PATH` before the engine starts (`loginShellPath.ts`), the renderer served on
 * `app://atrium` with the browser mode's CSP, every permission request denied and `<webview>`
 * refused, the engine on Electron's `userData` (or `--data-dir` / `ATRIUM_DATA_DIR`), the contract
 * bound to IPC, events forwarded to windows, the engine closed on quit. Returns null when another
 * instance already runs (this one quits).
 */
export async function startDesktop(outDir: string, argv: string[] = process.argv): Promise<DesktopApp | null> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  // before ready: scheme privileges, the web-contents hook, and macOS's open-url for the launching link
  registerAppScheme();
  refuseWebviews(app);
  const links = receiveDeepLinks(app, argv);
  // a GUI launch lacks the user's PATH (and their Node): read the login shell's while Electron gets ready
  const loginPath = adoptLoginShellPath();
  await app.whenReady();
  await loginPath;
  denyPermissions(session.defaultSession, (url) => isAppUrl(url, appEntry()));
  serveApp(path.join(outDir, '../renderer'));
  claimDeepLinkScheme(app);
  const flag = argv.find((a) => a.startsWith('--data-dir='))?.slice('--data-dir='.length);
  const dataDir = resolveDataDir({ flag, electronUserData: app.getPath('userData') });
  const engine = createEngine({ dataDir, host: { kind: 'app' }, credentials: { safeStorage: electronSafeStorage() } });
  // sessions a crashed Atrium left active (their host is gone) become interrupted; live ones elsewhere are left alone
  engine.sessions.recover();
  // The pickup server needs the dispatcher and the dispatcher answers app.pickupServer: bind late.
  let pickup: ReturnType<typeof createPickupServer> | null = null;
  const updater = createUpdater({
    isPackaged: app.isPackaged,
    env: process.env,
    hasFeed: () => typeof process.resourcesPath === 'string' && fs.existsSync(path.join(process.resourcesPath, 'app-update.yml')),
    load: loadElectronUpdater,
    publish: (state) => sendToWindows(BrowserWindow.getAllWindows().map((w) => w.webContents), 'appUpdate', state),
  });
  const dispatcher = createDispatcher(engine, {
    ...desktopHostHandlers(dataDir, updater),
    'app.pickupServer': ({ enable }) => pickup!.set(enable),
  });
  pickup = createPickupServer(engine, dispatcher, outDir);
  const entry = appEntry();
  const isTrustedSender = (event: IpcMainInvokeEvent) => {
    const frame = event.senderFrame;
    return Boolean(frame && frame === event.sender.mainFrame && isAppUrl(frame.url, entry));
  };
  const unbind = bindContract(ipcMain, dispatcher, isTrustedSender);
  const unforward = forwardEvents(engine.bus, () => BrowserWindow.getAllWindows().map((w) => w.webContents));
  Menu.setApplicationMenu(buildMenu());
  let window = createMainWindow(outDir);
  void updater.start();
  /** Brings the window forward (reopening it if closed), on the route `hash` when given. */
  const showWindow = (hash: string | null) => {
    if (window.isDestroyed()) window = createMainWindow(outDir);
    if (hash) window.webContents.executeJavaScript(`location.hash = ${JSON.stringify(hash)}`).catch(() => {});
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  };
  const unnotify = notifyPermissionRequests(engine.bus, (sessionId) => showWindow(`#/sessions/${sessionId}`));
  links.attach({
    dispatcher,
    show: showWindow,
    inform: (message, detail) => void dialog.showMessageBox(window, { type: 'info', message, detail, buttons: ['OK'] }).catch(() => {}),
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) window = createMainWindow(outDir);
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  let shutDown = false;
  const shutdown = async () => {
    if (shutDown) return;
    shutDown = true;
    updater.stop();
    unforward();
    unnotify();
    unbind();
    await pickup?.close();
    await engine.close();
  };
  app.on('will-quit', () => void shutdown());
  return { engine, dispatcher, window, shutdown };
}

function desktopHostHandlers(dataDir: string, updater: Updater): HostHandlers {
  return {
    'app.openExternal': openExternalHandler(shell),
    'app.updateStatus': () => updater.state(),
    'app.installUpdate': (_params, context) => {
      requireDesktopWindow(context, 'restart Atrium');
      return updater.install();
    },
    'app.info': () => ({
      version: APP_VERSION,
      host: 'electron',
      dataDir,
      homeDir: os.homedir(),
      capabilities: { nativeFolderPicker: true },
    }),
    'app.pickFolder': async ({ title }) => {
      const parent = BrowserWindow.getFocusedWindow();
      const options = { title: title ?? 'Add a workspace folder', properties: ['openDirectory' as const, 'createDirectory' as const] };
      const result = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
      return { path: result.canceled || result.filePaths.length === 0 ? null : result.filePaths[0] };
    },
  };
}
