import { DiffLines, diffRows } from '../../components/DiffLines';
import { useLive } from '../../api/useLive';

/** A unified line diff of two texts with +/− gutters; unchanged runs longer than 6 lines are folded to 2 + 2. */
export function TextDiff({ before, after, label }: { before: string; after: string; label: string }) {
  return <DiffLines rows={diffRows(before, after, 2, 6)} label={label} className="hook-diff" linePrefix="diff" />;
}

/**
 * The difference between the last approved version of a hook (or MCP server) and the current one:
 * the canonical definition, then every script whose bytes changed, added or removed. Key it by the
 * current digest so a further change refetches.
 */
export function HookDiff({ workspaceId, id }: { workspaceId: string; id: string }) {
  // the parent keys this component by the current digest, so a further change refetches
  const live = useLive('hooks.diff', { workspaceId, id }, []);
  const data = live.data;
  if (live.error) return <p className="field-error">{live.error}</p>;
  if (!data) return <p className="muted">Loading the difference…</p>;
  if (!data.approved) return <p className="muted">Never approved: nothing to compare with.</p>;
  const before = new Map(data.approved.scripts.map((s) => [s.path, s]));
  const after = new Map(data.current.scripts.map((s) => [s.path, s]));
  const paths = [...new Set([...before.keys(), ...after.keys()])];
  const changedScripts = paths.filter((p) => before.get(p)?.sha256 !== after.get(p)?.sha256);
  const definitionChanged = stripScripts(data.approved.definition) !== stripScripts(data.current.definition);
  return (
    <div className="hook-diff-block" data-testid="hook-diff">
      <p className="hint">
        Approved {data.approval ? new Date(data.approval.approvedAt).toLocaleString() : ''} by {data.approval?.approvedBy ?? 'you'} as <code>{short(data.approved.digest)}</code>; now{' '}
        <code>{short(data.current.digest)}</code>.
      </p>
      {definitionChanged && <TextDiff label="Definition changes" before={stripScripts(data.approved.definition)} after={stripScripts(data.current.definition)} />}
      {changedScripts.map((p) => {
        const b = before.get(p);
        const a = after.get(p);
        const title = !b ? `${p} (new script)` : !a ? `${p} (no longer run)` : `${p}`;
        return (
          <div key={p}>
            <h4 className="hook-diff-title">{title}</h4>
            {b?.content === null || a?.content === null ? (
              <p className="muted">Contents not available (binary, too large or unreadable); its SHA-256 changed from {short(b?.sha256 ?? '—')} to {short(a?.sha256 ?? '—')}.</p>
            ) : (
              <TextDiff label={`Changes in ${p}`} before={b?.content ?? ''} after={a?.content ?? ''} />
            )}
          </div>
        );
      })}
      {!definitionChanged && changedScripts.length === 0 && <p className="muted">Only the digest format changed.</p>}
    </div>
  );
}

function stripScripts(definition: string): string {
  try {
    const value = JSON.parse(definition) as Record<string, unknown>;
    delete value.scripts;
    return JSON.stringify(value, null, 2);
  } catch {
    return definition;
  }
}

function short(digest: string): string {
  return digest.length > 20 ? `${digest.slice(0, 19)}…` : digest;
}
