import { useEffect, useMemo, useRef, useState } from 'react';
import { errorToast } from '../../components/errorToast';
import { Lock, ShieldCheck } from 'lucide-react';
import { toast } from 'sonner';
import type { Hook, HookListing, McpServer, Workspace } from '../../../../shared/contract';
import { RequestError } from '../../api/client';
import { FilterBox, matchesFilter } from '../../components/FilterBox';
import { useApp, useRouteParam } from '../../state/appStore';
import { ApproveAllDialog, type Approvable, type ApprovalChoice } from './ApproveAllDialog';
import { ConfirmApproveDialog } from './ConfirmApproveDialog';
import { HookCard } from './HookCard';
import { HttpHosts } from './HttpHosts';
import { McpCard } from './McpCard';
import { RunHistory } from './RunHistory';
import { useHooksListing } from './useHooks';

type Filter = 'all' | 'review' | 'approved' | 'inactive';
const FILTERS: Array<[Filter, string]> = [
  ['all', 'All'],
  ['review', 'Needs approval'],
  ['approved', 'Approved'],
  ['inactive', 'Invalid or disabled'],
];
const EVENT_ORDER = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'PostToolUseFailure', 'Notification', 'Stop', 'SessionEnd'];

function shown(state: string, filter: Filter): boolean {
  if (filter === 'all') return true;
  if (filter === 'review') return state === 'unapproved' || state === 'modified';
  if (filter === 'approved') return state === 'approved';
  return state === 'invalid' || state === 'disabled';
}

/** What the filter box searches in a hook: event, matcher, `if`, command/URL/prompt, name, source file, plugin, state, id. */
export function hookMatches(h: Hook, query: string): boolean {
  return matchesFilter(query, [h.event, h.runsOn, h.matcher, h.if, h.type, h.command, h.url, h.prompt, h.name, h.source.file, h.source.scope, h.source.plugin, h.state, h.id, ...h.scripts.map((x) => x.path)]);
}

/** What the filter box searches in an MCP server: name, transport, command and arguments, URL, source file, state, id. */
export function serverMatches(m: McpServer, query: string): boolean {
  return matchesFilter(query, ['MCP server', m.name, m.transport, m.command, ...m.args, m.url, m.source.file, m.source.scope, m.source.plugin, m.state, m.id]);
}

const approvable = (state: string) => state === 'unapproved' || state === 'modified';

/**
 * The Hooks tab: every hook that applies to the workspace (user, project, local, plugin), grouped
 * by event, each literally with its state; Approve/Revoke; "approve all shown" with a confirmation
 * listing them; the repository's MCP servers; the run history. Restricted folders show only the
 * user's own hooks and say how to see the rest. Approving one item with danger highlights or
 * with parts its digest does not cover asks first (the latter needs an explicit acknowledgement);
 * bulk approvals never include uncovered items unless acknowledged one by one in their dialog.
 */
