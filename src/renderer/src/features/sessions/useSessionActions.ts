import { useMemo } from 'react';
import { errorToast } from '../../components/errorToast';
import { toast } from 'sonner';
import { RequestError } from '../../api/client';
import { useApp } from '../../state/appStore';
import { surfaceFor } from './surface';

/** The session view's actions over the contract; failures become toasts that say what to do next. */
export interface SessionActions {
  send(text: string): Promise<boolean>;
  stop(clearQueue?: boolean): Promise<void>;
  dequeue(promptId: string): Promise<void>;
  answer(requestId: string, optionId: string): Promise<void>;
  resume(): Promise<void>;
  close(): Promise<void>;
  setMode(modeId: string): Promise<void>;
  setConfig(configId: string, value: string | boolean): Promise<void>;
  /** Sets the user's title (empty clears it); true when saved. */
  rename(title: string): Promise<boolean>;
}

/** What to do when another Atrium process (a terminal, atrium serve, the desktop app) runs the session. */
export const HOSTED_ELSEWHERE_HINT = 'Only the process that runs a session may change it. Continue it there, or try again here once it has finished there.';

/** Builds the actions for one session. */
export function useSessionActions(sessionId: string): SessionActions {
  const client = useApp((s) => s.client);
  return useMemo(() => {
    const run = async <T,>(what: string, fn: () => Promise<T>, next?: string): Promise<T | null> => {
      if (!client) return null;
      try {
        return await fn();
      } catch (e) {
        // another Atrium process runs this session: its message says where; the generic hint would mislead
        if (e instanceof RequestError && e.code === 'SESSION_HOSTED_ELSEWHERE') errorToast(`${what}: ${e.message}`, { description: HOSTED_ELSEWHERE_HINT });
        else errorToast(`${what}: ${(e as Error).message}`, next ? { description: next } : undefined);
        return null;
      }
    };
    return {
      async send(text) {
        try {
          await client!.request('sessions.prompt', { sessionId, text, surfaceId: surfaceFor(sessionId) });
          return true;
        } catch (e) {
          // paused on changed rules: nothing is broken, the card above says how to go on (Diagnostics would not help)
          if (e instanceof RequestError && e.code === 'SESSION_PAUSED') {
            toast('Not sent: this session is paused', { description: 'Its rules changed. Choose above: continue with the current rules, or start a new session. Your text is still in the input.' });
            return false;
          }
          return (await run('Could not send the prompt', () => Promise.reject(e), 'Your text is still in the input. Check the session state above, or open Diagnostics.')) !== null;
        }
      },
      async stop(clearQueue = false) {
        await run('Could not stop the turn', () => client!.request('sessions.cancel', { sessionId, clearQueue }), 'Close the session to kill the agent process.');
      },
      async dequeue(promptId) {
        const r = await run('Could not remove the queued prompt', () => client!.request('sessions.dequeue', { sessionId, promptId }));
        if (r && !r.removed) toast('That prompt already started (or was dropped), so it is no longer queued.');
      },
      async answer(requestId, optionId) {
        await run('Could not answer the permission request', () => client!.request('sessions.answerPermission', { sessionId, requestId, optionId }), 'The request may have been withdrawn or the turn stopped; the transcript shows its state.');
      },
      async resume() {
        const r = await run('Could not resume', () => client!.request('sessions.resume', { sessionId }), 'Open Diagnostics for the agent’s stderr.');
        if (r?.session.state === 'failed') errorToast('The agent could not be resumed', { description: `${r.session.lastError ?? 'See the notice in the transcript.'} Open Diagnostics for its stderr.` });
      },
      async close() {
        await run('Could not close the session', () => client!.request('sessions.close', { sessionId }));
      },
      async setMode(modeId) {
        await run('Could not switch mode', () => client!.request('sessions.setMode', { sessionId, modeId }));
      },
      async setConfig(configId, value) {
        await run('Could not change the option', () => client!.request('sessions.setConfigOption', { sessionId, configId, value }));
      },
      async rename(title) {
        return (await run('Could not rename the session', () => client!.request('sessions.rename', { sessionId, title }))) !== null;
      },
    };
  }, [client, sessionId]);
}
