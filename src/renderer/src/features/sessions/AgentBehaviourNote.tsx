import { useLive } from '../../api/useLive';

/** What the chosen agent loads or runs from the workspace by itself, and how Atrium launches it (issue 8). */
export function AgentBehaviourNote({ agentId }: { agentId: string | null }) {
  const { data, error } = useLive('sessions.agentBehaviour', agentId ? { agentId } : null);
  if (!agentId || error || !data) return null;
  const b = data.behaviour;
  if (!b.ownBehaviour.length && !b.switches.length && !b.nativeRuleFormats.length) return null;
  return (
    <div className={`banner ${b.isolated ? 'banner-info' : 'banner-warn'} sess-agent-behaviour`} role="note" aria-label="What the agent does on its own">
      <strong>{b.isolated ? 'What this agent loads by itself' : 'This agent will, on its own:'}</strong>
      {b.ownBehaviour.length > 0 && (
        <ul>
          {b.ownBehaviour.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
      {b.nativeRuleFormats.length > 0 && <div className="muted">Rule formats it reads itself (not sent twice): {b.nativeRuleFormats.join(', ')}</div>}
      {b.switches.length > 0 && (
        <div className="muted">
          Atrium launches it with <code>{b.switches.join(' ')}</code> so that nothing unapproved runs.
        </div>
      )}
    </div>
  );
}