export function HooksTab({ workspace }: { workspace: Workspace }) {
  const client = useApp((s) => s.client);
  const { data, error, reload } = useHooksListing(workspace.missing ? null : workspace.id);
  const [filter, setFilter] = useState<Filter>('all');
  const [query, setQuery] = useState('');
  const [busy, setBusy] = useState(false);
  const [confirm, setConfirm] = useState<{ title(chosen: number, total: number): string; items: Approvable[] } | null>(null);
  const [confirmOne, setConfirmOne] = useState<Approvable | null>(null);
  const bulkButton = useRef<HTMLButtonElement>(null);

  const inState = useMemo(() => ({ hooks: (data?.hooks ?? []).filter((h) => shown(h.state, filter)), servers: (data?.mcpServers ?? []).filter((s) => shown(s.state, filter)) }), [data, filter]);
  const hooks = useMemo(() => inState.hooks.filter((h) => hookMatches(h, query)), [inState, query]);
  const servers = useMemo(() => inState.servers.filter((s) => serverMatches(s, query)), [inState, query]);
  const groups = useMemo(() => groupByEvent(hooks), [hooks]);
  // `?hook=<id>` in the address: bring that hook into view once the listing is there (a reload, Back, a copied link)
  const hookParam = useRouteParam('hook');
  const listed = data !== null;
  useEffect(() => {
    if (!listed || !hookParam) return;
    const card = document.querySelector<HTMLElement>(`[data-hook-id="${CSS.escape(hookParam)}"]`);
    card?.scrollIntoView({ block: 'start' });
    card?.focus({ preventScroll: true });
  }, [listed, hookParam]);

  const act = async (what: () => Promise<{ changes: unknown[] }>, done: (n: number) => string): Promise<boolean> => {
    if (!client) return false;
    setBusy(true);
    try {
      const { changes } = await what();
      toast(done(changes.length));
      askNotificationPermission();
      return true;
    } catch (e) {
      errorToast((e as Error).message);
      if (e instanceof RequestError && (e.code === 'HOOK_DIGEST_MISMATCH' || e.code === 'HOOK_UNCOVERED')) reload();
      return false;
    } finally {
      setBusy(false);
    }
  };
  /** Approves at the digests shown; `acknowledgeUncovered` only where the user ticked the acknowledgement. */
  const approve = (chosen: ApprovalChoice[]) =>
    act(
      () =>
        client!.request('hooks.approve', {
          workspaceId: workspace.id,
          items: chosen.map(({ approvable: { item }, acknowledgeUncovered }) => ({ id: item.id, digest: item.digest, ...(acknowledgeUncovered ? { acknowledgeUncovered: true } : {}) })),
          via: 'app',
        }),
      (n) => `Approved ${n} item${n === 1 ? '' : 's'}`,
    );
  const revoke = (id: string) => act(() => client!.request('hooks.revoke', { workspaceId: workspace.id, ids: [id], via: 'app' }), () => 'Approval revoked: it no longer runs');
  /** A card's Approve: straight away when nothing is flagged, else through the confirmation. */
  const approveOne = (a: Approvable) => {
    if (a.item.uncovered.length > 0 || a.item.danger.length > 0) setConfirmOne(a);
    else void approve([{ approvable: a, acknowledgeUncovered: false }]);
  };
  /** After a confirmed approval the Approve button is gone: focus its card (or the bulk button) so the keyboard keeps its place. */
  const refocus = (target: () => HTMLElement | null) => requestAnimationFrame(() => target()?.focus());
  const cardOf = (a: Approvable) => () => document.querySelector<HTMLElement>(a.kind === 'hook' ? `[data-hook-id="${a.item.id}"]` : `[data-mcp-id="${a.item.id}"]`);

  if (workspace.missing) return <p className="muted">This folder no longer exists, so it has no hooks.</p>;
  if (error && !data) return <div className="banner banner-error">{error}</div>;
  if (!data) return <p className="muted">Reading hooks…</p>;

  const toApprove: Approvable[] = [...groups.flatMap(([, list]) => list).filter((h) => approvable(h.state)).map((item) => ({ kind: 'hook' as const, item })), ...servers.filter((s) => approvable(s.state)).map((item) => ({ kind: 'mcp' as const, item }))];
  const userPending: Approvable[] = data.hooks.filter((h) => h.source.scope === 'user' && approvable(h.state)).map((item) => ({ kind: 'hook' as const, item }));
  const total = data.hooks.length + data.mcpServers.length;

  return (
    <div className="hooks-tab">
      {data.restricted && (
        <p className="hooks-restricted" role="status">
          <Lock size={14} aria-hidden />
          <span>
            <strong>Trust this folder to see its hooks.</strong> In restricted mode its own hooks and MCP servers are neither listed nor run; only your own hooks (from your home folder) are shown.
          </span>
        </p>
      )}
      {data.disableAllHooks?.value && (
        <div className="banner banner-warn" role="status">
          <code>disableAllHooks</code> is <code>true</code> in <code>{data.disableAllHooks.file}</code>:{' '}
          {data.disableAllHooks.scope === 'project' ? "this repository's Claude-format hooks are switched off; your own hooks keep running." : 'every Claude-format hook is switched off.'}
        </div>
      )}
      {total === 0 ? (
        <EmptyHooks restricted={data.restricted} />
      ) : (
        <>
          <div className="hooks-toolbar">
            <Summary listing={data} />
            <span className="spacer" />
            {userPending.length > 0 && (
              <button className="button" disabled={busy} onClick={() => setConfirm({ title: (n, total) => (n === total ? `Approve your ${total} own hook${total === 1 ? '' : 's'}?` : `Approve ${n} of your ${total} own hooks?`), items: userPending })}>
                Approve my user hooks…
              </button>
            )}
            <button ref={bulkButton} className="button primary" disabled={busy || toApprove.length === 0} onClick={() => setConfirm({ title: (n, total) => (n === total ? `Approve ${total} shown item${total === 1 ? '' : 's'}?` : `Approve ${n} of ${total} shown items?`), items: toApprove })}>
              <ShieldCheck size={14} aria-hidden /> Approve all shown…
            </button>
          </div>
          <div className="hooks-filter-row">
            <div className="segmented hooks-filter" role="radiogroup" aria-label="Show">
              {FILTERS.map(([value, label]) => (
                <button key={value} role="radio" aria-checked={filter === value} className={filter === value ? 'active' : ''} onClick={() => setFilter(value)}>
                  {label}
                </button>
              ))}
            </div>
            <FilterBox
              value={query}
              onChange={setQuery}
              label="Filter hooks and MCP servers"
              placeholder="Filter hooks and servers…"
              shown={hooks.length + servers.length}
              total={inState.hooks.length + inState.servers.length}
              noun={filter === 'all' ? 'hooks and servers' : 'in this view'}
            />
          </div>
          {data.warnings.length > 0 && (
            <section className="hooks-file-warnings" aria-label="File problems">
              {data.warnings.map((w, i) => (
                <p key={i} className="warning-line">
                  {w.path}
                  {w.line ? `:${w.line}` : ''}: {w.message} {w.fix && <em>{w.fix}</em>}
                </p>
              ))}
            </section>
          )}
          {groups.map(([event, list]) => (
            <section key={event} className="hooks-group" aria-label={`${event} hooks${EVENT_ORDER.includes(event) ? '' : ' (as written, not fired by Atrium)'}`}>
              <h2 className="hooks-group-title">
                {event} <span className="muted">{list.length}</span>
                {!EVENT_ORDER.includes(event) && list.some((h) => h.state !== 'invalid') && <span className="hint"> · Atrium does not fire this event yet</span>}
              </h2>
              {list.map((h) => (
                <HookCard key={h.id} hook={h} workspaceId={workspace.id} busy={busy} onApprove={(x) => approveOne({ kind: 'hook', item: x })} onRevoke={(x) => void revoke(x.id)} />
              ))}
            </section>
          ))}
          {servers.length > 0 && (
            <section className="hooks-group" aria-label="MCP servers">
              <h2 className="hooks-group-title">
                MCP servers <span className="muted">{servers.length}</span>
              </h2>
              <p className="hint">A repository's MCP server may start in a session only while its exact definition is approved.</p>
              {servers.map((s: McpServer) => (
                <McpCard key={s.id} server={s} workspaceId={workspace.id} busy={busy} onApprove={(x) => approveOne({ kind: 'mcp', item: x })} onRevoke={(x) => void revoke(x.id)} />
              ))}
            </section>
          )}
          {hooks.length === 0 && servers.length === 0 && <p className="muted">{query.trim() ? `Nothing matches “${query.trim()}” here. Esc in the filter box clears it.` : 'Nothing matches this filter.'}</p>}
        </>
      )}
      <HttpHosts listing={data} />
      <h2 className="section-title">Run history</h2>
      <RunHistory workspaceId={workspace.id} listing={data} />
      {confirm && (
        <ApproveAllDialog
          title={confirm.title}
          items={confirm.items}
          workspaceId={workspace.id}
          open
          onOpenChange={(o) => !o && setConfirm(null)}
          onConfirm={(chosen) => {
            setConfirm(null);
            void approve(chosen).then(() => refocus(() => (bulkButton.current && !bulkButton.current.disabled ? bulkButton.current : document.querySelector<HTMLElement>('.hooks-summary'))));
          }}
        />
      )}
      {confirmOne && (
        <ConfirmApproveDialog
          key={confirmOne.item.id}
          approvable={confirmOne}
          onOpenChange={(o) => !o && setConfirmOne(null)}
          onConfirm={(acknowledgeUncovered) => {
            const a = confirmOne;
            setConfirmOne(null);
            void approve([{ approvable: a, acknowledgeUncovered }]).then(() => refocus(cardOf(a)));
          }}
        />
      )}
    </div>
  );
}

