import type { ReactNode } from 'react';
import type { SessionHooksInfo } from '../../../../shared/contract';

/**
 * Hooks of a session's snapshot: approved ones, ones that never run (and why, with `hooksTab`, a
 * link to where they are approved), and the recent runs with every handler's result.
 */
export function PolicyHooks({ hooks, hooksTab }: { hooks: SessionHooksInfo; hooksTab?: ReactNode }) {
  const runs = hooks.runs.slice(-20).reverse();
  return (
    <section className="sess-policy-section" aria-label="Hooks">
      <h3>
        Hooks <span className="muted">· {hooks.approved.length} approved</span>
      </h3>
      {hooks.skipped.length > 0 && (
        <ul className="sess-policy-list" aria-label="Hooks that do not run">
          {hooks.skipped.map((h) => (
            <li key={h.id}>
              <code>{h.event}</code> <HookCall hook={h} /> <span className="sess-policy-tag">{h.heldBack ? 'held back (restricted)' : `not run: ${h.state}`}</span>
            </li>
          ))}
          {hooksTab && <li>{hooksTab}</li>}
        </ul>
      )}
      {runs.length === 0 ? (
        <p className="muted">No hook has run in this session.</p>
      ) : (
        <ul className="sess-policy-list" aria-label="Hook runs">
          {runs.map((r, i) => (
            <li key={`${r.at}-${i}`} data-decision={r.decision}>
              <code>{r.event}</code>
              {r.tool ? ` ${r.tool}` : ''} → <strong className={`sess-policy-decision-${r.decision}`}>{r.decision}</strong> <span className="muted">{new Date(r.at).toLocaleTimeString()}</span>
              {(r.reason || r.effect) && <div className="muted">{[r.reason, r.effect].filter(Boolean).join(' · ')}</div>}
              {r.results.map((h) => (
                <div key={h.id} className="sess-policy-why muted">
                  {h.id}: {h.skipped ? `skipped (${h.skipped})` : `${h.decision}${h.exitCode !== null ? `, exit ${h.exitCode}` : ''}`} · {Math.round(h.durationMs)} ms{h.message ? ` · ${h.message}` : ''}
                </div>
              ))}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** What a hook calls: an http hook's URL (labelled `http POST`), else its command line; nothing when neither is recorded. */
function HookCall({ hook }: { hook: { command: string | null; type?: string; url?: string | null } }) {
  if (hook.url) {
    return (
      <>
        <span className="sess-policy-tag">http POST</span> <code className="sess-policy-cmd">{hook.url}</code>
      </>
    );
  }
  return hook.command ? <code className="sess-policy-cmd">{hook.command}</code> : null;
}
