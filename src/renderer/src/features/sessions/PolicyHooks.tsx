import type { ReactNode } from 'react';
import type { SessionHooksInfo } from '../../../../shared/contract';

/**
 * Hooks of a session's snapshot: approved ones, ones Atrium does not run (and why, with `hooksTab`,
 * a link to where they are approved), and the recent runs with every handler's result. With
 * `isolated` false (an agent Atrium cannot keep from reading its own configuration) the list says
 * that the agent may still run the repository's hooks by itself.
 */
export function PolicyHooks({ hooks, hooksTab, isolated = true }: { hooks: SessionHooksInfo; hooksTab?: ReactNode; isolated?: boolean }) {
  const runs = hooks.runs.slice(-20).reverse();
  // a run names each hook by what it calls (command or URL); the internal id stays in the tooltip
  const known = new Map<string, { command: string | null; type?: string; url?: string | null }>([...hooks.approved, ...hooks.skipped].map((h) => [h.id, h]));
  return (
    <section className="sess-policy-section" aria-label="Hooks">
      <h3>
        Hooks <span className="muted">· {hooks.approved.length} approved</span>
      </h3>
      {hooks.skipped.length > 0 && (
        <ul className="sess-policy-list" aria-label="Hooks that do not run">
          {hooks.skipped.map((h) => (
            <li key={h.id}>
              <code>{h.event}</code> <HookCall hook={h} /> <span className="sess-policy-tag">{h.heldBack ? `held back (restricted)${isolated ? '' : ' by Atrium'}` : `not run${isolated ? '' : ' by Atrium'}: ${h.state}`}</span>
            </li>
          ))}
          {hooksTab && <li>{hooksTab}</li>}
        </ul>
      )}
      {hooks.skipped.length > 0 && !isolated && <p className="muted">Atrium did not run these. This agent is not isolated: it may load and run the repository&apos;s own hooks by itself.</p>}
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
                <div key={h.id} className="sess-policy-why muted" title={`Hook ${h.id}`}>
                  {known.get(h.id) && (known.get(h.id)!.command || known.get(h.id)!.url) ? <HookCall hook={known.get(h.id)!} /> : 'a hook no longer in the snapshot'}: {h.skipped ? `${isolated ? 'skipped' : 'not run by Atrium'} (${h.skipped})` : `${h.decision}${h.exitCode !== null ? `, exit ${h.exitCode}` : ''}`} · {Math.round(h.durationMs)} ms{h.message ? ` · ${h.message}` : ''}
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
