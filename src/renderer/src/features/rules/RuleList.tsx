import type { KeyboardEvent } from 'react';
import type { RuleFileInfo, RulesListResult } from '../../../../shared/contract';
import { matchesFilter } from '../../components/FilterBox';
import { formatBytes } from './format';
import './rules.css';

const STATUS_CLASS: Record<RuleFileInfo['status'], string> = {
  active: 'badge-ok',
  overridden: 'badge-muted',
  inert: 'badge-muted',
  invalid: 'badge-error',
  manual: 'badge-muted',
  restricted: 'badge-warn',
};

/** What the Files filter searches in a rule file: path, format, status, kind, condition, source and its problems. */
export function ruleMatches(f: RuleFileInfo, query: string): boolean {
  return matchesFilter(query, [f.path, f.format, f.status, f.kind, f.condition, f.source, f.description, ...f.warnings.map((w) => w.code)]);
}

/**
 * Rule files grouped by scope directory in catalog order (later = more specific), limited to
 * those matching `query` (scopes left without a match are hidden). ↑/↓/Home/End move.
 */
export function RuleList({ data, selectedId, onSelect, query = '' }: { data: RulesListResult; selectedId: string | null; onSelect(id: string): void; query?: string }) {
  const byId = new Map(data.files.map((f) => [f.id, f]));
  const scopes = data.scopes.map((s) => ({ ...s, fileIds: s.fileIds.filter((id) => byId.has(id) && ruleMatches(byId.get(id)!, query)) })).filter((s) => s.fileIds.length > 0);
  const order = scopes.flatMap((s) => s.fileIds);
  const focusable = selectedId && order.includes(selectedId) ? selectedId : order[0];
  const onKeyDown = (e: KeyboardEvent) => {
    if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(e.key)) return;
    e.preventDefault();
    const i = order.indexOf(selectedId ?? '');
    const target = e.key === 'Home' ? 0 : e.key === 'End' ? order.length - 1 : i + (e.key === 'ArrowDown' ? 1 : -1);
    const next = order[Math.max(0, Math.min(order.length - 1, target))];
    if (next) {
      onSelect(next);
      document.querySelector<HTMLElement>(`[data-rule-id="${CSS.escape(next)}"]`)?.focus();
    }
  };
  return (
    <div className="rule-list" role="listbox" aria-label="Rule files" onKeyDown={onKeyDown}>
      {/* listbox > group > option, as ARIA requires: the scope heading is a visual label of its group */}
      {scopes.map((scope) => (
        <div role="group" key={scope.scope} aria-label={`Scope ${scope.scope || '/'}`}>
          <div className="rule-scope" aria-hidden title="Scope directory: the rules below apply to files in this folder">
            {scope.scope ? `${scope.scope}/` : '/ (root)'}
            {data.nestedRoots.some((r) => r.path === scope.scope) && (
              <span className="badge badge-muted nested-root" title="A git repository of its own inside this one: agents that stop at a .git start here">
                {data.nestedRoots.find((r) => r.path === scope.scope)!.kind}
              </span>
            )}
          </div>
          {scope.fileIds.map((id) => {
            const f = byId.get(id);
            if (!f) return null;
            return (
              <button
                key={id}
                role="option"
                aria-selected={id === selectedId}
                data-rule-id={id}
                data-rule-path={f.path}
                tabIndex={id === focusable ? 0 : -1}
                className={`rule-row${id === selectedId ? ' selected' : ''}`}
                onClick={() => onSelect(id)}
              >
                <RulePath path={f.path} />
                <span className="rule-badges">
                  <span className={`badge ${STATUS_CLASS[f.status]}`}>{f.status}</span>
                  {f.kind === 'agent-requested' && (
                    <span className="badge badge-muted" title="Cursor offers this rule to the agent by its description; Atrium never loads it automatically" data-rule-kind="agent-requested">
                      by description
                    </span>
                  )}
                  <ProblemBadge file={f} severity="error" />
                  <ProblemBadge file={f} severity="warning" />
                </span>
                <span className="rule-meta" title={f.condition}>
                  {f.format} · {formatBytes(f.bytes)}
                  {f.imports.length > 0 && f.bodyBytes !== f.bytes ? ` (${formatBytes(f.bodyBytes)} sent with imports)` : ''} · {f.condition}
                </span>
              </button>
            );
          })}
        </div>
      ))}
    </div>
  );
}

/**
 * A root-relative path that wraps only after a "/" (never inside a folder or file name), so long
 * paths stay readable in a narrow list instead of being cut mid-name. Folders are muted; the full
 * path is the tooltip.
 */
function RulePath({ path }: { path: string }) {
  const cut = path.lastIndexOf('/') + 1;
  const dirs = path.slice(0, cut).split('/').slice(0, -1);
  return (
    <span className="rule-path" title={path}>
      {dirs.map((d, i) => (
        <span key={i} className="rule-dir">
          {d}/<wbr />
        </span>
      ))}
      <span className="rule-base">{path.slice(cut)}</span>
    </span>
  );
}

/**
 * "2 warnings" / "1 error": problems to fix, with the messages, lines and fixes as tooltip. Notes
 * (severity info: a stripped BOM, restricted mode, a manual rule) are not problems and show only in
 * the detail pane.
 */
function ProblemBadge({ file, severity }: { file: RuleFileInfo; severity: 'error' | 'warning' }) {
  const found = file.warnings.filter((w) => w.severity === severity);
  if (found.length === 0) return null;
  const tooltip = found.map((w) => `${w.line ? `line ${w.line}: ` : ''}${w.message}${w.fix ? `\nFix: ${w.fix}` : ''}`).join('\n\n');
  return (
    <span className={`badge ${severity === 'error' ? 'badge-error' : 'badge-warn'}`} title={tooltip} data-problems={severity}>
      {found.length} {severity}
      {found.length === 1 ? '' : 's'}
    </span>
  );
}
