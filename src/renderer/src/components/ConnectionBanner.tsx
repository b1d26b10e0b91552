import { useApp } from '../state/appStore';

/** Shown only in browser mode when the WebSocket to `atrium serve` is down; it reconnects by itself. */
export function ConnectionBanner() {
  const connection = useApp((s) => s.connection);
  const loaded = useApp((s) => s.workspacesLoaded);
  if (connection === 'open' || (!loaded && connection === 'connecting')) return null;
  return (
    <div className="banner banner-error" role="status">
      Lost the connection to Atrium. Reconnecting… If you stopped <code>atrium serve</code>, start it again and reload this page.
    </div>
  );
}
