import type { RuleFileInfo, RulesLintResult } from '../../../../shared/contract';

type Finding = RulesLintResult['findings'][number];

/**
 * Lint findings with file, line and suggested fix; clicking a file opens it in the Files view.
 * Problems (errors, warnings) come first under a heading that gives the same number as the Lint
 * label; notes (info) follow under their own heading, so the label and the list agree.
 */
export function LintList({ data, files, onOpenFile }: { data: RulesLintResult | null; files: RuleFileInfo[]; onOpenFile(id: string): void }) {
  if (!data) return <p className="muted">Linting…</p>;
  if (data.findings.length === 0) return <p className="muted">No findings: every rule file parses, every pattern matches something, nothing is shadowed by accident.</p>;
  const idByPath = new Map(files.map((f) => [f.path, f.id]));
  const problems = data.findings.filter((w) => w.severity !== 'info');
  const notes = data.findings.filter((w) => w.severity === 'info');
  const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  return (
    <div className="lint-list">
      <h3 className="lint-heading">
        {problems.length === 0 ? 'No problems' : plural(problems.length, 'problem')}
        {problems.length > 0 && (
          <span className="muted">
            {' '}
            ({plural(data.counts.error, 'error')}, {plural(data.counts.warning, 'warning')})
          </span>
        )}
      </h3>
      {problems.length > 0 && <Findings findings={problems} idByPath={idByPath} onOpenFile={onOpenFile} label="Lint findings" />}
      {notes.length > 0 && (
        <>
          <h3 className="lint-heading">
            {plural(notes.length, 'note')} <span className="muted">(for information; nothing to fix)</span>
          </h3>
          <Findings findings={notes} idByPath={idByPath} onOpenFile={onOpenFile} label="Lint notes" />
        </>
      )}
    </div>
  );
}

function Findings({ findings, idByPath, onOpenFile, label }: { findings: Finding[]; idByPath: Map<string, string>; onOpenFile(id: string): void; label: string }) {
  return (
    <ul className="finding-list" aria-label={label}>
      {findings.map((w, i) => {
        const id = w.path ? idByPath.get(w.path) : undefined;
        return (
          <li key={i} className={`finding finding-${w.severity}`}>
            <span className={`badge ${w.severity === 'error' ? 'badge-error' : w.severity === 'warning' ? 'badge-warn' : 'badge-muted'}`}>{w.severity === 'info' ? 'note' : w.severity}</span>{' '}
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
