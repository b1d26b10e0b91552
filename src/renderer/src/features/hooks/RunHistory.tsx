import { Fragment, useState } from 'react';
import type { HookListing } from '../../../../shared/contract';
import { useLive } from '../../api/useLive';
import { literalOf } from './HookCard';

/** The run history of a workspace: every execution or skip, newest first, each expandable to its output. */
export function RunHistory({ workspaceId, listing }: { workspaceId: string; listing: HookListing }) {
  const runs = useLive('hooks.runs', { workspaceId, limit: 50 }, ['hooksChanged']).data?.runs ?? [];
  const [open, setOpen] = useState<number | null>(null);
  const names = new Map<string, string>(listing.hooks.map((h) => [h.id, `${h.event}${h.matcher ? ` [${h.matcher}]` : ''}: ${literalOf(h)}`]));
  if (runs.length === 0) return <p className="muted">No hook has run in this workspace yet. Runs appear here when a session fires an event (or with <code>atrium hooks run</code>).</p>;
  return (
    <table className="table hook-runs" aria-label="Hook runs">
      <thead>
        <tr>
          <th>When</th>
          <th>Event</th>
          <th>Hook</th>
          <th>Result</th>
          <th>Decision</th>
          <th>Time</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((r) => (
          <Fragment key={r.runId}>
            <tr>
              <td>{new Date(r.at).toLocaleTimeString()}</td>
              <td>{r.event}</td>
              <td className="hook-run-name">
                <button className="link-button" aria-expanded={open === r.runId} onClick={() => setOpen(open === r.runId ? null : r.runId)} title={names.get(r.id) ?? r.id}>
                  {names.get(r.id) ?? r.id}
                </button>
              </td>
              <td>{r.skipped ? <span className="badge badge-warn">skipped: {r.skipped}</span> : r.timedOut ? <span className="badge badge-error">timed out</span> : <span className={`badge ${r.exitCode === 0 || (r.exitCode !== null && r.exitCode >= 200 && r.exitCode < 300) ? 'badge-ok' : 'badge-error'}`}>exit {r.exitCode ?? '–'}</span>}</td>
              <td>{r.decision === 'none' ? <span className="muted">–</span> : r.decision}</td>
              <td>{Math.round(r.durationMs)} ms</td>
            </tr>
            {open === r.runId && (
              <tr>
                <td colSpan={6}>
                  {r.message && <p className="hint">{r.message}</p>}
                  {r.reason && <p className="hint">Reason: {r.reason}</p>}
                  <pre className="file-content">{r.stdout || '(no stdout)'}</pre>
                  {r.stderr && <pre className="file-content">{r.stderr}</pre>}
                  {r.truncated && <p className="muted">Output was cut at the cap.</p>}
                </td>
              </tr>
            )}
          </Fragment>
        ))}
      </tbody>
    </table>
  );
}
