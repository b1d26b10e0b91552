import { useState, type KeyboardEvent } from 'react';
import { Pencil } from 'lucide-react';
import type { Session } from '../../../../shared/contract';
import { useApp } from '../../state/appStore';
import { sessionTitle } from '../../../../shared/sessionTitle';

/**
 * The session's title as the header's heading, with a Rename button that edits it in place (Enter
 * saves, Esc cancels; an empty title brings back the agent's title, else "Session in <workspace>"). A title set here wins
 * over titles the agent reports. The full title and the folder are in the tooltip when it is cut.
 */
export function SessionTitle({ session, onRename }: { session: Pick<Session, 'title' | 'cwd' | 'workspaceId'>; onRename(title: string): Promise<boolean> }) {
  const [draft, setDraft] = useState<string | null>(null);
  const workspaceName = useApp((s) => s.workspaces.find((w) => w.id === session.workspaceId)?.name ?? null);
  const title = sessionTitle(session, workspaceName);
  if (draft !== null) {
    const save = async () => {
      if (draft.trim() === (session.title ?? '').trim() || (await onRename(draft))) setDraft(null);
    };
    const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        void save();
      } else if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        setDraft(null);
      }
    };
    return (
      <input
        className="sess-title-input"
        aria-label="Session title"
        value={draft}
        maxLength={500}
        autoFocus
        placeholder="empty: the agent's title, else the workspace's"
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => void save()}
      />
    );
  }
  return (
    <>
      <h1 id="session-title" className="sess-title" title={`${title}\n${session.cwd}`}>
        {title}
      </h1>
      <button className="icon-button sess-title-edit" aria-label="Rename the session" title="Rename (your title wins over the agent's)" onClick={() => setDraft(session.title ?? '')}>
        <Pencil size={13} aria-hidden />
      </button>
    </>
  );
}
