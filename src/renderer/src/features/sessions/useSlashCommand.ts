import { useEffect, useRef, useState } from 'react';
import { errorToast } from '../../components/errorToast';
import type { AgentCommand, SessionCommand, SessionCommandPreview, SessionCommandRun } from '../../../../shared/contract';
import { useLive } from '../../api/useLive';
import { useApp } from '../../state/appStore';
import { surfaceFor } from './surface';

/** Wait after the last keystroke before expanding again (ms). */
const PREVIEW_DELAY_MS = 120;

/** The workspace command the input invokes and its arguments, or null. */
export interface Invocation {
  command: SessionCommand;
  argumentText: string;
}

/** State and actions of the workspace command the input invokes (see {@link useSlashCommand}). */
export interface SlashCommandState {
  /** The session's workspace commands and skills (from its snapshot). */
  workspace: SessionCommand[];
  /** Project commands and skills inactive in restricted mode. */
  inactive: number;
  invocation: Invocation | null;
  /** True while the inline preview is shown (an invocation the user did not dismiss). */
  open: boolean;
  /** The preview of exactly the current input, or null while it is being made. */
  preview: SessionCommandPreview | null;
  run: SessionCommandRun | null;
  error: string | null;
  running: boolean;
  /** Remembers a pick from the menu's workspace group (it wins over an agent command of the same name). */
  choose(command: SessionCommand | null): void;
  /** Closes the preview for the current input (Esc); Enter then sends the typed text as is. */
  dismiss(): void;
  /** Runs the previewed shell embeds (the user's explicit confirmation). */
  runEmbeds(): Promise<void>;
  /** Sends the expansion as the prompt; true when it was queued. */
  send(): Promise<boolean>;
}

/** `/name args`: the name and the arguments (trimmed), or null when the input is not an invocation yet. */
function parseInvocation(text: string): { name: string; argumentText: string } | null {
  const m = /^\/(\S+)\s([\s\S]*)$/.exec(text);
  return m ? { name: m[1], argumentText: m[2].trim() } : null;
}

/**
 * The workspace command or skill the composer's text invokes (`/name args`), with its live
 * preview from the session's snapshot (sessions.commandPreview), the confirmed run of its shell
 * embeds and the send (sessions.sendCommand, which records `/name` in the transcript). A name that
 * is also one of the agent's own commands goes to the agent unless it was picked from the
 * workspace group of the menu.
 */
export function useSlashCommand(sessionId: string, agentCommands: readonly AgentCommand[], text: string): SlashCommandState {
  const client = useApp((s) => s.client);
  const list = useLive('sessions.commands', { sessionId }, ['sessionPolicyChanged', 'extensionsChanged']);
  const workspace = list.data?.commands ?? [];
  const [chosen, setChosen] = useState<SessionCommand | null>(null);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [preview, setPreview] = useState<{ key: string; value: SessionCommandPreview } | null>(null);
  const [run, setRun] = useState<{ key: string; value: SessionCommandRun } | null>(null);
  const [error, setError] = useState<{ key: string; message: string } | null>(null);
  const [running, setRunning] = useState(false);
  const [nonce, setNonce] = useState(0);
  const seq = useRef(0);

  const parsed = parseInvocation(text);
  let command: SessionCommand | null = null;
  if (parsed) {
    const name = parsed.name;
    if (chosen && (chosen.invoke === name || chosen.id === name)) command = chosen;
    else if (!agentCommands.some((a) => a.name === name)) command = workspace.find((c) => c.invoke === name) ?? workspace.find((c) => c.id === name) ?? null;
  }
  const invocation = command && parsed ? { command, argumentText: parsed.argumentText } : null;
  const key = invocation ? `${invocation.command.kind}:${invocation.command.id}\n${invocation.argumentText}` : null;
  const open = invocation !== null && dismissed !== text;

  useEffect(() => {
    if (!open || !client || key === null || !invocation) return;
    const mine = ++seq.current;
    const { command: c, argumentText } = invocation;
    const timer = setTimeout(() => {
      client
        .request('sessions.commandPreview', { sessionId, name: c.id, argumentText })
        .then((value) => {
          if (mine !== seq.current) return;
          setPreview({ key, value });
          setError(null);
        })
        .catch((e: Error) => mine === seq.current && setError({ key, message: e.message }));
    }, PREVIEW_DELAY_MS);
    return () => clearTimeout(timer);
    // `invocation` is derived from `key` (a new object every render); its digest refreshes after a snapshot change
  }, [open, client, sessionId, key, nonce, invocation?.command.sha256]);

  const currentRun = run && run.key === key ? run.value : null;
  return {
    workspace,
    inactive: list.data?.inactive ?? 0,
    invocation,
    open,
    preview: preview && preview.key === key ? preview.value : null,
    run: currentRun,
    error: error && error.key === key ? error.message : null,
    running,
    choose: setChosen,
    dismiss: () => setDismissed(text),
    async runEmbeds() {
      const token = preview?.key === key ? preview.value.confirmToken : null;
      if (!client || !token || key === null) return;
      setRunning(true);
      try {
        setRun({ key, value: await client.request('sessions.runCommandEmbeds', { sessionId, confirmToken: token }) });
        setError(null);
      } catch (e) {
        setError({ key, message: (e as Error).message });
        setNonce((n) => n + 1); // the token is spent: a fresh preview brings a new one
      } finally {
        setRunning(false);
      }
    },
    async send() {
      if (!client || !invocation) return false;
      try {
        await client.request('sessions.sendCommand', {
          sessionId,
          name: invocation.command.id,
          argumentText: invocation.argumentText,
          sendToken: currentRun?.sendToken,
          surfaceId: surfaceFor(sessionId),
        });
        setChosen(null);
        setRun(null);
        return true;
      } catch (e) {
        errorToast(`Could not send /${invocation.command.invoke}: ${(e as Error).message}`, { description: 'Your text is still in the input.' });
        setNonce((n) => n + 1);
        return false;
      }
    },
  };
}
