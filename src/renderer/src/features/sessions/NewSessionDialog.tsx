import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { ChevronRight, Play } from 'lucide-react';
import { Dialog } from 'radix-ui';
import type { SessionMode } from '../../../../shared/contract';
import { shortcut } from '../../components/format';
import { useApp } from '../../state/appStore';
import { NewSessionProviderNote } from '../providers/NewSessionProviderNote';
import { AgentBehaviourNote } from './AgentBehaviourNote';
import { AgentPicker } from './AgentPicker';
import { DefineAgentForm } from './DefineAgentForm';
import { useNewSession } from './newSessionStore';
import { tabSurfaceId } from './surface';
import { useAgents } from './useAgents';
import { useSessionList } from './useSessionList';
import { useWorkspaceGit, WhereItRuns, WorktreeOption } from './WorktreeOption';
import './newSessionDialog.css';

/**
 * New session: workspace, agent (with install state and an Install button with progress), where it
 * runs (the folder, or a new git worktree: the description says which), optional mode, title and
 * first prompt. Starting opens the session view at once (the agent starts in the background;
 * progress shows there). Ctrl/⌘+Enter starts. The form scrolls and Cancel / Start session stay in a
 * footer below it, so a short window (800 px) never hides them (newSessionDialog.css).
 */
