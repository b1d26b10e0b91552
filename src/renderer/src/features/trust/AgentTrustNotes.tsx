import { AlertTriangle } from 'lucide-react';
import type { AgentTrustNote } from '../../../../shared/contract';

/**
 * The trust review's per-agent part: what trusting this folder lets each agent load by itself when
 * Atrium launches it (the same sentences as `atrium trust review`). An agent Atrium does not
 * isolate is shown as a warning: approvals are not enforced for it.
 */
export function AgentTrustNotes({ agents }: { agents: AgentTrustNote[] | null }) {
  if (!agents?.length) return null;
  return (
    <section className="review-group agent-trust-notes" aria-label="What each agent loads by itself">
      <h3>What each agent loads by itself once the folder is trusted</h3>
      <ul>
        {agents.map((a) => (
          <li key={a.agentId} className={`agent-trust-note${a.isolated ? '' : ' banner banner-warn'}`} data-agent={a.agentId}>
            <strong>
              {!a.isolated && <AlertTriangle size={13} aria-hidden />} {a.name}
              {!a.isolated && ': approvals not enforced'}
            </strong>
            <ul>
              {a.whenTrusted.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}
