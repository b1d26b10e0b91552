import { memo } from 'react';
import { ChevronRight } from 'lucide-react';
import type { TranscriptItem } from '../../../../shared/contract';
import { TOOL_KIND_LABEL, TOOL_STATUS_LABEL } from './format';
import { Locations, ToolContentView } from './ToolContentView';
import { useExpanded } from './useExpanded';

type ToolItem = Extract<TranscriptItem, { kind: 'tool_call' }>;

/** A tool call: kind, title, status, locations; expandable to its content (diffs, output, terminal) and raw input. */
export const ToolCallCard = memo(function ToolCallCard({ sessionId, item }: { sessionId: string; item: ToolItem }) {
  const hasDiff = item.content.some((c) => c.type === 'diff');
  const [open, setOpen] = useExpanded(`${sessionId}:${item.id}`);
  const expanded = open ?? (hasDiff || item.status === 'failed');
  const hasBody = item.content.length > 0 || item.rawInput !== null || item.rawOutput !== null;
  return (
    <div className={`sess-tool sess-tool-${item.status}`} data-tool-status={item.status} data-tool-kind={item.toolKind}>
      <button className="sess-tool-head" aria-expanded={hasBody ? expanded : undefined} onClick={() => hasBody && setOpen(!expanded)} disabled={!hasBody}>
        {hasBody ? <ChevronRight size={13} className={expanded ? 'rotated' : ''} aria-hidden /> : <span className="sess-chev-space" />}
        <span className={`sess-kind sess-kind-${item.toolKind}`}>{TOOL_KIND_LABEL[item.toolKind]}</span>
        <span className="sess-tool-title">{item.title || item.toolCallId}</span>
        <span className={`badge sess-tool-status sess-tool-status-${item.status}`}>{TOOL_STATUS_LABEL[item.status]}</span>
      </button>
      <Locations locations={item.locations} />
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
