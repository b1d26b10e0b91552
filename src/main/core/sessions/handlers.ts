import type { Engine } from '../engine';
import type { Handlers } from '../handlers';

/** The `agents.*` and `sessions.*` requests of the contract (`src/shared/contract/sessions.ts`). */
export type SessionHandlers = Pick<Handlers, Extract<keyof Handlers, `agents.${string}` | `sessions.${string}`>>;

/** Maps each `agents.*` / `sessions.*` request to the engine's SessionService. */
export function createSessionHandlers(engine: Engine): SessionHandlers {
  const { sessions } = engine;
  const { agents } = sessions;
  return {
    'agents.list': () => ({ agents: agents.list() }),
    'agents.install': async ({ id }) => ({ agent: await agents.install(id) }),
    'agents.define': (p) => ({ agent: agents.define(p) }),
    'agents.remove': ({ id }) => ({ removed: agents.remove(id) }),
    'agents.setEnv': ({ id, env }) => ({ agent: agents.setEnv(id, env) }),
    'sessions.new': (p) => ({ session: sessions.create(p) }),
    'sessions.prompt': ({ sessionId, text }) => sessions.prompt(sessionId, text),
    'sessions.cancel': ({ sessionId, clearQueue }) => ({ session: sessions.cancel(sessionId, clearQueue ?? false) }),
    'sessions.dequeue': ({ sessionId, promptId }) => sessions.dequeue(sessionId, promptId),
    'sessions.close': async ({ sessionId }) => ({ session: await sessions.closeSession(sessionId) }),
    'sessions.resume': async ({ sessionId }) => ({ session: await sessions.resume(sessionId) }),
    'sessions.list': (filter) => ({ sessions: sessions.list(filter) }),
    'sessions.show': ({ sessionId }) => ({ session: sessions.show(sessionId) }),
    'sessions.transcript': ({ sessionId, ...page }) => sessions.transcript(sessionId, page),
    'sessions.answerPermission': ({ sessionId, requestId, optionId }) => ({ permission: sessions.answerPermission(sessionId, requestId, optionId ?? null) }),
    'sessions.setMode': async ({ sessionId, modeId }) => ({ session: await sessions.setMode(sessionId, modeId) }),
    'sessions.setConfigOption': async ({ sessionId, configId, value }) => ({ session: await sessions.setConfigOption(sessionId, configId, value) }),
    'sessions.terminalOutput': ({ sessionId, terminalId }) => sessions.terminalOutput(sessionId, terminalId),
    'sessions.agentSessions': (p) => sessions.agentSessions(p),
    'sessions.adopt': async (p) => ({ session: await sessions.adopt(p) }),
  };
}
