import { useApp } from '../state/appStore';

/**
 * Browser mode only: says why the WebSocket to `atrium serve` is down. Disconnected: it reconnects
 * by itself while the same server comes back; a restarted server has a new token, so the banner
 * points at the address it prints, never at reloading. Unauthorized (no token, or the server restarted with a new one): what to open instead.
 */
export function ConnectionBanner() {
  const connection = useApp((s) => s.connection);
  const loaded = useApp((s) => s.workspacesLoaded);
  if (connection === 'unauthorized') {
    return (
      <div className="banner banner-error" role="alert">
        This tab has no valid token for this Atrium server. Open the full address <code>atrium serve</code> printed (it ends in <code>#token=…</code>); the token
        changes every time the server starts.
      </div>
    );
  }
  if (connection === 'open' || (!loaded && connection === 'connecting')) return null;
  return (
    <div className="banner banner-error" role="status">
      Lost the connection to Atrium. Reconnecting… If you stopped <code>atrium serve</code>, start it again and open the full address it prints (it ends in{' '}
      <code>#token=…</code>): the token is new at every start, so reloading this page does not help. Give the same <code>--port</code> and{' '}
      <code>--data-dir</code> to keep this address and your workspaces.
    </div>
  );
}
