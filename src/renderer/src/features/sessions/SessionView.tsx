import { useCallback, useEffect, useRef, useState } from 'react';
import type { HandoverCode } from '../../../../shared/contract';
import { Hand, Loader2, Search, ShieldCheck } from 'lucide-react';
import { useLive } from '../../api/useLive';
import { useApp } from '../../state/appStore';
import { Composer, type ComposerHandle } from './Composer';
import { ArchiveButton } from './ArchiveDialog';
import { DiagnosticsPanel } from './DiagnosticsPanel';
import { isTurnRunning } from './format';
import { HandoverBox, HandoverButton } from './Handover';
import { HostedElsewhereBanner, hostedReason } from './HostedElsewhere';
import { PermissionCard } from './PermissionCard';
import { PermissionElsewhere } from './PermissionElsewhere';
import { routePermission, usePermissionTakeOvers } from './permissionRouting';
import { PolicyPanel } from './PolicyPanel';
import { QueueList } from './QueueList';
import { RuleMismatch } from './RuleMismatch';
import { SessionHeader } from './SessionHeader';
import { SessionStatusBanner } from './SessionStatusBanner';
import { surfaceFor, surfaceKey, surfaceLabel, useAttachSurface } from './surface';
import { sessionTitle } from '../../../../shared/sessionTitle';
import { Transcript, type TranscriptHandle } from './Transcript';
import { TranscriptFind, type FindState } from './TranscriptFind';
import { useSessionActions } from './useSessionActions';
import { useSessionData } from './useSessionData';

/**
 * One session: header (state, agent, usage, mode/config switches), the streaming transcript,
 * pending permission cards, the queue and the input. A permission request whose item names another
 * attached surface shows as a one-line notice naming it (see permissionRouting). Keyboard: Enter
 * sends, Esc stops the running turn, Alt+1…9 answers the oldest request answerable here. Its URL
 * is `#/sessions/<id>`. Ctrl/Cmd+F opens find in transcript (every stored item, loaded or not).
 * `revealItemId` (e.g. from an address) pages that transcript item in and scrolls to it.
 */