function Summary({ listing }: { listing: HookListing }) {
  const c = listing.counts;
  const parts = [
    [c.approved, 'approved', 'ok'],
    [c.modified, 'modified', 'error'],
    [c.unapproved, 'need approval', 'warn'],
    [c.invalid, 'invalid', 'muted'],
    [c.disabled, 'disabled', 'muted'],
  ] as const;
  return (
    <span className="hooks-summary" aria-label="Counts" tabIndex={-1}>
      {listing.hooks.length} hook{listing.hooks.length === 1 ? '' : 's'}
      {listing.mcpServers.length > 0 && `, ${listing.mcpServers.length} MCP server${listing.mcpServers.length === 1 ? '' : 's'}`}
      {parts
        .filter(([n]) => n > 0)
        .map(([n, label, tone]) => (
          <span key={label} className={`hooks-count hooks-count-${tone}`}>
            {n} {label}
          </span>
        ))}
    </span>
  );
}

function EmptyHooks({ restricted }: { restricted: boolean }) {
  return (
    <div className="hooks-empty">
      <h2>{restricted ? 'No hooks of your own' : 'No hooks here'}</h2>
      <p>
        Hooks are commands an agent runs by itself at moments like session start, before a tool runs or when it stops. They come from{' '}
        <code>~/.claude/settings.json</code>, <code>.claude/settings.json</code> and <code>settings.local.json</code>, <code>.codex/hooks.json</code>,{' '}
        <code>.gemini/settings.json</code>, <code>.blade/settings.json</code> and plugins' <code>hooks/hooks.json</code>; MCP servers from <code>.mcp.json</code> and similar files.
      </p>
      <p>When one appears, Atrium lists it here literally. It runs only after you approve its exact content, including the bytes of the scripts it calls.</p>
    </div>
  );
}

function groupByEvent(hooks: Hook[]): Array<[string, Hook[]]> {
  const map = new Map<string, Hook[]>();
  for (const h of hooks) {
    const key = h.runsOn ?? h.event;
    map.set(key, [...(map.get(key) ?? []), h]);
  }
  const rank = (e: string) => (EVENT_ORDER.includes(e) ? EVENT_ORDER.indexOf(e) : 100);
  return [...map.entries()].sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
}

function askNotificationPermission(): void {
  if (typeof Notification !== 'undefined' && Notification.permission === 'default') void Notification.requestPermission().catch(() => undefined);
}
