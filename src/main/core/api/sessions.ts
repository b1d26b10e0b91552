import type { Engine } from '../engine';
import type { Handlers } from '../handlers';
import { permissionGrants } from '../sessions/grants';
import { behaviourOf, isolationFor } from '../sessions/workspacePolicy/agentIsolation';
import { sessionCommandsOf } from '../sessions/workspacePolicy/sessionCommands';

/** The `agents.*` and `sessions.*` requests of the contract (`src/shared/contract/sessions.ts`). */
export type SessionHandlers = Pick<Handlers, Extract<keyof Handlers, `agents.${string}` | `sessions.${string}`>>;

/** Maps each `agents.*` / `sessions.*` request to the engine's SessionService. */
export function createSessionHandlers(engine: Engine): SessionHandlers {
  const { sessions, policy } = engine;
  const { agents } = sessions;
  const commands = sessionCommandsOf(engine);
  return {
    'agents.list': () => ({ agents: agents.list() }),
    'agents.install': async ({ id }) => ({ agent: await agents.install(id) }),
    'agents.define': (p) => ({ agent: agents.define(p) }),
    'agents.remove': ({ id }) => ({ removed: agents.remove(id) }),
    'agents.setEnv': ({ id, env }) => ({ agent: agents.setEnv(id, env) }),
    'sessions.new': (p) => ({ session: sessions.create(p) }),
    'sessions.prompt': ({ sessionId, text, surfaceId }) => sessions.prompt(sessionId, text, surfaceId),
    'sessions.cancel': ({ sessionId, clearQueue }) => ({ session: sessions.cancel(sessionId, clearQueue ?? false) }),
    'sessions.dequeue': ({ sessionId, promptId }) => sessions.dequeue(sessionId, promptId),
    'sessions.close': async ({ sessionId }) => ({ session: await sessions.closeSession(sessionId) }),
    'sessions.resume': async ({ sessionId }) => ({ session: await sessions.resume(sessionId) }),
    'sessions.list': (filter) => ({ sessions: sessions.list(filter) }),
    'sessions.show': ({ sessionId }) => ({ session: sessions.show(sessionId) }),
    'sessions.permissionsGranted': (filter) => ({ grants: permissionGrants(engine.store, filter) }),
    'sessions.transcript': ({ sessionId, ...page }) => sessions.transcript(sessionId, page),
    'sessions.searchTranscript': ({ sessionId, query, limit }) => sessions.searchTranscript(sessionId, query, limit),
    'sessions.answerPermission': ({ sessionId, requestId, optionId, byPolicy, noOneToAsk }) => ({
      permission: sessions.answerPermission(sessionId, requestId, optionId ?? null, byPolicy ? 'policy' : noOneToAsk && optionId === undefined ? 'nobody' : 'user'),
    }),
    'sessions.rename': ({ sessionId, title }) => ({ session: sessions.rename(sessionId, title) }),
    'sessions.setMode': async ({ sessionId, modeId }) => ({ session: await sessions.setMode(sessionId, modeId) }),
    'sessions.setConfigOption': async ({ sessionId, configId, value }) => ({ session: await sessions.setConfigOption(sessionId, configId, value) }),
    'sessions.terminalOutput': ({ sessionId, terminalId }) => sessions.terminalOutput(sessionId, terminalId),
    'sessions.agentSessions': (p) => sessions.agentSessions(p),
    'sessions.adopt': async (p) => ({ session: await sessions.adopt(p) }),
    // sessions that obey the workspace: snapshots, rule mismatches, handover
    'sessions.policy': ({ sessionId }) => ({ policy: policy.view(sessionId) }),
    'sessions.resolveRuleMismatch': async ({ sessionId, action, keepPrevious }) => ({ session: await policy.resolveMismatch(sessionId, action, { keepPrevious }) }),
    'sessions.execution': ({ sessionId }) => ({ execution: policy.execution(sessionId) }),
    'sessions.archive': ({ sessionId, removeWorktree, discardChanges }) => policy.archive(sessionId, { removeWorktree, discardChanges }),
    // handover rules key on the connection the transport vouches for (and the page's secret key), never on ids anyone can read
    'sessions.handover': ({ sessionId, surfaceKey }, { caller }) => policy.issueHandover(sessionId, { connection: caller, key: surfaceKey ?? null }),
    'sessions.pickup': ({ code, clientId, kind, label, surfaceKey }, { caller }) => policy.pickup(code, clientId, kind, label, { connection: caller, key: surfaceKey ?? null }),
    'sessions.attach': ({ sessionId, surfaceId, kind, label, code, surfaceKey }, { caller }) => policy.attach(sessionId, { surfaceId, kind, label }, { connection: caller, key: surfaceKey ?? null }, code),
    'sessions.detach': ({ sessionId, surfaceId, surfaceKey }, { caller }) => policy.detach(sessionId, surfaceId, { connection: caller, key: surfaceKey ?? null }),
    'sessions.takeOverPermission': ({ sessionId, requestId, surfaceId, surfaceKey }, { caller }) => ({ permission: policy.takeOverPermission(sessionId, requestId, surfaceId, { connection: caller, key: surfaceKey ?? null }) }),
    'sessions.agentBehaviour': ({ agentId }) => {
      agents.get(agentId); // AGENT_NOT_FOUND for unknown ids
      return { behaviour: behaviourOf(isolationFor(agentId, agents.knownAgent(agentId), agents.nameOf(agentId))) };
    },
    'sessions.settings': () => ({ idleMinutes: policy.idleMinutes() }),
    'sessions.setSettings': ({ idleMinutes }) => {
      if (idleMinutes !== undefined) policy.setIdleMinutes(idleMinutes);
      return { idleMinutes: policy.idleMinutes() };
    },
    // the workspace's commands and skills, from the session's snapshot
    'sessions.commands': ({ sessionId }) => commands.list(sessionId),
    'sessions.commandPreview': ({ sessionId, name, argumentText }) => commands.preview(sessionId, { name, argumentText }),
    'sessions.runCommandEmbeds': ({ sessionId, confirmToken }) => commands.runEmbeds(sessionId, confirmToken),
    'sessions.sendCommand': ({ sessionId, name, argumentText, sendToken, surfaceId }) => commands.send(sessionId, { name, argumentText, sendToken, surfaceId }),
  };
}
