import { useState } from 'react';
import { errorToast } from '../../components/errorToast';
import { ShieldAlert } from 'lucide-react';
import type { ProvenanceMismatch } from '../../../../shared/contract';
import { useApp } from '../../state/appStore';

/**
 * A session paused because its rule files changed (it failed closed): which files changed, with
 * their unified diffs, and the two ways on: continue with the current rules, or a new session.
 * Calm (a warning, not an alert): nothing failed; this card is the one place that says so.
 */
export function RuleMismatch({ sessionId, mismatch, onResolved }: { sessionId: string; mismatch: ProvenanceMismatch; onResolved(): void }) {
  const client = useApp((s) => s.client);
  const openSession = useApp((s) => s.openSession);
  const [busy, setBusy] = useState(false);
  const resolve = async (action: 'continue' | 'new') => {
    if (!client) return;
    setBusy(true);
    try {
      const { session } = await client.request('sessions.resolveRuleMismatch', { sessionId, action });
      onResolved();
      if (session.id !== sessionId) openSession(session.id);
    } catch (e) {
      errorToast(`Could not ${action === 'new' ? 'start a new session' : 'continue'}: ${(e as Error).message}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="banner banner-warn sess-mismatch" aria-label="Rules changed">
      <div className="sess-mismatch-head">
        <ShieldAlert size={15} aria-hidden />
        <span>
          <strong>Paused: rules changed.</strong> {mismatch.changes.length === 1 ? 'A rule file' : `${mismatch.changes.length} rule files`} changed since this session started. It takes no prompts
          until you choose how to go on.
        </span>
      </div>
      <ul className="sess-mismatch-files">
        {mismatch.changes.map((c) => (
          <li key={`${c.scope}:${c.relativePath}`} data-change={c.change}>
            <span className={`sess-mismatch-kind sess-mismatch-${c.change}`}>{c.change}</span> <code>{c.relativePath}</code> <span className="muted">({c.scope}{c.source !== 'project' ? `, ${c.source}` : ''})</span>
            {c.diff && (
              <details>
                <summary>Diff</summary>
                <pre className="sess-mismatch-diff selectable" aria-label={`Diff of ${c.relativePath}`}>
                  {c.diff.split('\n').map((line, i) => (
                    <span key={i} className={line.startsWith('+') && !line.startsWith('+++') ? 'add' : line.startsWith('-') && !line.startsWith('---') ? 'del' : line.startsWith('@@') ? 'hunk' : undefined}>
                      {line}
                      {'\n'}
                    </span>
                  ))}
                </pre>
              </details>
            )}
          </li>
        ))}
      </ul>
      <div className="sess-mismatch-actions">
        {mismatch.actions.includes('continue') && (
          <button className="button primary" disabled={busy} onClick={() => void resolve('continue')} title="Records the new rules in the transcript and resumes">
            Continue with the current rules
          </button>
        )}
        {mismatch.actions.includes('new') && (
          <button className="button" disabled={busy} onClick={() => void resolve('new')} title="Closes this session and starts a new one with the current rules">
            Start a new session
          </button>
        )}
      </div>
    </section>
  );
}
