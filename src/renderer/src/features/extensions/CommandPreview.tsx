import { useEffect, useRef, useState } from 'react';
import { AlertDialog } from 'radix-ui';
import { Play } from 'lucide-react';
import type { CommandInfo, CommandPreview as Preview, CommandRunResult } from '../../../../shared/contract';
import { useApp } from '../../state/appStore';
import { Warnings } from './common';
import { ConfirmActions } from '../../components/DialogActions';

/**
 * Live expansion preview of a command with sample arguments (0-based `$0`, `$ARGUMENTS` = the text
 * as typed). Nothing runs while typing; shell embeds are listed and run only after the user
 * confirms the exact commands, and only in a trusted workspace (the engine enforces both).
 */
export function CommandPreview({ workspaceId, command }: { workspaceId: string; command: CommandInfo }) {
  const client = useApp((s) => s.client);
  const [argumentText, setArgumentText] = useState('');
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [result, setResult] = useState<CommandRunResult | null>(null);
  const [nonce, setNonce] = useState(0);
  const seq = useRef(0);

  useEffect(() => setResult(null), [argumentText, command.sha256]);
  useEffect(() => {
    const mine = ++seq.current;
    client
      ?.request('extensions.commandPreview', { workspaceId, name: command.id, argumentText })
      .then((p) => mine === seq.current && (setPreview(p), setError(null)))
      .catch((e: Error) => mine === seq.current && setError(e.message));
  }, [client, workspaceId, command.id, command.sha256, argumentText, nonce]);

  const run = () => {
    if (!preview?.confirmToken) return;
    client
      ?.request('extensions.runCommandEmbeds', { workspaceId, confirmToken: preview.confirmToken })
      .then((r) => setResult(r))
      .catch((e: Error) => setError(e.message))
      .finally(() => setNonce((n) => n + 1)); // a used token is spent: fetch a fresh preview (and token)
  };

  return (
    <div className="ext-preview" aria-label={`Preview of /${command.name}`} role="region">
      <label className="field">
        <span>Sample arguments {command.argumentHint && <code>{command.argumentHint}</code>} — <code>$0</code> is the first word</span>
        <input value={argumentText} onChange={(e) => setArgumentText(e.target.value)} placeholder="e.g. 42 high" aria-label="Sample arguments" spellCheck={false} />
      </label>
      {error && <p className="field-error">{error}</p>}
      {preview && (
        <>
          <pre className="ext-expansion" data-testid="command-expansion">{result ? result.text : preview.text}</pre>
          {preview.fileRefs.length > 0 && (
            <ul className="plain-list ext-refs">
              {preview.fileRefs.map((f) => (
                <li key={f.token}>
                  <code>{f.token}</code> <span className={f.status === 'refused' ? 'field-error' : 'muted'}>{f.status}{f.reason ? `: ${f.reason}` : ''}</span>
                </li>
              ))}
            </ul>
          )}
          {preview.embeds.length > 0 && (
            <div className="ext-embeds">
              <div>
                <strong>Shell commands this command runs</strong> <span className="muted">(not run by the preview)</span>
              </div>
              <ul className="plain-list">
                {preview.embeds.map((e, i) => (
                  <li key={i}>
                    <code className="ext-literal">{e.command}</code> <span className="muted">line {e.line}</span>
                  </li>
                ))}
              </ul>
              {preview.canRun ? (
                <button className="button" onClick={() => setConfirming(true)}>
                  <Play size={13} aria-hidden /> Run shell commands…
                </button>
              ) : (
                <p className="hint">{preview.runBlockedReason}</p>
              )}
              {result && (
                <ul className="plain-list ext-runs" aria-label="Shell command results">
                  {result.runs.map((r, i) => (
                    <li key={i}>
                      <code>{r.command}</code> → <span className={r.exitCode === 0 ? 'muted' : 'field-error'}>exit {r.exitCode ?? '—'}{r.timedOut ? ', timed out' : ''}{r.truncated ? ', output cut' : ''}</span>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          )}
          <Warnings warnings={preview.warnings.filter((w) => !command.warnings.some((c) => c.message === w.message))} />
          <AlertDialog.Root open={confirming} onOpenChange={setConfirming}>
            <AlertDialog.Portal>
              <AlertDialog.Overlay className="dialog-overlay" />
              <AlertDialog.Content className="dialog">
                <AlertDialog.Title className="dialog-title">Run {preview.embeds.length} shell command{preview.embeds.length === 1 ? '' : 's'}?</AlertDialog.Title>
                <AlertDialog.Description className="dialog-text">
                  They run in the workspace folder exactly as written in <code>{command.path}</code>. The arguments are never passed to a shell.
                </AlertDialog.Description>
                <pre className="hook-command">{preview.embeds.map((e) => e.command).join('\n')}</pre>
                <ConfirmActions label="Run" onConfirm={run} />
              </AlertDialog.Content>
            </AlertDialog.Portal>
          </AlertDialog.Root>
        </>
      )}
    </div>
  );
}
