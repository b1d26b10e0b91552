import type { ReactNode } from 'react';
import { AlertDialog, Dialog } from 'radix-ui';

/**
 * The end of a form dialog: the form's error (announced, and linkable from the field through
 * `errorId`) and Cancel / submit. Cancel closes the dialog; the submit button submits the form.
 */
export function FormDialogFooter({ error, errorId, submitLabel, disabled = false }: { error: string | null; errorId?: string; submitLabel: ReactNode; disabled?: boolean }) {
  return (
    <>
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="dialog-actions">
        <Dialog.Close asChild>
          <button type="button" className="button">
            Cancel
          </button>
        </Dialog.Close>
        <button type="submit" className="button primary" disabled={disabled}>
          {submitLabel}
        </button>
      </div>
    </>
  );
}

/**
 * Cancel / confirm of an alert dialog (confirming closes it after `onConfirm`); `danger` for
 * destructive actions; `disabled` keeps the confirm button off until the dialog's condition holds
 * (e.g. an acknowledgement is ticked); `note` is a line shown left of the buttons.
 */
export function ConfirmActions({ label, onConfirm, tone = 'primary', disabled = false, note }: { label: ReactNode; onConfirm(): void; tone?: 'primary' | 'danger'; disabled?: boolean; note?: ReactNode }) {
  return (
    <div className="dialog-actions">
      {note && <span className="dialog-actions-note">{note}</span>}
      <AlertDialog.Cancel asChild>
        <button className="button">Cancel</button>
      </AlertDialog.Cancel>
      <AlertDialog.Action asChild>
        <button className={`button ${tone}`} disabled={disabled} onClick={onConfirm}>
          {label}
        </button>
      </AlertDialog.Action>
    </div>
  );
}
