import { UpdateState } from '../shared/contract';
import { AtriumError } from '../shared/errors';

/**
 * The slice of electron-updater 6.8's `AppUpdater` (its `autoUpdater` singleton) this module uses.
 * Injected, so tests drive a fake and development builds never load electron-updater at all.
 */
export interface AutoUpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  on(event: 'checking-for-update' | 'update-not-available' | 'update-cancelled', listener: () => void): unknown;
  on(event: 'update-available' | 'update-downloaded', listener: (info: { version: string }) => void): unknown;
  on(event: 'download-progress', listener: (progress: { percent: number }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  checkForUpdates(): Promise<unknown>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
}

export interface UpdaterOptions {
  /** Electron's `app.isPackaged`: development builds never update themselves. */
  isPackaged: boolean;
  /** `process.env`; `ATRIUM_DISABLE_UPDATES=1` (or `true`) turns updates off. */
  env: NodeJS.ProcessEnv;
  /**
   * True when the packaged app carries an update feed (`resources/app-update.yml`, written by
   * electron-builder from `publish` in build/electron-builder.yml). A build made without a
   * resolvable GitHub owner/repo has none; updates are then off instead of failing every check.
   */
  hasFeed(): boolean;
  /** Loads electron-updater's `autoUpdater` (only called when updates are on). */
  load(): Promise<AutoUpdaterLike>;
  /** Receives every state change (already validated against the contract's `UpdateState`). */
  publish(state: UpdateState): void;
  /** Time between checks, in milliseconds; four hours by default. */
  intervalMs?: number;
}

/** The desktop app's self-update: its current state, the periodic checks, and "Restart to update". */
export interface Updater {
  state(): UpdateState;
  /** Checks once now and then every `intervalMs`; resolves after the first check was started. Never rejects. */
  start(): Promise<void>;
  /** Quits and installs the downloaded update. Throws UPDATE_NOT_READY unless the state is `ready`. */
  install(): { restarting: true };
  /** Stops the periodic checks. */
  stop(): void;
}

export const UPDATE_CHECK_INTERVAL_MS = 4 * 60 * 60 * 1000;

/** Longest error text kept; electron-updater's HTTP errors carry whole response headers. */
const MAX_ERROR_CHARS = 300;

/**
 * Creates the updater. Off (state `disabled` with the reason) when the app is not packaged, when
 * `ATRIUM_DISABLE_UPDATES` is set, or when the build has no update feed. Otherwise electron-updater
 * downloads a newer release by itself (`autoDownload`) and installs it when the app quits
 * (`autoInstallOnAppQuit`); its events become states: `checking-for-update` → checking,
 * `update-available` → available(version), `download-progress` → downloading(version, percent),
 * `update-downloaded` → ready(version), `update-not-available`/`update-cancelled` → idle,
 * `error` → error(first line of the message). A downloaded update stays `ready` through later
 * checks that find nothing newer or fail: the restart still installs it. Nothing here throws out
 * of an event or a timer.
 */
export function createUpdater(options: UpdaterOptions): Updater {
  const intervalMs = options.intervalMs ?? UPDATE_CHECK_INTERVAL_MS;
  let current: UpdateState = { state: 'idle' };
  let updater: AutoUpdaterLike | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;
  let stopped = false;

  const set = (next: UpdateState) => {
    current = UpdateState.parse(next);
    try {
      options.publish(current);
    } catch {
      // a window that went away mid-send must not stop the updater
    }
  };
  const disabledReason = (): string | null => {
    if (!options.isPackaged) return 'Development build: updates are off.';
    if (/^(1|true|yes)$/i.test(options.env.ATRIUM_DISABLE_UPDATES ?? '')) return 'Updates are turned off by ATRIUM_DISABLE_UPDATES.';
    if (!options.hasFeed()) return 'This build has no update feed (it was packaged without a GitHub owner and repository).';
    return null;
  };
  const check = async () => {
    if (!updater || stopped) return;
    try {
      await updater.checkForUpdates();
    } catch (error) {
      // electron-updater usually emits `error` too; the rejection alone must still show
      if (current.state !== 'error' && current.state !== 'ready') set({ state: 'error', message: shortMessage(error) });
    }
  };
  const wire = (u: AutoUpdaterLike) => {
    u.autoDownload = true;
    u.autoInstallOnAppQuit = true;
    let version = '';
    u.on('checking-for-update', () => {
      if (current.state !== 'ready') set({ state: 'checking' });
    });
    u.on('update-not-available', () => {
      if (current.state !== 'ready') set({ state: 'idle' });
    });
    u.on('update-cancelled', () => {
      if (current.state !== 'ready') set({ state: 'idle' });
    });
    u.on('update-available', (info) => {
      version = String(info?.version ?? '');
      if (current.state === 'ready' && current.version === version) return;
      set({ state: 'available', version });
    });
    u.on('download-progress', (progress) => {
      const percent = Math.max(0, Math.min(100, Math.round(Number(progress?.percent) || 0)));
      set({ state: 'downloading', version, percent });
    });
    u.on('update-downloaded', (info) => {
      set({ state: 'ready', version: String(info?.version ?? version) });
    });
    u.on('error', (error) => {
      if (current.state !== 'ready') set({ state: 'error', message: shortMessage(error) });
    });
  };

  return {
    state: () => current,
    async start() {
      const reason = disabledReason();
      if (reason) {
        // nothing to tell the windows: they ask for the state when they load, and show nothing for it
        current = { state: 'disabled', reason };
        return;
      }
      try {
        updater = await options.load();
        wire(updater);
      } catch (error) {
        set({ state: 'error', message: shortMessage(error) });
        return;
      }
      if (stopped) return;
      timer = setInterval(() => void check(), intervalMs);
      timer.unref?.();
      void check();
    },
    install() {
      if (current.state !== 'ready' || !updater) {
        throw new AtriumError('UPDATE_NOT_READY', 'No update has been downloaded yet; Atrium says "Update ready" when one is.');
      }
      // isSilent false: the Windows installer shows its progress; isForceRunAfter true: Atrium comes back
      updater.quitAndInstall(false, true);
      return { restarting: true };
    },
    stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}

function shortMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const first = text.split('\n').find((line) => line.trim() !== '')?.trim() ?? 'Unknown error';
  return first.length > MAX_ERROR_CHARS ? `${first.slice(0, MAX_ERROR_CHARS - 1)}…` : first;
}

/**
 * Loads electron-updater's `autoUpdater`. The package is CommonJS and defines `autoUpdater` as a
 * getter, which Node's named-export detection for `import()` of CommonJS does not see; it is read
 * from the default export (the module's `exports`) instead.
 */
export async function loadElectronUpdater(): Promise<AutoUpdaterLike> {
  const mod = (await import('electron-updater')) as unknown as { default?: { autoUpdater?: AutoUpdaterLike }; autoUpdater?: AutoUpdaterLike };
  const autoUpdater = mod.default?.autoUpdater ?? mod.autoUpdater;
  if (!autoUpdater) throw new Error('electron-updater did not provide autoUpdater.');
  return autoUpdater;
}
