import { useEffect, useId, useState } from 'react';
import { AlertCircle, ArrowDownCircle, RotateCw } from 'lucide-react';
import type { UpdateState } from '../../../../shared/contract';
import { useApp } from '../../state/appStore';
import './updates.css';

/**
 * The desktop app's update, in the sidebar footer: nothing while idle or checking; a quiet
 * download line; "Update ready — Restart" once downloaded; a quiet "Update failed" that
 * opens to what happened and what to do. Renders nothing in a browser tab (`client.desktop`).
 */
export function UpdateStatus() {
  const client = useApp((s) => s.client);
  const [state, setState] = useState<UpdateState | null>(null);
  const [restartError, setRestartError] = useState<string | null>(null);
  useEffect(() => {
    if (!client?.desktop) return;
    // an event that arrives before the answer is newer than it
    let heard = false;
    const off = client.on('appUpdate', (next) => {
      heard = true;
      setState(next);
    });
    client.request('app.updateStatus', {}).then(
      (now) => !heard && setState(now),
      () => {},
    );
    return off;
  }, [client]);
  if (!client?.desktop || !state) return null;
  const restart = () => {
    setRestartError(null);
    client.request('app.installUpdate', {}).catch((e: Error) => setRestartError(`Could not restart: ${e.message}`));
  };
  return <UpdateNotice state={state} onRestart={restart} restartError={restartError} />;
}

/** The update line for one state (exported for tests); null for states that show nothing. */
export function UpdateNotice({ state, onRestart, restartError = null }: { state: UpdateState; onRestart(): void; restartError?: string | null }) {
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  switch (state.state) {
    case 'available':
    case 'downloading': {
      const percent = state.state === 'downloading' ? state.percent : 0;
      return (
        <div className="update-notice muted" role="status" aria-label="Update">
          <ArrowDownCircle size={13} aria-hidden />
          <span>
            Downloading Atrium {state.version}… {percent}%
          </span>
          <progress className="update-progress" max={100} value={percent} aria-label="Update download" />
        </div>
      );
    }
    case 'ready':
      return (
        <div className="update-notice update-ready" role="status" aria-label="Update">
          <RotateCw size={13} aria-hidden />
          <span>
            Update ready <span className="muted">— Atrium {state.version}</span>
          </span>
          <button className="button primary update-restart" onClick={onRestart} title={`Quit, install Atrium ${state.version} and start it again`}>
            Restart
          </button>
          {restartError && (
            <p className="field-error" role="alert">
              {restartError}
            </p>
          )}
        </div>
      );
    case 'error':
      return (
        <div className="update-notice update-error">
          <button className="link-button" aria-expanded={open} aria-controls={detailsId} onClick={() => setOpen((o) => !o)}>
            <AlertCircle size={13} aria-hidden /> Update failed
          </button>
          {open && (
            <div id={detailsId} className="update-error-details">
              <p>
                <code className="selectable">{state.message}</code>
              </p>
              <p className="muted">Atrium tries again in a few hours. If this keeps happening, check the network or proxy, or download the latest release from the project’s releases page and install it over this one.</p>
            </div>
          )}
        </div>
      );
    default:
      return null;
  }
}
