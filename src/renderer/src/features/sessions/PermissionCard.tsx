import { memo, useState, type KeyboardEvent } from 'react';
import { ShieldQuestion } from 'lucide-react';
import type { PermissionItem, PermissionOption } from '../../../../shared/contract';
import { TOOL_KIND_LABEL } from './format';
import { Locations, ToolContentView } from './ToolContentView';

const OPTION_CLASS: Record<PermissionOption['kind'], string> = {
  allow_once: 'button primary',
  allow_always: 'button',
  reject_once: 'button danger-ghost',
  reject_always: 'button danger-ghost',
};

/**
 * A pending permission request, prominent: what the agent wants to do (tool title, kind, locations,
 * diff) and the agent's own options as buttons. Keyboard: 1–9 choose inside the card, Alt+1–9 from
 * anywhere in the session (see SessionView), Esc stops the turn (answers `cancelled`).
 */
export const PermissionCard = memo(function PermissionCard({
  sessionId,
  item,
  index,
  onAnswer,
  onAnswered,
  disabledReason = null,
}: {
  sessionId: string;
  item: PermissionItem;
  index: number;
  onAnswer(requestId: string, optionId: string): Promise<void>;
  /** After an answer from the card (click or 1–9): the view puts focus back where typing continues. */
  onAnswered?(): void;
  /** Why it cannot be answered here (another Atrium process runs the session): the options are disabled with it as tooltip. */
  disabledReason?: string | null;
}) {
  const [busy, setBusy] = useState(false);
  const answer = async (optionId: string) => {
    setBusy(true);
    try {
      await onAnswer(item.requestId, optionId);
    } finally {
      setBusy(false);
    }
    onAnswered?.();
  };
  // the diff names its file: a location that only repeats a diff's path is not listed again
  const diffPaths = new Set(item.content.flatMap((c) => (c.type === 'diff' ? [c.path] : [])));
  const locations = item.locations.filter((l) => !diffPaths.has(l.path) || l.line !== null);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.altKey || e.ctrlKey || e.metaKey || disabledReason) return;
    const n = Number(e.key);
    if (Number.isInteger(n) && n >= 1 && n <= item.options.length) {
      e.preventDefault();
      void answer(item.options[n - 1].optionId);
    }
  };
  return (
    <section className="sess-permission" aria-label={`Permission request: ${item.title}`} data-request-id={item.requestId} onKeyDown={onKeyDown}>
      <header className="sess-permission-head">
        <ShieldQuestion size={16} aria-hidden />
        <strong>The agent asks to {TOOL_KIND_LABEL[item.toolKind] === 'tool' ? 'use a tool' : TOOL_KIND_LABEL[item.toolKind]}:</strong>
        <span className="sess-permission-title">{item.title}</span>
      </header>
      <Locations locations={locations} />
      {item.content.length > 0 && (
        <div className="sess-permission-content">
          <ToolContentView sessionId={sessionId} content={item.content} running={false} />
        </div>
      )}
      {item.rawInput && (
        <details className="sess-raw">
          <summary>Raw input</summary>
          <pre className="sess-tool-output selectable">{item.rawInput}</pre>
        </details>
      )}
      <div className="sess-permission-options" role="group" aria-label="Answer">
        {item.options.map((o, i) => (
          <button key={o.optionId} className={OPTION_CLASS[o.kind]} disabled={busy || disabledReason !== null} title={disabledReason ?? undefined} onClick={() => void answer(o.optionId)} data-option-id={o.optionId} data-option-kind={o.kind}>
            <kbd aria-hidden>{i + 1}</kbd> {o.name}
          </button>
        ))}
        <span className="muted sess-permission-hint">
          {index === 0 ? <>Alt+1…{item.options.length} from the input · </> : null}
          <kbd>Esc</kbd> stops the turn
        </span>
      </div>
    </section>
  );
});
