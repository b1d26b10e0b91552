import { Play } from 'lucide-react';
import type { SessionCommandPreview, SessionCommandRun } from '../../../../shared/contract';

/**
 * The inline preview of a workspace command or skill about to be sent: the exact
 * prompt text Enter sends, its `@path` files, and its shell embeds. Embeds never run by themselves:
 * "Run these N commands" is the explicit confirmation (the engine also requires a trusted workspace
 * and this preview's single-use token); in restricted mode the reason is shown instead and the
 * embeds are sent as written. After a run the text shows their outputs.
 */
export function SlashPreview({
  preview,
  run,
  error,
  running,
  clashSource = null,
  onRun,
}: {
  preview: SessionCommandPreview | null;
  run: SessionCommandRun | null;
  error: string | null;
  running: boolean;
  /**
   * Set when the agent offers a command of the same name: this command's source badge (`project`,
   * `user`, `plugin`); the preview then says that this one, the workspace's, runs.
   */
  clashSource?: string | null;
  onRun(): void;
}) {
  if (!preview) {
    return (
      <div className="sess-slash-preview" role="region" aria-label="Command preview">
        {error ? <p className="field-error">{error}</p> : <p className="muted">Expanding…</p>}
      </div>
    );
  }
  const n = preview.embeds.length;
  const plural = n === 1 ? '' : 's';
  return (
    <div className="sess-slash-preview" role="region" aria-label={`Preview of /${preview.name}`} data-command-id={preview.id}>
      <div className="sess-slash-preview-head">
        <strong>
          {preview.kind === 'skill' ? 'Skill' : 'Command'} <code>/{preview.name}</code>
        </strong>
        <span className="muted" title={preview.path}>
          {preview.path}
        </span>
        <span className="muted">
          {preview.from === 'snapshot' ? "· from this session's snapshot" : '· from the current workspace files (no snapshot in this Atrium process yet)'}
        </span>
      </div>
      {clashSource && (
        <p className="sess-slash-which" role="note">
          Runs the workspace&apos;s <code>/{preview.name}</code> ({clashSource} {preview.kind}, expanded by Atrium), not the agent&apos;s own <code>/{preview.name}</code>.
          Press <kbd>Esc</kbd> to send <code>/{preview.name}</code> to the agent instead.
        </p>
      )}
      {error && <p className="field-error">{error}</p>}
      <pre className="sess-slash-text selectable" aria-label="Expanded prompt" data-testid="slash-expansion">
        {run ? run.text : preview.text}
      </pre>
      {preview.fileRefs.length > 0 && (
        <ul className="plain-list sess-slash-refs" aria-label="Referenced files">
          {preview.fileRefs.map((f) => (
            <li key={f.token}>
              <code>{f.token}</code> <span className={f.status === 'refused' ? 'field-error' : 'muted'}>{f.status}{f.reason ? `: ${f.reason}` : ''}</span>
            </li>
          ))}
        </ul>
      )}
      {n > 0 && (
        <div className="sess-slash-embeds" role="group" aria-label="Shell commands">
          <div>
            <strong>
              {n} shell command{plural}
            </strong>{' '}
            <span className="muted">{run ? 'ran; their output is in the prompt above' : 'not run: sent as written unless you run them'}</span>
          </div>
          <ul className="plain-list">
            {preview.embeds.map((e, i) => (
              <li key={i}>
                <code className="ext-literal">{e.command}</code> <span className="muted">line {e.line}</span>
                {run?.runs[i] && (
                  <span className={run.runs[i].exitCode === 0 ? 'muted' : 'field-error'}>
                    {' '}
                    → exit {run.runs[i].exitCode ?? '—'}
                    {run.runs[i].timedOut ? ', timed out' : ''}
                    {run.runs[i].truncated ? ', output cut' : ''}
                  </span>
                )}
              </li>
            ))}
          </ul>
          {!run &&
            (preview.canRun ? (
              <button type="button" className="button" onClick={onRun} disabled={running}>
                <Play size={13} aria-hidden /> {n === 1 ? 'Run this command' : `Run these ${n} commands`}
              </button>
            ) : (
              <p className="hint" role="note">
                {preview.runBlockedReason}
              </p>
            ))}
        </div>
      )}
      {preview.warnings.length > 0 && (
        <ul className="plain-list sess-slash-warnings" aria-label="Warnings">
          {preview.warnings.map((w, i) => (
            <li key={i} className="field-error">
              {w.path}
              {w.line ? `:${w.line}` : ''}: {w.message}
              {w.fix ? ` — ${w.fix}` : ''}
            </li>
          ))}
        </ul>
      )}
      <div className="muted sess-slash-keys">
        <kbd>Enter</kbd> sends this text · <kbd>Esc</kbd> closes the preview (Enter then sends what you typed)
      </div>
    </div>
  );
}
