import { useEffect, useRef, useState } from 'react';
import { AlertTriangle, ChevronRight, FileCode, Link2 } from 'lucide-react';
import type { Hook } from '../../../../shared/contract';
import { useLive } from '../../api/useLive';
import { OpenInEditor } from '../../components/OpenInEditor';
import { useApp, useRouteParam } from '../../state/appStore';
import { formatRoute } from '../../state/route';
import { HookDiff } from './HookDiff';
import { HookStateBadge } from './StateBadge';
import { DangerList, UncoveredList } from './Uncovered';

/** Where a hook comes from, as shown: `~/.claude/settings.json:12 · user`. */
export function sourceLabel(h: Pick<Hook, 'source' | 'line'>): string {
  const file = `${h.source.scope === 'user' ? '~/' : ''}${h.source.file}${h.line ? `:${h.line}` : ''}`;
  return `${file} · ${h.source.plugin ? `plugin ${h.source.plugin}` : h.source.scope}`;
}

/** What a hook runs, literally: the full command line, URL, prompt or MCP tool. */
export function literalOf(h: Hook): string {
  return h.command ?? h.url ?? h.prompt ?? (typeof h.definition.server === 'string' ? `${h.definition.server} / ${String(h.definition.tool ?? '')}` : '(nothing)');
}

/**
 * One hook, literally: state, event/matcher/`if`, type and timeout, source file and scope, the full
 * command (monospace, wrapped, never truncated), what the digest does not cover (danger-marked),
 * danger highlights, warnings, the scripts it runs
 * (each viewable), the digest, Approve/Revoke and, for a modified hook, the diff against the
 * approved version.
 */
export function HookCard({ hook, workspaceId, busy, onApprove, onRevoke }: { hook: Hook; workspaceId: string; busy: boolean; onApprove(h: Hook): void; onRevoke(h: Hook): void }) {
  // a modified item shows its diff unless the user hid it
  const [diffHidden, setDiffHidden] = useState(false);
  const showDiff = !diffHidden;
  const canApprove = hook.state === 'unapproved' || hook.state === 'modified' || (hook.state === 'disabled' && hook.approval?.digest !== hook.digest);
  const literal = literalOf(hook);
  const targeted = useRouteParam('hook') === hook.id;
  return (
    <article
      className={`hook-card hook-card-${hook.state}${hook.uncovered.length ? ' hook-card-uncovered' : ''}${targeted ? ' hook-card-targeted' : ''}`}
      aria-current={targeted ? 'location' : undefined} tabIndex={-1} data-hook-id={hook.id} data-state={hook.state} aria-label={`${hook.event} hook: ${literal}`}>
      <header className="hook-card-head">
        <HookStateBadge state={hook.state} heldBack={hook.heldBack} />
        <span className="hook-chip" title="Handler type">
          {hook.type}
        </span>
        {hook.runsOn && hook.runsOn !== hook.event && (
          <span className="hook-chip" title={`Written as ${hook.event} (${hook.source.format}); Atrium fires it on ${hook.runsOn}`}>
            {hook.source.format} {hook.event}
          </span>
        )}
        {hook.matcher && (
          <span className="hook-matcher" title="Matcher: which tool (or source) this hook runs for">
            {hook.matcher}
          </span>
        )}
        {hook.if && (
          <span className="hook-matcher" title="Condition (permission rule) on the tool call">
            if {hook.if}
          </span>
        )}
        {!hook.matcher && !hook.if && <span className="muted hook-all">every time</span>}
        <span className="hook-source" title={hook.source.absolutePath}>
          {sourceLabel(hook)}
        </span>
        <OpenInEditor path={hook.source.absolutePath} line={hook.line ?? undefined} compact label="Open the settings file in your editor" />
        <a className="link-button hook-permalink" href={hookAddress(workspaceId, hook.id)} aria-label="Link to this hook" title="Link to this hook (its address; copy it to come back here)">
          <Link2 size={12} aria-hidden />
        </a>
        <span className="hook-timeout" title={`Timeout${hook.timeout === null ? ' (format default)' : ''}`}>
          {formatMs(hook.timeoutMs)}
        </span>
      </header>
      <pre className="hook-command" aria-label="Literal command">
        {literal}
      </pre>
      {!hook.supported && hook.state !== 'invalid' && <p className="hook-note">Atrium does not run {hook.type} hooks yet: once approved it reports “not supported yet” instead of running.</p>}
      <UncoveredList uncovered={hook.uncovered} />
      <DangerList danger={hook.danger} />
      {hook.warnings.map((w, i) => (
        <p key={i} className="warning-line hook-warning">
          <AlertTriangle size={13} aria-hidden /> {w.message}
          {w.fix && <em> {w.fix}</em>}
        </p>
      ))}
      {hook.scripts.length > 0 && (
        <ul className="hook-scripts" aria-label="Scripts it runs">
          {hook.scripts.map((s) => (
            <ScriptRow key={s.path} workspaceId={workspaceId} hookId={hook.id} script={s} />
          ))}
        </ul>
      )}
      <footer className="hook-card-foot">
        <code className="hook-digest selectable" title="Digest: SHA-256 of the canonical definition and the scripts' bytes">
          {hook.digest}
        </code>
        {hook.state === 'modified' && (
          <button className="link-button" aria-expanded={showDiff} onClick={() => setDiffHidden(showDiff)}>
            {showDiff ? 'Hide changes' : 'Show changes'}
          </button>
        )}
        {hook.approval && (
          <button className="button" disabled={busy} onClick={() => onRevoke(hook)}>
            Revoke
          </button>
        )}
        {canApprove && (
          <button className="button primary" disabled={busy} onClick={() => onApprove(hook)}>
            {hook.state === 'modified' ? 'Approve this version' : 'Approve'}
          </button>
        )}
      </footer>
      {hook.state === 'modified' && showDiff && <HookDiff key={hook.digest} workspaceId={workspaceId} id={hook.id} />}
    </article>
  );
}