export function NewSessionDialog() {
  const open = useNewSession((s) => s.open);
  const hide = useNewSession((s) => s.hide);
  return (
    <Dialog.Root open={open} onOpenChange={(o) => !o && hide()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog dialog-wide sess-new-dialog" aria-describedby="new-session-desc">
          <Dialog.Title className="dialog-title">New session</Dialog.Title>
          {open && <NewSessionForm onClose={hide} />}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function NewSessionForm({ onClose }: { onClose(): void }) {
  const client = useApp((s) => s.client);
  const workspaces = useApp((s) => s.workspaces);
  const openSession = useApp((s) => s.openSession);
  const preset = useNewSession((s) => s.workspaceId);
  const { agents, error: agentsError, progress, install, define } = useAgents(true);
  const { sessions } = useSessionList(null);
  const usable = workspaces.filter((w) => !w.missing);
  const [workspaceId, setWorkspaceId] = useState<string>(preset ?? usable[0]?.id ?? '');
  const [agentId, setAgentId] = useState<string | null>(null);
  const [modeId, setModeId] = useState('');
  const [title, setTitle] = useState('');
  const [prompt, setPrompt] = useState('');
  const [worktree, setWorktree] = useState(false);
  const git = useWorkspaceGit(workspaceId);
  const [defining, setDefining] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const installed = useMemo(() => agents?.filter((a) => a.install.state === 'installed') ?? [], [agents]);
  // preselect the agent of the most recent session, else the first installed one
  useEffect(() => {
    if (agentId && installed.some((a) => a.id === agentId)) return;
    const recent = sessions?.find((s) => installed.some((a) => a.id === s.agentId))?.agentId;
    setAgentId(recent ?? installed[0]?.id ?? null);
  }, [installed, sessions, agentId]);

  // modes are only known once the agent ran: offer those a previous session of this agent reported
  const knownModes: SessionMode[] = useMemo(() => sessions?.find((s) => s.agentId === agentId && s.modes?.available.length)?.modes?.available ?? [], [sessions, agentId]);
  useEffect(() => setModeId(''), [agentId]);

  const start = async () => {
    if (!client || !agentId || !workspaceId) return;
    setBusy(true);
    setError(null);
    try {
      const { session } = await client.request('sessions.new', {
        workspaceId,
        agentId,
        modeId: modeId.trim() || undefined,
        title: title.trim() || undefined,
        prompt: prompt.trim() ? prompt : undefined,
        worktree: (worktree && git?.kind !== 'none') || undefined,
        surfaceId: tabSurfaceId,
      });
      onClose();
      openSession(session.id, { kind: 'workspace', id: workspaceId, tab: 'sessions' });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  // overlay scrollbars (macOS) show nothing until you scroll: say so when fields are below the edge
  const body = useRef<HTMLDivElement>(null);
  const [moreBelow, setMoreBelow] = useState(false);
  const measure = () => {
    const el = body.current;
    if (el) setMoreBelow(el.scrollTop + el.clientHeight < el.scrollHeight - 2);
  };
  useLayoutEffect(() => {
    const el = body.current;
    if (!el) return;
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    for (const child of Array.from(el.children)) observer.observe(child);
    return () => observer.disconnect();
  });

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void start();
    }
  };

  const noneInstalled = agents !== null && installed.length === 0;
  return (
    <div className="sess-new-form" onKeyDown={onKeyDown} data-more-below={moreBelow || undefined}>
      <div className="sess-new-body" ref={body} onScroll={measure}>
        <p id="new-session-desc" className="dialog-text" aria-live="polite">
          <WhereItRuns workspace={usable.find((w) => w.id === workspaceId) ?? null} worktree={worktree && git?.kind !== 'none'} />
        </p>
        <label className="field">
          <span>Workspace</span>
          <select value={workspaceId} onChange={(e) => setWorkspaceId(e.target.value)} aria-label="Workspace">
            {usable.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name} — {w.path}
              </option>
            ))}
          </select>
        </label>
        {agentsError && <div className="banner banner-error">Could not list agents: {agentsError}</div>}
        {!agents && !agentsError && <p className="muted">Looking for agents…</p>}
        {noneInstalled && (
          <div className="banner banner-warn" role="note">
            No agent is installed yet. Install one below (Atrium downloads its pinned version into its data folder and runs it from there), or define a
            command that speaks the Agent Client Protocol.
          </div>
        )}
        {agents && <AgentPicker agents={agents} value={agentId} onChange={setAgentId} progress={progress} onInstall={(id) => void install(id).then((a) => a && setAgentId(a.id))} />}
        <button type="button" className="link-button sess-define-toggle" aria-expanded={defining} onClick={() => setDefining(!defining)}>
          <ChevronRight size={13} className={defining ? 'rotated' : ''} aria-hidden /> Define an agent command…
        </button>
        {defining && (
          <DefineAgentForm
            onDefine={define}
            onDone={(a) => {
              setDefining(false);
              if (a.install.state === 'installed') setAgentId(a.id);
            }}
          />
        )}
        <AgentBehaviourNote agentId={agentId} />
        <NewSessionProviderNote workspaceId={workspaceId} agentId={agentId} />
        <WorktreeOption git={git} checked={worktree} onChange={setWorktree} />
        <div className="sess-new-grid">
          <label className="field">
            <span>Mode (optional)</span>
            {knownModes.length > 0 ? (
              <select value={modeId} onChange={(e) => setModeId(e.target.value)} aria-label="Mode">
                <option value="">Agent default</option>
                {knownModes.map((m) => (
                  <option key={m.id} value={m.id} title={m.description ?? undefined}>
                    {m.name}
                  </option>
                ))}
              </select>
            ) : (
              <input value={modeId} onChange={(e) => setModeId(e.target.value)} placeholder="agent default" aria-label="Mode" spellCheck={false} title="The agent lists its modes once it runs; you can switch in the session too." />
            )}
          </label>
          <label className="field">
            <span>Title (optional)</span>
            <input value={title} onChange={(e) => setTitle(e.target.value)} placeholder="empty: the agent names it" aria-label="Title" title="A title you type here stays; the agent's titles only fill an empty one." />
          </label>
        </div>
        <label className="field">
          <span>First prompt (optional)</span>
          <textarea className="sess-textarea" rows={3} value={prompt} onChange={(e) => setPrompt(e.target.value)} placeholder="What should the agent do?" aria-label="First prompt" />
        </label>
      </div>
      <div className="dialog-actions sess-new-footer">
        {error && <p className="field-error sess-new-error" role="alert">{error}</p>}
        {moreBelow && !error && (
          <button type="button" className="link-button sess-new-more" onClick={() => body.current?.scrollBy({ top: body.current.clientHeight * 0.8, behavior: 'smooth' })}>
            More below ↓
          </button>
        )}
        <Dialog.Close asChild>
          <button className="button" type="button">
            Cancel
          </button>
        </Dialog.Close>
        <button className="button primary" type="button" disabled={busy || !agentId || !workspaceId} onClick={() => void start()}>
          <Play size={14} /> Start session <kbd>{shortcut('Enter')}</kbd>
        </button>
      </div>
    </div>
  );
}
