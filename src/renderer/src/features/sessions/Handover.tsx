import { useState } from 'react';
import { errorToast } from '../../components/errorToast';
import { Share2, X } from 'lucide-react';
import type { HandoverCode } from '../../../../shared/contract';
import { useApp } from '../../state/appStore';
import { surfaceKey } from './surface';
import { useNow } from './useNow';

/** "Hand over": issues a 4-character code for this session (valid 120 s, single use). */
export function HandoverButton({ sessionId, onIssued, disabledReason = null }: { sessionId: string; onIssued(code: HandoverCode): void; disabledReason?: string | null }) {
  const client = useApp((s) => s.client);
  const [busy, setBusy] = useState(false);
  const issue = async () => {
    if (!client) return;
    setBusy(true);
    try {
      onIssued(await client.request('sessions.handover', { sessionId, surfaceKey }));
    } catch (e) {
      errorToast(`Could not issue a handover code: ${(e as Error).message}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button className="button" disabled={busy || disabledReason !== null} onClick={() => void issue()} title={disabledReason ?? 'Continue this session in another browser tab or a terminal'}>
      <Share2 size={13} aria-hidden /> <span className="sess-btn-label">Hand over</span>
    </button>
  );
}

/** The current code with its countdown and how to use it; gone when it expired or was used. */
export function HandoverBox({ code, onDismiss }: { code: HandoverCode; onDismiss(): void }) {
  const now = useNow(1000);
  const left = Math.max(0, Math.ceil((Date.parse(code.expiresAt) - now) / 1000));
  if (left === 0) return null;
  return (
    <section className="sess-handover" role="region" aria-label="Handover code">
      <div className="sess-handover-code" aria-label="Code" data-code={code.code}>
        {code.code}
      </div>
      <div className="sess-handover-text">
        <div>
          Valid for <strong aria-label="Seconds left">{left} s</strong>, once.
        </div>
        <div className="muted">
          In a terminal: <code className="selectable">atrium session pickup {code.code}</code>, or in another browser tab of this Atrium: Sessions → <em>Pick up a session</em>.
        </div>
        <DesktopPickupServer />
      </div>
      <button className="icon-button" aria-label="Hide the handover code" title="Hide (the code stays valid until it expires)" onClick={onDismiss}>
        <X size={14} />
      </button>
    </section>
  );
}

/**
 * Desktop app only: "Allow pickup from a browser" starts the same loopback server `atrium serve`
 * runs (token required) so the code can be redeemed in a browser tab; shows its URL.
 */
function DesktopPickupServer() {
  const client = useApp((s) => s.client);
  const isDesktop = useApp((s) => s.info?.host === 'electron');
  const [url, setUrl] = useState<string | null>(null);
  if (!isDesktop || !client) return null;
  const toggle = async () => {
    try {
      setUrl((await client.request('app.pickupServer', { enable: !url })).url);
    } catch (e) {
      errorToast((e as Error).message);
    }
  };
  return (
    <div className="sess-pickup-server">
      <button className="button" onClick={() => void toggle()}>
        {url ? 'Stop browser pickup' : 'Allow pickup from a browser'}
      </button>
      {url && (
        <span className="muted">
          {' '}
          Open <code className="selectable">{url}</code> (it carries the access token; keep it private).
        </span>
      )}
    </div>
  );
}
