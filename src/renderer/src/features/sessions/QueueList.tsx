import { X } from 'lucide-react';
import type { QueuedPrompt } from '../../../../shared/contract';

/** Prompts waiting behind the running turn, each removable before it runs (`sessions.dequeue`). */
export function QueueList({ queue, onRemove }: { queue: QueuedPrompt[]; onRemove(promptId: string): void }) {
  if (!queue.length) return null;
  return (
    <div className="sess-queue" aria-label="Queued prompts" role="region">
      <div className="sess-queue-head muted">
        Queued — {queue.length === 1 ? 'runs' : 'run'} when the current turn ends
      </div>
      <ol className="sess-queue-list">
        {queue.map((q) => (
          <li key={q.promptId} className="sess-queued" data-prompt-id={q.promptId}>
            <span className="sess-queued-text" title={q.text}>
              {q.text}
            </span>
            <button className="icon-button" aria-label={`Remove queued prompt: ${q.text.slice(0, 60)}`} title="Remove from the queue" onClick={() => onRemove(q.promptId)}>
              <X size={13} />
            </button>
          </li>
        ))}
      </ol>
    </div>
  );
}
