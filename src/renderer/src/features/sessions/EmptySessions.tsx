import type { ReactNode } from 'react';
import { MessageSquarePlus } from 'lucide-react';
import { useNewSession } from './newSessionStore';

/** Teaches what a session is and how to start one (no sessions yet). */
export function EmptySessions({ workspaceId, missing, extra }: { workspaceId: string | null; missing?: boolean; extra?: ReactNode }) {
  const show = useNewSession((s) => s.show);
  return (
    <div className="empty-inline sess-empty">
      <h2>No sessions yet</h2>
      <p className="muted">
        A session is one conversation with a coding agent (Claude Code, Codex, Gemini CLI, or any agent that speaks the Agent Client Protocol) running in
        a workspace folder. Atrium starts the agent, shows what it does as it streams, puts the agent's permission requests to you, and keeps the
        whole transcript, so you can stop, close Atrium and resume later.
      </p>
      {missing ? (
        <p className="muted">This workspace folder is missing, so no agent can start here.</p>
      ) : (
        <div className="sess-empty-actions">
          <button className="button primary" onClick={() => show(workspaceId)}>
            <MessageSquarePlus size={15} /> Start a session…
          </button>
          {extra}
        </div>
      )}
    </div>
  );
}
