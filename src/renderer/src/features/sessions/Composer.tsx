import { forwardRef, useImperativeHandle, useRef, useState, type KeyboardEvent } from 'react';
import { Send, Square } from 'lucide-react';
import type { AgentCommand } from '../../../../shared/contract';
import { matchCommands, SlashMenu } from './SlashMenu';

/** Focus handle of the composer. */
export interface ComposerHandle {
  focus(): void;
}

/**
 * The prompt input: Enter sends, Shift+Enter is a newline, "/" completes the agent's slash
 * commands (↑/↓, Tab or Enter to pick, Esc to close). While a turn runs, a sent prompt is queued.
 * Stop (Esc) cancels the running turn.
 */
export const Composer = forwardRef<ComposerHandle, { commands: AgentCommand[]; running: boolean; queued: number; onSend(text: string): Promise<boolean>; onStop(): void }>(function Composer(
  { commands, running, queued, onSend, onStop },
  ref,
) {
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  useImperativeHandle(ref, () => ({ focus: () => area.current?.focus() }), []);

  const matches = dismissed === text ? [] : matchCommands(commands, text);
  const menuOpen = matches.length > 0;
  const pick = (c: AgentCommand) => {
    setText(`/${c.name} `);
    setActive(0);
    area.current?.focus();
  };

  const send = async () => {
    const value = text.trim();
    if (!value || sending) return;
    setSending(true);
    try {
      if (await onSend(text)) setText('');
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.nativeEvent.isComposing) return;
    if (menuOpen) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : matches.length - 1)) % matches.length);
        return;
      }
      if (e.key === 'Tab' || (e.key === 'Enter' && !e.shiftKey)) {
        e.preventDefault();
        pick(matches[Math.min(active, matches.length - 1)]);
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        setDismissed(text);
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      void send();
    }
  };

  const placeholder = running ? 'Type to queue a prompt for after this turn…' : commands.length ? 'Message the agent — / for commands' : 'Message the agent';
  return (
    <div className="sess-composer">
      {menuOpen && <SlashMenu id="sess-slash" matches={matches} active={Math.min(active, matches.length - 1)} onPick={pick} />}
      <textarea
        ref={area}
        className="sess-textarea sess-input"
        aria-label="Prompt"
        rows={Math.min(8, Math.max(2, text.split('\n').length))}
        value={text}
        placeholder={placeholder}
        onChange={(e) => {
          setText(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        role="combobox"
        aria-expanded={menuOpen}
        aria-controls={menuOpen ? 'sess-slash' : undefined}
        aria-activedescendant={menuOpen ? `sess-slash-${Math.min(active, matches.length - 1)}` : undefined}
        aria-autocomplete="list"
      />
      <div className="sess-composer-actions">
        <span className="muted sess-composer-hint">
          <kbd>Enter</kbd> send · <kbd>Shift+Enter</kbd> newline{running ? ' · ' : ''}
          {running && (
            <>
              <kbd>Esc</kbd> stop
            </>
          )}
          {queued > 0 && ` · ${queued} queued`}
        </span>
        {running && (
          <button className="button danger-ghost" onClick={onStop} title="Stop the running turn (Esc)">
            <Square size={13} /> Stop
          </button>
        )}
        <button className="button primary" onClick={() => void send()} disabled={!text.trim() || sending}>
          <Send size={13} /> {running ? 'Queue' : 'Send'}
        </button>
      </div>
    </div>
  );
});
