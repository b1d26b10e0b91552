import type { KeyboardEvent } from 'react';
import type { RuleFileInfo, RulesListResult } from '../../../../shared/contract';
import { formatBytes } from './format';

const STATUS_CLASS: Record<RuleFileInfo['status'], string> = {
  active: 'badge-ok',
  overridden: 'badge-muted',
  inert: 'badge-muted',
  invalid: 'badge-error',
  manual: 'badge-muted',
  restricted: 'badge-warn',
};

/** Rule files grouped by scope directory in catalog order (later = more specific). ↑/↓ move. */
export function RuleList({ data, selectedId, onSelect }: { data: RulesListResult; selectedId: string | null; onSelect(id: string): void }) {
  const byId = new Map(data.files.map((f) => [f.id, f]));
  const order = data.scopes.flatMap((s) => s.fileIds);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const i = order.indexOf(selectedId ?? '');
    const next = order[Math.max(0, Math.min(order.length - 1, i + (e.key === 'ArrowDown' ? 1 : -1)))];
    if (next) {
      onSelect(next);
      document.querySelector<HTMLElement>(`[data-rule-id="${CSS.escape(next)}"]`)?.focus();
    }
  };
  return (
    <div className="rule-list" role="listbox" aria-label="Rule files" onKeyDown={onKeyDown}>
      {data.scopes.map((scope) => (
        <section key={scope.scope} aria-label={`Scope ${scope.scope || '/'}`}>
          <h3 className="rule-scope" title="Scope directory: the rules below apply to files in this folder">
            {scope.scope ? `${scope.scope}/` : '/ (root)'}
          </h3>
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
                tabIndex={id === selectedId ? 0 : -1}
                className={`rule-row${id === selectedId ? ' selected' : ''}`}
                onClick={() => onSelect(id)}
              >
                <span className="rule-path" title={f.path}>
                  {f.path.includes('/') && <span className="rule-dir">{f.path.slice(0, f.path.lastIndexOf('/') + 1)}</span>}
                  <span className="rule-base">{f.path.slice(f.path.lastIndexOf('/') + 1)}</span>
                </span>
                <span className="rule-badges">
                  <span className={`badge ${STATUS_CLASS[f.status]}`}>{f.status}</span>
                  {f.warnings.length > 0 && (
                    <span className="badge badge-warn" title={f.warnings.map((w) => w.message).join('\n')}>
                      {f.warnings.length} warning{f.warnings.length === 1 ? '' : 's'}
                    </span>
                  )}
                </span>
                <span className="rule-meta">
                  {f.format} · {f.kind === 'conditional' ? `when ${f.patterns.join(', ')}` : f.kind === 'unknown' ? 'not read' : f.kind} · {formatBytes(f.bytes)}
                </span>
              </button>
            );
          })}
        </section>
      ))}
    </div>
  );
}