export function SessionView({ sessionId, revealItemId = null }: { sessionId: string; revealItemId?: number | null }) {
  const data = useSessionData(sessionId);
  const actions = useSessionActions(sessionId);
  const returnTo = useApp((s) => s.returnTo);
  const workspaces = useApp((s) => s.workspaces);
  const select = useApp((s) => s.select);
  const showSessions = useApp((s) => s.showSessions);
  const [diagOpen, setDiagOpen] = useState(false);
  const [policyOpen, setPolicyOpen] = useState(false);
  // the code is only in the answer to "Hand over" (sessions.policy says a code is live, not which)
  const [issued, setIssued] = useState<HandoverCode | null>(null);
  const policyLive = useLive('sessions.policy', { sessionId }, ['sessionPolicyChanged']);
  const policy = policyLive.data?.policy ?? null;
  useAttachSurface(sessionId);
  const [resuming, setResuming] = useState(false);
  const composer = useRef<ComposerHandle>(null);
  const transcript = useRef<TranscriptHandle>(null);
  const [findOpen, setFindOpen] = useState(false);
  const [found, setFound] = useState<FindState | null>(null);
  const { loadThrough } = data;
  /** Pages the item in (when it is older than what is loaded) and scrolls to it. */
  const revealItem = useCallback(
    (itemId: number) => {
      transcript.current?.revealItem(itemId);
      void loadThrough(itemId).then(() => transcript.current?.revealItem(itemId));
    },
    [loadThrough],
  );
  const detailsLoaded = data.details !== null;
  useEffect(() => {
    if (revealItemId !== null && detailsLoaded) revealItem(revealItemId);
  }, [revealItemId, detailsLoaded, revealItem]);
  const { details, pending } = data;
  const running = details ? isTurnRunning(details) : false;
  const routing = usePermissionTakeOvers();
  const routed = pending.map((item) => ({ item, route: routePermission(routing, sessionId, item, surfaceFor(sessionId), policy?.surfaces ?? null) }));
  const answerable = routed.filter((r) => r.route.answerHere).map((r) => r.item);
  const elsewhere = routed.flatMap((r) => (r.route.answerHere ? [] : [r.route]));

  const client = useApp((s) => s.client);
  /**
   * "Answer here instead": the engine re-addresses the request to this surface, so the surface asked
   * before shows the notice instead of its buttons. Where the engine cannot (the session runs in
   * another Atrium process, or the call failed), this page shows the buttons anyway.
   */
  const takeOver = (requestId: string) => {
    if (!client) return routing.takeOver(sessionId, requestId);
    client
      .request('sessions.takeOverPermission', { sessionId, requestId, surfaceId: surfaceFor(sessionId), surfaceKey })
      .then((r) => r.permission === null && routing.takeOver(sessionId, requestId))
      .catch(() => routing.takeOver(sessionId, requestId));
  };

  const back = () => (returnTo.kind === 'workspace' && workspaces.some((w) => w.id === returnTo.id) ? select(returnTo.id, returnTo.tab) : showSessions());
  const backLabel = returnTo.kind === 'workspace' ? (workspaces.find((w) => w.id === returnTo.id)?.name ?? 'Sessions') : 'Sessions';

  const resume = async () => {
    setResuming(true);
    try {
      await actions.resume();
    } finally {
      setResuming(false);
    }
  };

  // Esc stops the turn; Alt+digit answers the oldest permission request (not while a dialog is open)
  // another Atrium process runs the session: nothing here may drive it (the controls say why)
  const blocked = details ? hostedReason(details) : null;
  const latest = useRef({ running, pending: answerable, actions, blocked });
  latest.current = { running, pending: answerable, actions, blocked };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || document.querySelector('[role="dialog"], [role="alertdialog"]')) return;
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'f') {
        e.preventDefault();
        setFindOpen(true);
        // already open: focus it again (like an editor's find)
        document.querySelector<HTMLInputElement>('.sess-find-input')?.select();
        return;
      }
      const { running: r, pending: p, actions: a, blocked: b } = latest.current;
      if (b) return;
      if (e.key === 'Escape' && r) {
        e.preventDefault();
        void a.stop();
        return;
      }
      if (e.altKey && !e.ctrlKey && !e.metaKey && /^Digit[1-9]$/.test(e.code) && p.length) {
        const option = p[0].options[Number(e.code.slice(5)) - 1];
        if (option) {
          e.preventDefault();
          void a.answer(p[0].requestId, option.optionId).then(() => composer.current?.focus());
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // the window title names the session and this tab's surface label, so two tabs of one session are told apart
  const titleText = details ? sessionTitle(details) : null;
  useEffect(() => {
    if (!titleText) return;
    const before = document.title;
    document.title = `${titleText} · ${surfaceLabel} — Atrium`;
    return () => {
      document.title = before;
    };
  }, [titleText]);

  const ready = details !== null;
  useEffect(() => {
    if (ready) composer.current?.focus();
  }, [sessionId, ready]);

  if (!details) {
    return (
      <section className="workspace-view sess-view">
        {data.error ? (
          <div className="empty-state">
            <h1>Cannot open this session</h1>
            <p>{data.error}</p>
            <button className="button" onClick={back}>
              Back to {backLabel}
            </button>
          </div>
        ) : (
          <div className="empty-state muted">Opening the session…</div>
        )}
      </section>
    );
  }

  const workspaceName = details.workspaceId ? (workspaces.find((w) => w.id === details.workspaceId)?.name ?? null) : null;
  const footer =
    details.state === 'busy' ? (
      <div className="sess-working muted" role="status">
        <Loader2 size={13} className="spin" aria-hidden /> Working…{' '}
        {blocked ? (
          'in another Atrium process'
        ) : (
          <>
            <kbd>Esc</kbd> stops
          </>
        )}
      </div>
    ) : answerable.length || (details.state === 'awaiting_permission' && !elsewhere.length) ? (
      <div className="sess-working sess-working-attention" role="status">
        <Hand size={13} aria-hidden /> Waiting for your permission answer below
      </div>
    ) : elsewhere.length ? (
      <div className="sess-working muted" role="status">
        <Hand size={13} aria-hidden /> Waiting for an answer on {elsewhere[0].label}
      </div>
    ) : null;

  return (
    <section className="workspace-view sess-view" aria-labelledby="session-title" data-session-id={sessionId} data-state={details.state}>
      <SessionHeader
        session={details}
        backLabel={backLabel}
        workspaceName={workspaceName}
        diagnosticsOpen={diagOpen}
        onBack={back}
        onClose={() => void actions.close()}
        onDiagnostics={() => {
          if (!diagOpen) data.refreshDetails();
          setDiagOpen(!diagOpen);
          setPolicyOpen(false);
        }}
        actions={
          <>
            <button className={`button${findOpen ? ' active' : ''}`} onClick={() => setFindOpen(!findOpen)} aria-pressed={findOpen} title="Find in transcript (Ctrl+F)">
              <Search size={13} aria-hidden /> <span className="sess-btn-label">Find</span>
            </button>
            <button className={`button${policyOpen ? ' active' : ''}`} onClick={() => (setPolicyOpen(!policyOpen), setDiagOpen(false))} aria-pressed={policyOpen} title="Rules, hooks, MCP servers, folder or worktree, attached surfaces">
              <ShieldCheck size={13} aria-hidden /> <span className="sess-btn-label">Workspace</span>
            </button>
            <HandoverButton sessionId={sessionId} onIssued={(code) => (setIssued(code), policyLive.reload())} disabledReason={blocked} />
            {!policy?.archivedAt && <ArchiveButton sessionId={sessionId} execution={policy?.execution ?? null} onArchived={policyLive.reload} disabledReason={blocked} />}
          </>
        }
        onMode={(m) => void actions.setMode(m)}
        onConfig={(id, v) => void actions.setConfig(id, v)}
        onRename={actions.rename}
      />
      <HostedElsewhereBanner session={details} />
      {!blocked && <SessionStatusBanner session={details} resuming={resuming} ruleMismatch={Boolean(policy?.mismatch)} onResume={() => void resume()} onDiagnostics={() => (data.refreshDetails(), setDiagOpen(true))} />}
      {policy?.mismatch && <RuleMismatch sessionId={sessionId} mismatch={policy.mismatch} onResolved={policyLive.reload} />}
      {issued && issued.sessionId === sessionId && policy?.handover?.expiresAt === issued.expiresAt && <HandoverBox key={issued.code} code={issued} onDismiss={() => setIssued(null)} />}
      <div className={`sess-body${diagOpen || policyOpen ? ' with-diag' : ''}`}>
        <div className="sess-main">
          {findOpen && (
            <TranscriptFind
              key={sessionId}
              sessionId={sessionId}
              version={data.items.length === 0 ? 0 : data.items[data.items.length - 1].id}
              onGo={revealItem}
              onChange={setFound}
              onClose={() => {
                setFindOpen(false);
                composer.current?.focus();
              }}
            />
          )}
          {data.items.length === 0 && !data.hasBefore ? (
            <div className="sess-transcript sess-transcript-empty muted">
              <p>
                Nothing here yet. Type what the agent should do below and press <kbd>Enter</kbd>.
                {details.commands.length > 0 && (
                  <>
                    {' '}
                    Type <kbd>/</kbd> for the agent’s commands.
                  </>
                )}
              </p>
              {footer}
            </div>
          ) : (
            <Transcript sessionId={sessionId} items={data.items} hasBefore={data.hasBefore} loadingOlder={data.loadingOlder} onLoadOlder={data.loadOlder} footer={footer} highlight={found} ref={transcript} />
          )}
          <div className="sess-bottom">
            {routed.map(({ item, route }) =>
              route.answerHere ? (
                <PermissionCard key={item.requestId} sessionId={sessionId} item={item} index={answerable.indexOf(item)} onAnswer={actions.answer} onAnswered={() => composer.current?.focus()} disabledReason={blocked} />
              ) : (
                <PermissionElsewhere key={item.requestId} item={item} surfaceId={route.surfaceId} label={route.label} onTakeOver={() => takeOver(item.requestId)} />
              ),
            )}
            <QueueList queue={details.queue} onRemove={(id) => void actions.dequeue(id)} />
            <Composer ref={composer} sessionId={sessionId} commands={details.commands} running={running} queued={details.queue.length} onSend={actions.send} onStop={() => void actions.stop()} disabledReason={blocked} />
          </div>
        </div>
        {diagOpen && <DiagnosticsPanel session={details} onRefresh={data.refreshDetails} onClose={() => setDiagOpen(false)} />}
        {policyOpen && <PolicyPanel policy={policy} error={policyLive.error} workspaceId={details.workspaceId} onRefresh={policyLive.reload} onClose={() => setPolicyOpen(false)} />}
      </div>
    </section>
  );
}
