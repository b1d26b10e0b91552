import { useEffect, useState } from 'react';
import { errorToast } from '../../components/errorToast';
import { Dialog } from 'radix-ui';
import { toast } from 'sonner';
import type { TrustImportSuggestion } from '../../../../shared/contract';
import { useLive } from '../../api/useLive';
import { displayPath } from '../../components/format';
import { useApp } from '../../state/appStore';

const keyOf = (s: TrustImportSuggestion) => `${s.from}:${s.path}:${s.state}`;

/**
 * Imports decisions Claude Code, Codex and Gemini CLI already store, never silently: they are
 * listed as suggestions and only the ones the user ticks are recorded.
 */
export function ImportTrustDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const client = useApp((s) => s.client);
  const home = useApp((s) => s.info?.homeDir);
  const live = useLive('trust.importSuggestions', open ? {} : null);
  const suggestions = live.data?.suggestions ?? [];
  const [picked, setPicked] = useState<Set<string>>(new Set());

  useEffect(() => {
    setPicked(new Set());
  }, [live.data]);

  const importable = suggestions.filter((s) => !s.refused && !s.alreadyRecorded);
  const confirm = async () => {
    if (!client) return;
    const decisions = importable.filter((s) => picked.has(keyOf(s))).map((s) => ({ path: s.path, state: s.state, from: s.from }));
    try {
      const { recorded } = await client.request('trust.importConfirm', { decisions });
      toast(`Recorded ${recorded.length} decision${recorded.length === 1 ? '' : 's'}`);
      onOpenChange(false);
    } catch (e) {
      errorToast((e as Error).message);
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog dialog-wide" aria-describedby="import-desc">
          <Dialog.Title className="dialog-title">Import trust decisions</Dialog.Title>
          <p id="import-desc" className="dialog-text">
            Decisions other agents have stored on this machine. Nothing is recorded until you tick it and confirm; Atrium never writes
            those tools' files.
          </p>
          {live.error && <p className="field-error">{live.error}</p>}
          <ul className="plain-list">
            {live.data?.sources.map((s) => (
              <li key={s.from} className="muted">
                {s.from}: <code>{displayPath(s.file, home)}</code> {s.found ? '' : '(not found)'}
                {s.warnings.map((w, i) => (
                  <span key={i} className="field-error">
                    {' '}
                    {w.message}
                  </span>
                ))}
              </li>
            ))}
          </ul>
          {live.data && suggestions.length === 0 && <p className="muted">No stored decisions found.</p>}
          <ul className="plain-list import-list">
            {suggestions.map((s) => {
              const key = keyOf(s);
              const disabled = Boolean(s.refused) || s.alreadyRecorded;
              return (
                <li key={key}>
                  <label className={disabled ? 'muted' : ''}>
                    <input
                      type="checkbox"
                      disabled={disabled}
                      checked={picked.has(key)}
                      onChange={(e) => setPicked((p) => {
                        const next = new Set(p);
                        if (e.target.checked) next.add(key);
                        else next.delete(key);
                        return next;
                      })}
                    />{' '}
                    <strong>{s.state}</strong> <code>{displayPath(s.path, home)}</code> <span className="muted">from {s.from} ({s.sourceValue})</span>
                    {s.alreadyRecorded && <span className="muted"> already recorded</span>}
                    {s.refused && <span className="field-error"> {s.refused}</span>}
                    {s.conflict && !s.refused && <span className="muted"> {s.conflict}</span>}
                    {!s.exists && <span className="muted"> folder missing</span>}
                  </label>
                </li>
              );
            })}
          </ul>
          <div className="dialog-actions">
            <Dialog.Close asChild>
              <button className="button">Cancel</button>
            </Dialog.Close>
            <button className="button primary" disabled={picked.size === 0} onClick={() => void confirm()}>
              Record {picked.size || ''} selected
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