/**
 * One script a hook runs: path, size and hash, expandable to its content. An open pane re-reads
 * the file whenever hooks change on disk (the watcher's `hooksChanged`) and whenever the listing
 * reports other bytes (`sha256`), so it never shows text the file no longer has.
 */
export function ScriptRow({ workspaceId, hookId, script }: { workspaceId: string; hookId: string; script: Hook['scripts'][number] }) {
  const [open, setOpen] = useState(false);
  const file = useLive('hooks.readScript', open ? { workspaceId, id: hookId, script: script.path } : null, ['hooksChanged']);
  const shownSha = useRef(script.sha256);
  const { reload } = file;
  useEffect(() => {
    if (shownSha.current === script.sha256) return;
    shownSha.current = script.sha256;
    reload();
  }, [script.sha256, reload]);
  const workspacePath = useApp((s) => s.workspaces.find((w) => w.id === workspaceId)?.path ?? null);
  const home = useApp((s) => s.info?.homeDir ?? null);
  const absolute = scriptPath(script.path, workspacePath, home);
  return (
    <li>
      <button className="link-button hook-script-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        <ChevronRight size={12} className={open ? 'rotated' : ''} aria-hidden />
        <FileCode size={12} aria-hidden /> <code>{script.path}</code>
      </button>
      <span className="muted hook-script-meta">
        {script.size} bytes · sha256 {script.sha256.slice(0, 12)}…
      </span>
      {script.outsideWorkspace && <span className="badge badge-warn">outside the workspace</span>}
      {absolute && <OpenInEditor path={absolute} compact label="Open this script in your editor" />}
      {open && (
        <div className="hook-script-body">
          {file.error && <p className="field-error">{file.error}</p>}
          {/* after a failed re-read the old text is no longer what is on disk: show only the error */}
          {!file.error && file.data && (file.data.binary ? <p className="muted">Binary file ({file.data.size} bytes).</p> : <pre className="file-content" aria-label={`Content of ${script.path}`}>{file.data.content}</pre>)}
          {!file.error && file.data?.truncated && <p className="muted">Showing the first 1 MiB of {file.data.size} bytes.</p>}
        </div>
      )}
    </li>
  );
}

/** `600 s`, `1.5 s`, `10 min`. */
export function formatMs(ms: number): string {
  if (ms >= 120_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${ms / 1000} s`;
}

/** The address of one hook in the Hooks tab (see state/route.ts). */
export function hookAddress(workspaceId: string, hookId: string): string {
  return formatRoute({ kind: 'workspace', id: workspaceId, tab: 'hooks', params: { hook: hookId } });
}

/** A script's absolute path: as listed (`~/…` under home, absolute, or relative to the workspace folder); null when unknown. */
export function scriptPath(p: string, workspacePath: string | null, home: string | null): string | null {
  if (p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p)) return p;
  if (p.startsWith('~/')) return home ? `${home}/${p.slice(2)}` : null;
  return workspacePath ? `${workspacePath}/${p}` : null;
}
