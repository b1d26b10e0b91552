import type { RuleFileInfo, RulesLintResult } from '../../../../shared/contract';

/** Lint findings with file, line and suggested fix; clicking a file opens it in the Files view. */
export function LintList({ data, files, onOpenFile }: { data: RulesLintResult | null; files: RuleFileInfo[]; onOpenFile(id: string): void }) {
  if (!data) return <p className="muted">Linting…</p>;
  if (data.findings.length === 0) return <p className="muted">No findings: every rule file parses, every pattern matches something, nothing is shadowed by accident.</p>;
  const idByPath = new Map(files.map((f) => [f.path, f.id]));
  return (
    <ul className="finding-list" aria-label="Lint findings">
      {data.findings.map((w, i) => {
        const id = w.path ? idByPath.get(w.path) : undefined;
        return (
          <li key={i} className={`finding finding-${w.severity}`}>
            <span className={`badge ${w.severity === 'error' ? 'badge-error' : w.severity === 'warning' ? 'badge-warn' : 'badge-muted'}`}>{w.severity}</span>{' '}
            {w.path &&
              (id ? (
                <button className="link-button inline" onClick={() => onOpenFile(id)}>
                  {w.path}
                  {w.line ? `:${w.line}` : ''}
                </button>
              ) : (
                <code>
                  {w.path}
                  {w.line ? `:${w.line}` : ''}
                </code>
              ))}{' '}
            {w.message}
            {w.fix && <div className="finding-fix">Fix: {w.fix}</div>}
          </li>
        );
      })}
    </ul>
  );
}
