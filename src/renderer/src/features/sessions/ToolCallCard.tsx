import { memo } from 'react';
import { ChevronRight } from 'lucide-react';
import type { TranscriptItem } from '../../../../shared/contract';
import { TOOL_KIND_LABEL, TOOL_STATUS_LABEL } from './format';
import { Locations, ToolContentView } from './ToolContentView';
import { useExpanded } from './useExpanded';

type ToolItem = Extract<TranscriptItem, { kind: 'tool_call' }>;

/**
 * What a permission request says about a tool call: `asking` while one waits for an answer (its
 * card below shows the diff and paths, so this card stays collapsed and does not repeat them),
 * `rejected` once the answer was a reject option (shown instead of pending / cancelled).
 */
export type ToolPermission = 'asking' | 'rejected' | null;

/** A tool call: kind, title, status, locations; expandable to its content (diffs, output, terminal) and raw input. */
export const ToolCallCard = memo(function ToolCallCard({ sessionId, item, permission = null }: { sessionId: string; item: ToolItem; permission?: ToolPermission }) {
  const hasDiff = item.content.some((c) => c.type === 'diff');
  const [open, setOpen] = useExpanded(`${sessionId}:${item.id}`);
  const rejected = permission === 'rejected' && (item.status === 'pending' || item.status === 'cancelled' || item.status === 'failed');
  const expanded = open ?? (permission === null && (hasDiff || item.status === 'failed'));
  const hasBody = item.content.length > 0 || item.rawInput !== null || item.rawOutput !== null;
  return (
    <div className={`sess-tool sess-tool-${rejected ? 'rejected' : item.status}`} data-tool-status={rejected ? 'rejected' : item.status} data-tool-kind={item.toolKind}>
      <button className="sess-tool-head" aria-expanded={hasBody ? expanded : undefined} onClick={() => hasBody && setOpen(!expanded)} disabled={!hasBody}>
        {hasBody ? <ChevronRight size={13} className={expanded ? 'rotated' : ''} aria-hidden /> : <span className="sess-chev-space" />}
        <span className={`sess-kind sess-kind-${item.toolKind}`}>{TOOL_KIND_LABEL[item.toolKind]}</span>
        <span className="sess-tool-title">{item.title || item.toolCallId}</span>
        {permission === 'asking' && <span className="muted sess-tool-asking">asks permission below</span>}
        {rejected ? (
          <span className="badge sess-tool-status sess-tool-status-rejected" data-rejected>
            rejected
          </span>
        ) : (
          <span className={`badge sess-tool-status sess-tool-status-${item.status}`}>{TOOL_STATUS_LABEL[item.status]}</span>
        )}
      </button>
      {permission !== 'asking' && <Locations locations={item.locations} />}
      {expanded && hasBody && (
        <div className="sess-tool-body">
          <ToolContentView sessionId={sessionId} content={item.content} running={item.status === 'in_progress' || item.status === 'pending'} />
          {item.rawInput && (
            <details className="sess-raw">
              <summary>Raw input</summary>
              <pre className="sess-tool-output selectable">{item.rawInput}</pre>
            </details>
          )}
          {item.rawOutput && (
            <details className="sess-raw">
              <summary>Raw output</summary>
              <pre className="sess-tool-output selectable">{item.rawOutput}</pre>
            </details>
          )}
        </div>
      )}
    </div>
  );
});
