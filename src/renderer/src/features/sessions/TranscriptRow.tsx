import { memo } from 'react';
import { RESUME_OUTCOME_WORDS, resumeOutcomeLabel } from '../../components/jargon';
import { AlertTriangle, Brain, ChevronRight, Circle, CircleCheck, CircleDot, Info, OctagonAlert, ShieldCheck, ShieldQuestion, ShieldX } from 'lucide-react';
import type { ContentSummary, TranscriptItem } from '../../../../shared/contract';
import { STOP_LABEL } from './format';
import { MessageMarkdown } from './Markdown';
import { ToolCallCard, type ToolPermission } from './ToolCallCard';
import { useExpanded } from './useExpanded';

type Of<K extends TranscriptItem['kind']> = Extract<TranscriptItem, { kind: K }>;
type MessageItem = Extract<TranscriptItem, { kind: 'agent_message' | 'agent_thought' }>;

/** One transcript item, by kind. Memoized: a streaming delta re-renders only the items it changed. */
export const TranscriptRow = memo(function TranscriptRow({ sessionId, item, permission = null }: { sessionId: string; item: TranscriptItem; permission?: ToolPermission }) {
  switch (item.kind) {
    case 'user_message':
      return <UserMessage item={item} />;
    case 'agent_message':
    case 'agent_thought':
      if (item.kind === 'agent_thought') return <Thought sessionId={sessionId} item={item} />;
      return (
        <div className={`sess-agent-msg${item.continued ? ' continued' : ''}`}>
          <MessageMarkdown text={item.text} />
          <Blocks blocks={item.blocks} />
        </div>
      );
    case 'tool_call':
      return <ToolCallCard sessionId={sessionId} item={item} permission={permission} />;
    case 'plan':
      return <Plan item={item} />;
    case 'permission':
      return <PermissionLine item={item} />;
    case 'notice':
      return <Notice sessionId={sessionId} item={item} />;
    case 'stop':
      return <Stop item={item} />;
  }
});

function UserMessage({ item }: { item: Of<'user_message'> }) {
  return (
    <div className={`sess-user-msg sess-user-${item.status}`} data-status={item.status}>
      <div className="sess-user-label">
        You
        {item.status === 'queued' && <span className="badge badge-muted">queued</span>}
        {item.status === 'dropped' && (
          <span className="badge badge-warn" title="Removed from the queue, or the agent stopped before it ran">
            not sent
          </span>
        )}
        {item.status === 'replayed' && (
          <span className="badge badge-muted" title="Imported from the agent's own history">
            from agent history
          </span>
        )}
      </div>
      {/* your prompt exactly as typed: line breaks kept, no Markdown reflow (trial: lines were joined) */}
      <div className="sess-user-text">{item.text}</div>
      <Blocks blocks={item.blocks} />
    </div>
  );
}

function Blocks({ blocks }: { blocks: ContentSummary[] }) {
  if (!blocks.length) return null;
  return (
    <ul className="sess-blocks">
      {blocks.map((b, i) => (
        <li key={i} className="muted">
          [{b.type}
          {b.mimeType ? ` ${b.mimeType}` : ''}
          {b.name ? ` ${b.name}` : b.uri ? ` ${b.uri}` : ''}]
        </li>
      ))}
    </ul>
  );
}

function Thought({ sessionId, item }: { sessionId: string; item: MessageItem }) {
  const [open, setOpen] = useExpanded(`${sessionId}:${item.id}`);
  const expanded = open ?? false;
  const preview = item.text.trim().split('\n')[0].slice(0, 160);
  return (
    <div className="sess-thought">
      <button className="sess-thought-head" aria-expanded={expanded} onClick={() => setOpen(!expanded)}>
        <ChevronRight size={13} className={expanded ? 'rotated' : ''} aria-hidden />
        <Brain size={13} aria-hidden />
        <span className="sess-thought-label">Thought</span>
        {!expanded && <span className="sess-thought-preview">{preview}</span>}
      </button>
      {expanded && (
        <div className="sess-thought-body">
          <MessageMarkdown text={item.text} />
        </div>
      )}
    </div>
  );
}

