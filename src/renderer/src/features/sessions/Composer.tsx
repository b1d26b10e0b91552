import { forwardRef, useImperativeHandle, useRef, useState, type KeyboardEvent } from 'react';
import { Send, Square } from 'lucide-react';
import type { AgentCommand } from '../../../../shared/contract';
import { clashingNames, matchSlash, slashText, SlashMenu, type SlashItem } from './SlashMenu';
import { SlashPreview } from './SlashPreview';
import { useSlashCommand } from './useSlashCommand';
import './slashCommands.css';

/** Focus handle of the composer. */
export interface ComposerHandle {
  focus(): void;
}

/**
 * The prompt input: Enter sends, Shift+Enter is a newline, "/" opens the command menu with the
 * agent's own commands and the workspace's commands and skills in two groups (↑/↓, Tab or Enter to
 * pick, Esc to close). Picking a workspace command shows an inline preview of the expanded prompt
 * (from the session's snapshot) that follows the typed arguments; Enter sends that expansion (the
 * transcript records `/name`), Esc closes the preview. While a turn runs, a sent prompt is queued.
 * Stop (Esc) cancels the running turn.
 */
export const Composer = forwardRef<
  ComposerHandle,
  {
    sessionId: string;
    commands: AgentCommand[];
    running: boolean;
    queued: number;
    onSend(text: string): Promise<boolean>;
    onStop(): void;
    /** Why this window cannot drive the session (another Atrium process runs it): input, Send and Stop are disabled with it as tooltip. */
    disabledReason?: string | null;
  }
>(function Composer(
  { sessionId, commands, running, queued, onSend, onStop, disabledReason = null },
  ref,
) {
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  /** The text a menu pick just wrote (it ends with a space), until the next edit. */
  const [picked, setPicked] = useState<string | null>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  useImperativeHandle(ref, () => ({ focus: () => area.current?.focus() }), []);
  const slash = useSlashCommand(sessionId, commands, text);

  const matches = dismissed === text ? [] : matchSlash(commands, slash.workspace, text);
  const menuOpen = matches.length > 0;
  const activeIndex = Math.min(active, matches.length - 1);
  const clashes = clashingNames(commands, slash.workspace);
  const pick = (item: SlashItem) => {
    slash.choose(item.group === 'workspace' ? item.command : null);
    const next = slashText(item);
    setText(next);
    setPicked(next);
    setActive(0);
    area.current?.focus();
  };
  const edit = (value: string) => {
    setPicked(null);
    setActive(0);
    // the pick already wrote the space after the name: a space typed next is not a second one ("/review  42")
    if (picked !== null && value === `${picked} `) return;
    setText(value);
  };
  const agentName = /^\/(\S+)(\s|$)/.exec(text)?.[1] ?? null;
  /** An agent command the input invokes that the workspace also has: the hint says which one Enter sends. */
  const agentClash = !slash.open && agentName !== null && clashes.has(agentName) && commands.some((c) => c.name === agentName) ? agentName : null;

  const send = async () => {
    if (sending || disabledReason) return;
    if (slash.open) {
      if (!slash.preview) return; // still expanding (or refused: the preview says why)
    } else if (!text.trim()) return;
    setSending(true);
    try {
      if (await (slash.open ? slash.send() : onSend(text))) setText('');
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.nativeEvent.isComposing) return;
    if (menuOpen) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        setActive((a) => (Math.min(a, matches.length - 1) + (e.key === 'ArrowDown' ? 1 : matches.length - 1)) % matches.length);
        return;
      }
      if (e.key === 'Tab' || (e.key === 'Enter' && !e.shiftKey)) {
        e.preventDefault();
        pick(matches[activeIndex]);
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        setDismissed(text);
        return;
      }
    }
    if (slash.open && e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      slash.dismiss();
      return;
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      void send();
    }
  };

  const placeholder = disabledReason ? 'Driven from another Atrium process' : running ? 'Type to queue a prompt for after this turn…' : commands.length || slash.workspace.length ? 'Message the agent — / for commands' : 'Message the agent';
  return (
    <div className="sess-composer">
      {menuOpen && <SlashMenu id="sess-slash" items={matches} active={activeIndex} inactive={slash.inactive} clashes={clashes} onPick={pick} />}
      {!menuOpen && slash.open && (
        <SlashPreview
          preview={slash.preview}
          run={slash.run}
          error={slash.error}
          running={slash.running}
          clashSource={slash.invocation && clashes.has(slash.invocation.command.invoke) ? slash.invocation.command.source : null}
          onRun={() => void slash.runEmbeds()}
        />
      )}
      <textarea
        ref={area}
        className="sess-textarea sess-input"
        aria-label="Prompt"
        rows={Math.min(8, Math.max(2, text.split('\n').length))}
        value={text}
        placeholder={placeholder}
        disabled={disabledReason !== null}
        title={disabledReason ?? undefined}
        onChange={(e) => edit(e.target.value)}
        onKeyDown={onKeyDown}
        role="combobox"
        aria-expanded={menuOpen}
        aria-controls={menuOpen ? 'sess-slash' : undefined}
        aria-activedescendant={menuOpen ? `sess-slash-${activeIndex}` : undefined}
        aria-autocomplete="list"
      />
      <div className="sess-composer-actions">
        <span className="muted sess-composer-hint">
          {disabledReason ? (
            'Read-only here: prompts, Stop and answers go to the process that runs this session'
          ) : slash.open && slash.invocation ? (
            <>
              <kbd>Enter</kbd> sends the expansion of /{slash.invocation.command.invoke}
              {slash.invocation.command.argumentHint ? ` (${slash.invocation.command.argumentHint})` : ''} · <kbd>Esc</kbd> closes the preview
            </>
          ) : agentClash ? (
            <>
              <kbd>Enter</kbd> sends /{agentClash} to the agent (its own command; the workspace&apos;s /{agentClash} is in the menu&apos;s second group)
            </>
          ) : (
            <>
              <kbd>Enter</kbd> send · <kbd>Shift+Enter</kbd> newline
            </>
          )}
          {running && !slash.open && !disabledReason && (
            <>
              {' · '}
              <kbd>Esc</kbd> stop
            </>
          )}
          {queued > 0 && ` · ${queued} queued`}
        </span>
        {running && (
          <button className="button danger-ghost" onClick={onStop} disabled={disabledReason !== null} title={disabledReason ?? 'Stop the running turn (Esc)'}>
            <Square size={13} /> Stop
          </button>
        )}
        <button className="button primary" onClick={() => void send()} disabled={(slash.open ? !slash.preview : !text.trim()) || sending || disabledReason !== null} title={disabledReason ?? undefined}>
          <Send size={13} /> {running ? 'Queue' : 'Send'}
        </button>
      </div>
    </div>
  );
});
