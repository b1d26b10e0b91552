import { AlertTriangle } from 'lucide-react';
import { AGENT_BEHAVIOUR_LABELS, agentBehaviourText } from '../../../../shared/agentBehaviourText';
import { useLive } from '../../api/useLive';

/**
 * What Atrium enforces for the chosen agent and what the agent still loads or runs by itself, before
 * it is launched: the same sentences `atrium session new` prints. An agent Atrium does not isolate
 * gets a warning banner.
 */
export function AgentBehaviourNote({ agentId }: { agentId: string | null }) {
  const { data, error } = useLive('sessions.agentBehaviour', agentId ? { agentId } : null);
  if (!agentId || error || !data) return null;
  const t = agentBehaviourText(data.behaviour);
  if (!t.warning && !t.enforced.length && !t.byItself.length && !t.nativeRules) return null;
  return (
    <div
      className={`banner ${t.warning ? 'banner-warn' : 'banner-info'} sess-agent-behaviour`}
      role={t.warning ? 'alert' : 'note'}
      aria-label={t.warning ? 'Approvals are not enforced for this agent' : 'What Atrium enforces for this agent'}
      data-isolated={t.warning ? 'false' : 'true'}
    >
      <strong>
        {t.warning && <AlertTriangle size={14} aria-hidden />} {t.heading}
      </strong>
      {t.enforced.length > 0 && (
        <>
          <div>{AGENT_BEHAVIOUR_LABELS.enforced}</div>
          <ul className="sess-agent-enforced">
            {t.enforced.map((line) => (
              <li key={line}>
                <code>{line}</code>
              </li>
            ))}
          </ul>
        </>
      )}
      {t.byItself.length > 0 && (
        <>
          <div>{AGENT_BEHAVIOUR_LABELS.byItself}</div>
          <ul className="sess-agent-own">
            {t.byItself.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </>
      )}
      {t.nativeRules && <div>{t.nativeRules}</div>}
    </div>
  );
}
