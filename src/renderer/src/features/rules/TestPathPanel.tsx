import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { useCompletions } from '../../components/useCompletions';
import type { RulesExplainResult, Workspace } from '../../../../shared/contract';
import { setRouteParams, useApp, useRouteParam } from '../../state/appStore';
import { digestWords } from '../../components/jargon';
import { formatBytes } from './format';
import { isStartFolderError, useExplain } from './useExplain';
import './rules.css';

type Agent = 'atrium' | 'codex' | 'claude' | 'gemini' | 'copilot';
const AGENTS: Array<[Agent, string]> = [
  ['atrium', 'Atrium sessions'],
  ['codex', 'Codex'],
  ['claude', 'Claude Code'],
  ['gemini', 'Gemini CLI'],
  ['copilot', 'Copilot (VS Code)'],
];

/**
 * "Test a path": which rules apply when an agent starting in `from` touches `path`, in order, with
 * the reason for each, the budget and the files dropped; or what a given agent would load.
 */
export function TestPathPanel({ workspace, onOpenFile }: { workspace: Workspace; onOpenFile(id: string): void }) {
  const client = useApp((s) => s.client);
  // the query is part of the address (`?view=test&test=<path>&from=<dir>&agent=<id>`): a reload or Back shows it again
  const testParam = useRouteParam('test');
  const fromParam = useRouteParam('from');
  const agentParam = useRouteParam('agent');
  const agent: Agent = AGENTS.some(([a]) => a === agentParam) ? (agentParam as Agent) : 'atrium';
  const query = testParam ? { path: testParam, from: fromParam ?? undefined } : null;
  const [path, setPath] = useState(testParam ?? '');
  const [from, setFrom] = useState(fromParam ?? '');
  useEffect(() => {
    setPath(testParam ?? '');
    setFrom(fromParam ?? '');
  }, [testParam, fromParam]);
  const setAgent = (a: Agent) => setRouteParams({ agent: a === 'atrium' ? null : a }, { replace: true });
  const listId = useId();
  const fromErrorId = useId();
  const result = useExplain(query ? { workspaceId: workspace.id, path: query.path, from: query.from, agent } : null);
  const fromError = isStartFolderError(result.error, query?.from) ? result.error : null;

  const fetchCompletions = useCallback(
    (prefix: string) => client!.request('rules.completePath', { workspaceId: workspace.id, prefix, limit: 50 }).then((r) => r.entries.map((e) => e.path)),
    [client, workspace.id],
  );
  const completions = useCompletions(path, client ? fetchCompletions : null);

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (path.trim()) setRouteParams({ test: path.trim(), from: from.trim() || null });
  };

  return (
    <div className="test-path">
      <form className="test-path-form" onSubmit={submit}>
        <label className="field grow">
          <span>Path a session touches (relative to the workspace)</span>
          <input list={listId} value={path} onChange={(e) => setPath(e.target.value)} placeholder="src/app/page.tsx" spellCheck={false} autoComplete="off" aria-label="Test a path" />
          <datalist id={listId}>
            {completions.map((c) => (
              <option key={c} value={c} />
            ))}
          </datalist>
        </label>
        <label className="field">
          <span>Session starts in</span>
          <input
            value={from}
            onChange={(e) => setFrom(e.target.value)}
            placeholder="(workspace folder)"
            spellCheck={false}
            aria-label="Start folder"
            aria-invalid={fromError !== null}
            aria-describedby={fromError ? fromErrorId : undefined}
          />
        </label>
        <label className="field">
          <span>Agent</span>
          <select value={agent} onChange={(e) => setAgent(e.target.value as Agent)} aria-label="Agent view">
            {AGENTS.map(([v, label]) => (
              <option key={v} value={v}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <button className="button primary" type="submit">
          Explain
        </button>
      </form>
      {!query && <p className="muted">Type a file path (completion lists the workspace's files) to see which rules load at session start, which load when the file is touched, and why.</p>}
      {fromError && (
        <p id={fromErrorId} className="field-error start-folder-error" role="alert">
          {fromError.message}
        </p>
      )}
      {result.error && !fromError && <div className="banner banner-error">{result.error.message}</div>}
      {result.data && <Explanation data={result.data} onOpenFile={onOpenFile} />}
    </div>
  );
}

function Explanation({ data, onOpenFile }: { data: RulesExplainResult; onOpenFile(id: string): void }) {
  if (data.agentView) {
    const v = data.agentView;
    return (
      <section className="explain" aria-label="Agent view">
        <h3>
          What {AGENTS.find(([a]) => a === v.agent)?.[1]} loads starting in {v.fromDir && v.fromDir !== '.' ? <code>{v.fromDir}</code> : 'the repository root'}
        </h3>
        {v.budgetBytes !== null && <BudgetBar used={v.usedBytes} max={v.budgetBytes} label="agent budget" />}
        <table className="table">
          <thead>
            <tr>
              <th>File</th>
              <th>When</th>
              <th>Status</th>
              <th>Bytes</th>
              <th>Why</th>
            </tr>
          </thead>
          <tbody>
            {v.files.map((f) => (
              <tr key={f.path} className={`agent-file status-${f.status}`}>
                <td>
                  <code>{f.path}</code>
                </td>
                <td>{f.when ?? '—'}</td>
                <td>
                  <span className={`badge ${f.status === 'loaded' ? 'badge-ok' : f.status === 'truncated' || f.status === 'cut' ? 'badge-error' : 'badge-muted'}`}>{f.status}</span>
                </td>
                <td className="agent-bytes">
                  {f.loadedBytes !== f.bytes ? `${formatBytes(f.loadedBytes)} of ${formatBytes(f.bytes)}` : formatBytes(f.bytes)}
                  {f.truncatedAt !== null && <div className="field-error">cut at byte {f.truncatedAt}</div>}
                </td>
                <td>{f.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {v.notes.map((n, i) => (
          <p key={i} className="hint">
            {n}
          </p>
        ))}
      </section>
    );
  }
  return (
    <section className="explain" aria-label="Explanation">
      {data.targetPath === null && <div className="banner banner-warn">This path is outside the catalog root, so no project rule applies to it.</div>}
      <h3>At session start ({data.static.length})</h3>
      <BudgetBar used={data.budget.static.usedBytes} max={data.budget.static.maxBytes} label="static budget" />
      <RuleRows rows={data.static} onOpenFile={onOpenFile} empty="No unconditional rule covers the start folder." />
      <h3>When {data.targetPath ? <code>{data.targetPath}</code> : 'the path'} is touched ({data.contextual.length})</h3>
      <BudgetBar used={data.budget.contextual.usedBytes} max={data.budget.contextual.maxBytes} label="contextual budget" />
      <RuleRows rows={data.contextual} onOpenFile={onOpenFile} empty="No further rule applies to this path." />
      {data.dropped.length > 0 && (
        <>
          <h3 className="field-error">Dropped ({data.dropped.length})</h3>
          <RuleRows rows={data.dropped} onOpenFile={onOpenFile} empty="" />
        </>
      )}
      {data.collapsed.length > 0 && (
        <>
          <h3>Same file, loaded once ({data.collapsed.length})</h3>
          <RuleRows rows={data.collapsed} onOpenFile={onOpenFile} empty="" />
        </>
      )}
      {data.skipped.length > 0 && (
        <details>
          <summary className="muted">Not applied ({data.skipped.length})</summary>
          <RuleRows rows={data.skipped} onOpenFile={onOpenFile} empty="" />
        </details>
      )}
      <p className="muted">
        {formatBytes(data.contentBytes)} sent ·{' '}
        <span title={digestWords('provenance', data.provenanceSha256)} data-testid="provenance">
          provenance hash <code>{data.provenanceSha256.slice(0, 16)}</code>
        </span>
      </p>
    </section>
  );
}

function RuleRows({ rows, onOpenFile, empty }: { rows: RulesExplainResult['static']; onOpenFile(id: string): void; empty: string }) {
  if (rows.length === 0) return empty ? <p className="muted">{empty}</p> : null;
  return (
    <ol className="explain-list">
      {rows.map((r) => (
        <li key={`${r.id ?? r.path}:${r.reason}`} data-reason={r.reason}>
          {r.id ? (
            <button className="link-button inline" onClick={() => onOpenFile(r.id!)}>
              {r.path}
            </button>
          ) : (
            <code>{r.path}</code>
          )}{' '}
          <span className="muted" title="Bytes sent: the body without frontmatter, with imports expanded (the Files list shows the size on disk)">
            {formatBytes(r.bytes)} sent
          </span>{' '}
          — {r.sameAs && <span className="badge badge-muted same-as">same file as {r.sameAs}</span>} {r.detail}
          {r.matchedPattern && !r.detail.includes(r.matchedPattern) && (
            <>
              {' '}
              (pattern <code>{r.matchedPattern}</code>)
            </>
          )}
        </li>
      ))}
    </ol>
  );
}

function BudgetBar({ used, max, label }: { used: number; max: number | null; label: string }) {
  if (max === null) return null;
  const pct = Math.min(100, Math.round((used / max) * 100));
  return (
    <div className="budget" title={`${label}: ${used} of ${max} bytes`}>
      <div className="budget-bar" role="meter" aria-label={label} aria-valuemin={0} aria-valuemax={max} aria-valuenow={used}>
        <div className={`budget-fill${pct >= 100 ? ' full' : ''}`} style={{ width: `${pct}%` }} />
      </div>
      <span className="muted">
        {formatBytes(used)} of {formatBytes(max)}
      </span>
    </div>
  );
}