function Plan({ item }: { item: Of<'plan'> }) {
  const done = item.entries.filter((e) => e.status === 'completed').length;
  return (
    <div className="sess-plan">
      <div className="sess-plan-head">
        Plan <span className="muted">{`${done}/${item.entries.length} done`}</span>
      </div>
      <ul className="sess-plan-list" aria-label="Plan">
        {item.entries.map((e, i) => (
          <li key={i} className={`sess-plan-entry sess-plan-${e.status}`} data-plan-status={e.status}>
            {e.status === 'completed' ? <CircleCheck size={14} aria-hidden /> : e.status === 'in_progress' ? <CircleDot size={14} aria-hidden /> : <Circle size={14} aria-hidden />}
            {/* a list of items (a read-only checkbox role inside <ul> is invalid ARIA); the state is read out as words */}
            <span className="sr-only">{e.status === 'completed' ? 'done: ' : e.status === 'in_progress' ? '' : 'to do: '}</span>
            <span className="sess-plan-text">{e.content}</span>
            {e.priority === 'high' && <span className="badge badge-warn">high</span>}
            {e.status === 'in_progress' && <span className="muted sess-plan-now">in progress</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}

function PermissionLine({ item }: { item: Of<'permission'> }) {
  const chosen = item.options.find((o) => o.optionId === item.optionId);
  const allowed = chosen?.kind.startsWith('allow');
  const by = item.answeredBy === 'hook' ? ' (by a hook)' : item.answeredBy === 'policy' ? " (by a terminal's --on-permission policy)" : item.answeredBy === 'cancel' ? ' (turn stopped)' : item.answeredBy === 'shutdown' ? ' (agent stopped)' : item.answeredBy === 'nobody' ? ' (no one could answer: the terminal had no input)' : '';
  return (
    <div className={`sess-perm-line sess-perm-${item.state}`} data-permission-state={item.state}>
      {item.state === 'pending' ? <ShieldQuestion size={14} aria-hidden /> : allowed ? <ShieldCheck size={14} aria-hidden /> : <ShieldX size={14} aria-hidden />}
      <span>
        Permission for <strong>{item.title}</strong>:{' '}
        {/* the one "waiting" line is the footer's (it says where to answer) */}
        {item.state === 'pending' ? <em>asked</em> : item.state === 'cancelled' ? `cancelled${by}` : `${chosen?.name ?? item.optionId}${by}`}
      </span>
    </div>
  );
}

function Notice({ sessionId, item }: { sessionId: string; item: Of<'notice'> }) {
  const [open, setOpen] = useExpanded(`${sessionId}:${item.id}`);
  const Icon = item.severity === 'error' ? OctagonAlert : item.severity === 'warning' ? AlertTriangle : Info;
  const expanded = open ?? false;
  return (
    <div className={`sess-notice sess-notice-${item.severity}`} role={item.severity === 'error' ? 'alert' : 'note'} data-notice-code={item.code} data-outcome={item.outcome ?? undefined}>
      <div className="sess-notice-head">
        <Icon size={14} aria-hidden />
        {item.outcome && (
          <span className="badge sess-outcome" title={RESUME_OUTCOME_WORDS[item.outcome]}>
            {resumeOutcomeLabel(item.outcome)}
          </span>
        )}
        <span className="sess-notice-title">{item.title}</span>
        {item.detail && (
          <button className="link-button" aria-expanded={expanded} onClick={() => setOpen(!expanded)}>
            {expanded ? 'Hide details' : item.code === 'agent_exit' || item.code === 'start_failed' ? 'Show stderr' : 'Details'}
          </button>
        )}
      </div>
      {expanded && item.detail && <pre className="sess-notice-detail selectable">{item.detail}</pre>}
    </div>
  );
}

function Stop({ item }: { item: Of<'stop'> }) {
  const quiet = item.stopReason === 'end_turn';
  return (
    <div className={`sess-stop${quiet ? '' : ' sess-stop-loud'}`} data-stop-reason={item.stopReason}>
      <span>
        {STOP_LABEL[item.stopReason]}
        {item.error && <span className="sess-stop-error">: {item.error}</span>}
      </span>
    </div>
  );
}
