import { useEffect, useState } from 'react';
import { Loader2 } from 'lucide-react';
import { Dialog } from 'radix-ui';
import type { AgentSessionListing, Workspace } from '../../../../shared/contract';
import { useApp } from '../../state/appStore';
import { relativeTime } from './format';
import { useAgents } from './useAgents';

/**
 * Sessions started outside Atrium: asks an agent which sessions it keeps for this folder (ACP
 * `session/list`, a short-lived agent process) and adopts one, which resumes it in Atrium.
 */
export function AdoptDialog({ workspace, open, onOpenChange }: { workspace: Workspace; open: boolean; onOpenChange(open: boolean): void }) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog dialog-wide" aria-describedby="adopt-desc">
          <Dialog.Title className="dialog-title">Sessions started outside Atrium</Dialog.Title>
          <p id="adopt-desc" className="dialog-text">
            Agents that can list their sessions show the ones they keep for <code>{workspace.path}</code>. Adopting one binds it to an Atrium session and
            resumes it here; its earlier history appears when the agent replays it.
          </p>
          {open && <AdoptBody workspace={workspace} onDone={() => onOpenChange(false)} />}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function AdoptBody({ workspace, onDone }: { workspace: Workspace; onDone(): void }) {
  const client = useApp((s) => s.client);
  const openSession = useApp((s) => s.openSession);
  const { agents } = useAgents(true);
  const installed = agents?.filter((a) => a.install.state === 'installed') ?? [];
  const [agentId, setAgentId] = useState('');
  const [result, setResult] = useState<{ supported: boolean; sessions: AgentSessionListing[] } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!agentId && installed[0]) setAgentId(installed[0].id);
  }, [agentId, installed]);

  const list = async () => {
    if (!client || !agentId) return;
    setBusy('list');
    setError(null);
    setResult(null);
    try {
      setResult(await client.request('sessions.agentSessions', { workspaceId: workspace.id, agentId }));
    } catch (e) {
      setError(`${(e as Error).message} Check that the agent starts (Diagnostics of one of its sessions shows its stderr).`);
    } finally {
      setBusy(null);
    }
  };
  const adopt = async (s: AgentSessionListing) => {
    if (!client) return;
    if (s.adoptedAs) {
      onDone();
      openSession(s.adoptedAs, { kind: 'workspace', id: workspace.id, tab: 'sessions' });
      return;
    }
    setBusy(s.agentSessionId);
    setError(null);
    try {
      const { session } = await client.request('sessions.adopt', { workspaceId: workspace.id, agentId, agentSessionId: s.agentSessionId, title: s.title ?? undefined });
      onDone();
      openSession(session.id, { kind: 'workspace', id: workspace.id, tab: 'sessions' });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(null);
    }
  };

  if (agents && installed.length === 0) return <p className="muted">No agent is installed yet. Install one in the New session dialog first.</p>;
  return (
    <div className="sess-new-body">
      <div className="sess-adopt-bar">
        <label className="field">
          <span>Agent</span>
          <select value={agentId} onChange={(e) => (setAgentId(e.target.value), setResult(null))} aria-label="Agent">
            {installed.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </label>
        <button className="button" onClick={() => void list()} disabled={!agentId || busy !== null}>
          {busy === 'list' && <Loader2 size={13} className="spin" />} List its sessions
        </button>
      </div>
      {error && <p className="field-error">{error}</p>}
      {result && !result.supported && <p className="muted">This agent cannot list its sessions (it does not advertise ACP session/list).</p>}
      {result?.supported && result.sessions.length === 0 && <p className="muted">The agent keeps no sessions for this folder.</p>}
      {result?.supported && result.sessions.length > 0 && (
        <ul className="sess-rows" aria-label="Agent sessions">
          {result.sessions.map((s) => (
            <li key={s.agentSessionId} className="sess-adopt-row">
              <span className="sess-row-title">{s.title ?? <code>{s.agentSessionId}</code>}</span>
              <span className="muted">{s.updatedAt ? relativeTime(s.updatedAt) : ''}</span>
              <button className="button" disabled={busy !== null} onClick={() => void adopt(s)}>
                {busy === s.agentSessionId && <Loader2 size={13} className="spin" />} {s.adoptedAs ? 'Open' : 'Adopt and resume'}
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="dialog-actions">
        <Dialog.Close asChild>
          <button className="button">Close</button>
        </Dialog.Close>
      </div>
    </div>
  );
}
