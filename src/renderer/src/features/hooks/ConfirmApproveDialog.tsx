import { useRef, useState, type KeyboardEvent } from 'react';
import { AlertDialog } from 'radix-ui';
import { ConfirmActions } from '../../components/DialogActions';
import { approvableLabel, isUncovered, type Approvable } from './ApproveAllDialog';
import { literalOf, sourceLabel } from './HookCard';
import { serverLiteral } from './McpCard';
import { DangerList, UncoveredList } from './Uncovered';

/**
 * Confirmation before approving one hook or MCP server that has danger highlights or runs code its
 * digest does not cover. Shows the literal command, the highlights and each "not covered by the
 * digest" entry; for uncovered items Approve stays disabled until "I understand Atrium cannot
 * check this code" is ticked, and `onConfirm(true)` then means the user acknowledged it (sent as
 * `acknowledgeUncovered`). Focus starts on the acknowledgement (else on Cancel); Enter on the
 * ticked acknowledgement confirms, Escape cancels.
 */
export function ConfirmApproveDialog({ approvable, onOpenChange, onConfirm }: { approvable: Approvable; onOpenChange(open: boolean): void; onConfirm(acknowledgeUncovered: boolean): void }) {
  const { kind, item } = approvable;
  const uncovered = isUncovered(approvable);
  const [acknowledged, setAcknowledged] = useState(false);
  const ack = useRef<HTMLInputElement>(null);
  // opened from a plain button (no radix Trigger): remember it, so closing gives focus back to it
  const returnTo = useRef<Element | null>(document.activeElement);
  const verb = item.state === 'modified' ? 'Approve this version' : 'Approve';
  const enterConfirms = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && e.target === ack.current && acknowledged) {
      e.preventDefault();
      onConfirm(true);
    }
  };
  return (
    <AlertDialog.Root open onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content
          className="dialog dialog-medium approve-one-dialog"
          onKeyDown={enterConfirms}
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            if (returnTo.current instanceof HTMLElement && returnTo.current.isConnected) returnTo.current.focus();
          }}
          onOpenAutoFocus={(e) => {
            if (!ack.current) return;
            e.preventDefault();
            ack.current.focus();
          }}
        >
          <AlertDialog.Title className="dialog-title">{uncovered ? 'Approve code the digest does not cover?' : `Approve a${kind === 'hook' ? ' hook' : 'n MCP server'} with danger highlights?`}</AlertDialog.Title>
          <AlertDialog.Description className="dialog-text">
            {uncovered
              ? 'Its digest covers the command, not the code that command fetches or resolves when it runs. That code can change at any time without this item turning “modified”. Approve only if you trust where it comes from.'
              : 'Atrium flagged what this command does. Once approved it runs exactly as shown whenever its event fires.'}
          </AlertDialog.Description>
          <div className="approve-one-body" aria-label={approvableLabel(approvable)} role="group">
            <div className="approve-all-what">
              {kind === 'hook' ? (
                <>
                  <strong>{item.event}</strong>
                  {item.matcher && <span className="hook-matcher">{item.matcher}</span>}
                </>
              ) : (
                <strong>MCP {item.name}</strong>
              )}
              <span className="hook-source">{sourceLabel(item)}</span>
            </div>
            <pre className="hook-command">{kind === 'hook' ? literalOf(item) : serverLiteral(item)}</pre>
            <DangerList danger={item.danger} />
            <UncoveredList uncovered={item.uncovered} />
            <p className="hint">
              Digest <code className="selectable">{item.digest}</code>
            </p>
          </div>
          {uncovered && (
            <label className="approve-ack">
              <input ref={ack} type="checkbox" checked={acknowledged} onChange={(e) => setAcknowledged(e.target.checked)} /> I understand Atrium cannot check this code
            </label>
          )}
          <ConfirmActions label={verb} tone={uncovered ? 'danger' : 'primary'} disabled={uncovered && !acknowledged} onConfirm={() => onConfirm(uncovered)} />
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
