import { useState } from 'react';
import { ShieldAlert } from 'lucide-react';
import type { RulesListResult, Workspace } from '../../../../shared/contract';
import { useLive } from '../../api/useLive';
import { FilterBox } from '../../components/FilterBox';
import { setRouteParams, useRouteParam } from '../../state/appStore';
import { LintList } from './LintList';
import { RuleDetail } from './RuleDetail';
import { RuleList, ruleMatches } from './RuleList';
import { TestPathPanel } from './TestPathPanel';
import './rules.css';

type View = 'files' | 'test' | 'lint';

/**
 * The Rules tab: the workspace's instruction files with provenance (grouped by scope, detail pane),
 * "Test a path" (which rules apply to a file and why, per agent), and the lint list. Updates live
 * when a rule file changes on disk or trust changes.
 */
export function RulesTab({ workspace, onReview }: { workspace: Workspace; onReview(): void }) {
  const list = useLive('rules.list', { workspaceId: workspace.id }, ['rulesChanged', 'trustChanged']);
  const lint = useLive('rules.lint', { workspaceId: workspace.id }, ['rulesChanged', 'trustChanged']);
  // the view and the selected file are part of the address (`?view=test`, `?file=<id>`): a reload returns here
  const viewParam = useRouteParam('view');
  const view: View = viewParam === 'test' || viewParam === 'lint' ? viewParam : 'files';
  const fileParam = useRouteParam('file');
  const [query, setQuery] = useState('');
  const data = list.data;
  const selectedId = data ? (data.files.some((f) => f.id === fileParam) ? fileParam : (data.files.find((f) => f.status !== 'restricted')?.id ?? null)) : null;
  const setView = (v: View) => setRouteParams({ view: v === 'files' ? null : v });
  const openFile = (id: string) => setRouteParams({ view: null, file: id });

  if (list.error && !data) return <div className="banner banner-error">{list.error}</div>;
  if (!data) return <p className="muted">Reading instruction files…</p>;
  // The Lint label counts problems (errors and warnings); notes are listed below them, labelled as such.
  const lintCount = lint.data ? lint.data.counts.error + lint.data.counts.warning : 0;
  const lintNotes = lint.data ? lint.data.findings.length - lintCount : 0;
  const matching = data.files.filter((f) => ruleMatches(f, query)).length;
  // An untrusted workspace already carries the restricted-mode banner with the way to the review
  // (trust/RestrictedBanner): one notice is enough. The tab adds its own only when the workspace is
  // trusted but the catalog is not entirely (a trusted subfolder of an untrusted repository).
  const ownNotice = data.trust !== 'trusted' && workspace.trust.state === 'trusted';
  const catalogWarnings = data.warnings.filter((w) => w.code !== 'restricted-mode');

  return (
    <div className="rules-tab">
      <div className="rules-toolbar">
        <div className="segmented" role="tablist" aria-label="Rules view">
          {(
            [
              ['files', `Files (${data.files.length})`],
              ['test', 'Test a path'],
              ['lint', `Lint${lintCount ? ` (${lintCount})` : ''}`],
            ] as const
          ).map(([v, label]) => (
            <button
              key={v}
              role="tab"
              aria-selected={view === v}
              className={view === v ? 'active' : ''}
              onClick={() => setView(v)}
              title={
                v === 'files'
                  ? `${data.files.length} instruction files in Atrium's catalog (project and your own)${data.otherTools.length ? `; ${data.otherTools.length} more read only by other tools are listed below, not counted` : ''}`
                  : v === 'lint' && lint.data
                    ? `${lintCount} problem${lintCount === 1 ? '' : 's'} (errors and warnings)${lintNotes ? ` and ${lintNotes} note${lintNotes === 1 ? '' : 's'}, listed after them` : ''}`
                    : undefined
              }
            >
              {label}
            </button>
          ))}
        </div>
        <span className="muted rules-meta" title={`Catalog digest (sha256 over every file's path, status and content): ${data.catalogSha256}. It changes whenever any instruction file changes.`}>
          root <code>{data.root}</code> · {data.stats.activeFiles} active of {data.stats.ruleFiles} · catalog digest {data.catalogSha256.slice(0, 12)}
        </span>
      </div>
      {ownNotice && (
        <div className="banner banner-warn restricted-inline" role="note">
          <ShieldAlert size={15} aria-hidden />
          <span>
            {data.trust === 'restricted'
              ? 'Restricted mode: project rule files are listed by name only and none of them load. Your user-level files still apply.'
              : 'Part of this catalog is in an untrusted folder: those files are listed by name only.'}
          </span>
          <button className="button" onClick={onReview}>
            Review and trust…
          </button>
        </div>
      )}
      {catalogWarnings.map((w, i) => (
        <p key={i} className="warning-line">
          {w.message} {w.fix}
        </p>
      ))}
      {view === 'files' && data.otherTools.length > 0 && <OtherToolsNote files={data.otherTools} />}
      {view === 'files' &&
        (data.files.length === 0 ? (
          <EmptyRules />
        ) : (
          <div className="rules-split">
            <div className="rules-list-pane">
              <FilterBox value={query} onChange={setQuery} label="Filter rule files" placeholder="Filter by path, format, status…" shown={matching} total={data.files.length} noun="files" one="file" />
              {matching === 0 ? <p className="muted rules-no-match">No rule file matches “{query.trim()}”. Esc clears the filter.</p> : <RuleList data={data} selectedId={selectedId} onSelect={(id) => setRouteParams({ file: id })} query={query} />}
            </div>
            <div className="rules-detail">{selectedId ? <RuleDetail workspaceId={workspace.id} id={selectedId} /> : <p className="muted">Select a file.</p>}</div>
          </div>
        ))}
      {view === 'test' && <TestPathPanel workspace={workspace} onOpenFile={openFile} />}
      {view === 'lint' && <LintList data={lint.data} files={data.files} onOpenFile={openFile} />}
    </div>
  );
}

function EmptyRules() {
  return (
    <div className="empty-inline">
      <h2>No instruction files here</h2>
      <p className="muted">
        Agents read project rules from files such as <code>AGENTS.md</code>, <code>CLAUDE.md</code>, <code>.claude/rules/*.md</code>, <code>GEMINI.md</code>,{' '}
        <code>.cursor/rules/*.mdc</code> and <code>.github/copilot-instructions.md</code>. Add one to this folder and it appears here as soon as it is saved; a{' '}
        <code>paths:</code> list in its frontmatter makes it apply only to matching files.
      </p>
    </div>
  );
}

/**
 * Instruction files of tools this catalog does not read (`.windsurfrules`, `.clinerules`…): the
 * trust review counts them, so naming them here explains why its number can be larger.
 */
function OtherToolsNote({ files }: { files: RulesListResult['otherTools'] }) {
  const shown = files.slice(0, 6);
  return (
    <p className="muted rules-other-tools" aria-label="Files read by other tools">
      Also present, read by other tools, not by Atrium&apos;s catalog:{' '}
      {shown.map((f, i) => (
        <span key={f.path}>
          {i > 0 && ', '}
          <code title={`read by ${f.tool}`}>{f.path}</code>
        </span>
      ))}
      {files.length > shown.length && ` and ${files.length - shown.length} more`}.
    </p>
  );
}
