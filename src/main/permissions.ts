import type { App, Session, WebContents } from 'electron';

/**
 * The web permissions the app's own page may be granted (never another origin): only
 * `clipboard-sanitized-write`, which Chromium asks for on `navigator.clipboard.writeText` (the
 * link dialog's Copy link and the copy buttons; Electron routes it through the permission
 * handlers, electron/electron#37158). No camera, microphone, geolocation, notifications (desktop
 * notifications come from the main process), clipboard reading, MIDI, HID, serial, USB, fullscreen
 * or pointer lock. Adding one here needs a use in the renderer that cannot work without it.
 */
export const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set<string>(['clipboard-sanitized-write']);

/**
 * Makes the session refuse every permission request and check except {@link ALLOWED_PERMISSIONS}
 * asked by a page for which `isAppPage(url)` holds (the app's own origin), and every device (HID,
 * serial, USB) check: Electron's default grants them all. A refused request is logged once per
 * permission and origin, so a feature that needs one shows up in the log rather than failing
 * silently.
 */
export function denyPermissions(session: Session, isAppPage: (url: string) => boolean = () => false): void {
  const logged = new Set<string>();
  const allows = (permission: string, url: string) => ALLOWED_PERMISSIONS.has(permission) && isAppPage(url);
  session.setPermissionRequestHandler((contents, permission, callback, details) => {
    const url = details?.requestingUrl ?? contents?.getURL?.() ?? '';
    const allowed = allows(permission, url);
    const origin = originOf(url);
    const key = `${permission} ${origin}`;
    if (!allowed && !logged.has(key) && logged.size < 200) {
      logged.add(key);
      console.warn(`[atrium] denied the permission "${permission}" requested by ${origin}`);
    }
    callback(allowed);
  });
  session.setPermissionCheckHandler((contents, permission, requestingOrigin) => allows(permission, requestingOrigin || contents?.getURL?.() || ''));
  session.setDevicePermissionHandler(() => false);
}

/**
 * On every web contents the app ever creates: `<webview>` is refused (`will-attach-webview`
 * prevented, on top of `webviewTag: false`), and `window.open` is denied until the code that made
 * the contents sets its own handler (the main window does, ./window), so no contents starts with
 * Electron's default of allowing new windows.
 */
export function refuseWebviews(app: App): void {
  app.on('web-contents-created', (_event, contents: WebContents) => {
    contents.on('will-attach-webview', (event) => {
      event.preventDefault();
      console.warn('[atrium] refused to attach a <webview>');
    });
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });
}

function originOf(url: string): string {
  try {
    const u = new URL(url);
    return u.origin === 'null' ? `${u.protocol}//${u.host}` : u.origin;
  } catch {
    return 'an unknown page';
  }
}
