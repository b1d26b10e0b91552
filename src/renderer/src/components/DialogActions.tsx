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

/** Cancel / confirm of an alert dialog (confirming closes it after `onConfirm`); `danger` for destructive actions. */
export function ConfirmActions({ label, onConfirm, tone = 'primary' }: { label: ReactNode; onConfirm(): void; tone?: 'primary' | 'danger' }) {
  return (
    <div className="dialog-actions">
      <AlertDialog.Cancel asChild>
        <button className="button">Cancel</button>
      </AlertDialog.Cancel>
      <AlertDialog.Action asChild>
        <button className={`button ${tone}`} onClick={onConfirm}>
          {label}
        </button>
      </AlertDialog.Action>
    </div>
  );
}
