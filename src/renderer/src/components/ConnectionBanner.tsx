import { useApp } from '../state/appStore';

/**
 * Browser mode only: says why the WebSocket to `atrium serve` is down and what to do.
 * - Disconnected: it reconnects by itself while the server comes back on the same address with
 *   the same token (a fixed `--port` and the same data directory keep it); actions are disabled
 *   meanwhile ({@link useActionsBlocked}).
 * - Unauthorized after having been connected: the server came back with a new token. Opening the
 *   address it printed, in any tab of this browser, reconnects this tab too (the token arrives
 *   through this origin's storage).
 * - Unauthorized from the start: the tab never had a token.
 */
export function ConnectionBanner() {
  const connection = useApp((s) => s.connection);
  const loaded = useApp((s) => s.workspacesLoaded);
  if (connection === 'unauthorized') {
    if (loaded) {
      return (
        <div className="banner banner-error connection-banner" role="alert">
          <strong>Atrium restarted with a new token</strong>, so this tab can no longer reach it. Open the address <code>atrium serve</code> printed (it ends in{' '}
          <code>#token=…</code>) in this browser: this tab reconnects by itself as soon as you do. To keep one address across restarts, start it with a fixed{' '}
          <code>--port</code> and the same <code>--data-dir</code>. Actions are disabled until then.
        </div>
      );
    }
    return (
      <div className="banner banner-error connection-banner" role="alert">
        This tab has no valid token for this Atrium server. Open the full address <code>atrium serve</code> printed (it ends in <code>#token=…</code>); the token
        changes when the server starts without a fixed <code>--port</code>.
      </div>
    );
  }
  if (connection === 'open' || (!loaded && connection === 'connecting')) return null;
  return (
    <div className="banner banner-error connection-banner" role="status">
      <strong>Lost the connection to Atrium.</strong> Reconnecting… Actions are disabled until it is back. If you stopped <code>atrium serve</code>, start it again:
      with the same <code>--port</code> and <code>--data-dir</code> this tab reconnects by itself; otherwise open the full address it prints (it ends in{' '}
      <code>#token=…</code>).
    </div>
  );
}

/**
 * Why actions are disabled right now, or null: the browser tab lost its server (down, or restarted
 * with a new token) after having been connected, or never had a token. The desktop app is always
 * connected.
 */
export function useActionsBlocked(): string | null {
  const connection = useApp((s) => s.connection);
  const loaded = useApp((s) => s.workspacesLoaded);
  if (connection === 'unauthorized') return 'Disabled: this tab has no valid token for Atrium (see the banner above).';
  if (connection !== 'open' && loaded) return 'Disabled: the connection to Atrium is lost (see the banner above).';
  return null;
}
