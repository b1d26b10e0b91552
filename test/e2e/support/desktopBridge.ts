import type { Page } from '@playwright/test';
import type { UpdateState } from '../../../src/shared/contract';

/**
 * Makes `page` look like the desktop app's own window to the renderer: a `window.atrium` bridge
 * (what the Electron preload exposes) defined before the app loads. Every request goes to the real
 * `atrium serve` over its WebSocket with `token`, except the desktop-only ones, which it records in
 * `window.__desktop` instead of opening a browser or restarting: `app.openExternal` (URLs in
 * `opened`), `app.installUpdate` (`installs`), `app.updateStatus` (answers `initialUpdate`).
 * `window.__desktop.push(state)` delivers an `appUpdate` event the way the main process does.
 * For Chromium runs where no Electron binary exists; test/electron covers the real shell.
 */
export async function installDesktopBridge(page: Page, token: string, initialUpdate: UpdateState): Promise<void> {
  await page.addInitScript(
    ({ token, initialUpdate }) => {
      type Outcome = { ok: true; result: unknown } | { ok: false; error: { code: string; message: string } };
      const pending = new Map<number, (o: Outcome) => void>();
      const listeners = new Set<(event: string, payload: unknown) => void>();
      const queue: string[] = [];
      let nextId = 0;
      const ws = new WebSocket(`ws://${location.host}/ws`, ['atrium.v1', `atrium.token.${token}`]);
      ws.onopen = () => queue.splice(0).forEach((f) => ws.send(f));
      ws.onmessage = (m) => {
        const frame = JSON.parse(String(m.data)) as { id?: number; ok?: boolean; result?: unknown; error?: { code: string; message: string }; event?: string; payload?: unknown };
        if (typeof frame.id === 'number') {
          pending.get(frame.id)?.(frame.ok ? { ok: true, result: frame.result } : { ok: false, error: frame.error! });
          pending.delete(frame.id);
        } else if (frame.event) for (const l of listeners) l(frame.event, frame.payload);
      };
      const desktop = {
        opened: [] as string[],
        installs: 0,
        push: (state: unknown) => listeners.forEach((l) => l('appUpdate', state)),
      };
      const local: Record<string, (params: { url?: string }) => unknown> = {
        'app.updateStatus': () => initialUpdate,
        'app.installUpdate': () => (desktop.installs++, { restarting: true }),
        'app.openExternal': (p) => (desktop.opened.push(String(p.url)), { opened: true }),
      };
      Object.assign(window, {
        __desktop: desktop,
        atrium: {
          invoke(method: string, params: { url?: string }): Promise<Outcome> {
            if (local[method]) return Promise.resolve({ ok: true, result: local[method](params) });
            return new Promise((resolve) => {
              const id = ++nextId;
              pending.set(id, resolve);
              const frame = JSON.stringify({ id, method, params });
              if (ws.readyState === WebSocket.OPEN) ws.send(frame);
              else queue.push(frame);
            });
          },
          onEvent(listener: (event: string, payload: unknown) => void) {
            listeners.add(listener);
            return () => listeners.delete(listener);
          },
        },
      });
    },
    { token, initialUpdate },
  );
}

/** What the fake desktop bridge recorded. */
export function desktopRecord(page: Page): Promise<{ opened: string[]; installs: number }> {
  return page.evaluate(() => {
    const d = (window as unknown as { __desktop: { opened: string[]; installs: number } }).__desktop;
    return { opened: [...d.opened], installs: d.installs };
  });
}

/** Delivers an `appUpdate` event to the page, as the main process would. */
export function pushUpdate(page: Page, state: UpdateState): Promise<void> {
  return page.evaluate((s) => (window as unknown as { __desktop: { push(s: unknown): void } }).__desktop.push(s), state);
}
