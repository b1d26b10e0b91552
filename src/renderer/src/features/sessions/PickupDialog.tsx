import { useState } from 'react';
import { LogIn } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useApp } from '../../state/appStore';
import { rememberPickup, surfaceKey, surfaceKind, surfaceLabel, tabSurfaceId } from './surface';
import { FormDialogFooter } from '../../components/DialogActions';

/** "Pick up a session": redeems a handover code from another surface and opens that session here. */
export function PickupButton() {
  const client = useApp((s) => s.client);
  const openSession = useApp((s) => s.openSession);
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const pickup = async () => {
    if (!client || !code.trim()) return;
    setBusy(true);
    setError(null);
    try {
      const { session, surface } = await client.request('sessions.pickup', { code: code.trim().toUpperCase(), clientId: tabSurfaceId /* the browser server uses its connection id instead */, kind: surfaceKind, label: surfaceLabel, surfaceKey });
      rememberPickup(session.id, surface.surfaceId);
      setOpen(false);
      setCode('');
      openSession(session.id, { kind: 'sessions' });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        setError(null);
      }}
    >
      <Dialog.Trigger asChild>
        <button className="button" title="Continue a session handed over from another window, tab or terminal">
          <LogIn size={14} /> Pick up a session
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" aria-describedby="pickup-desc">
          <Dialog.Title className="dialog-title">Pick up a session</Dialog.Title>
          <p id="pickup-desc" className="dialog-text">
            Type the 4-character code shown after <em>Hand over</em> in the session you want to continue here. A code works once, for 120 seconds.
          </p>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void pickup();
            }}
          >
            <label className="field">
              <span>Handover code</span>
              <input className="sess-pickup-input" value={code} onChange={(e) => setCode(e.target.value)} maxLength={8} autoFocus autoComplete="off" spellCheck={false} aria-label="Handover code" placeholder="ABCD" />
            </label>
            <FormDialogFooter error={error} submitLabel="Pick up" disabled={busy || code.trim().length < 4} />
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
