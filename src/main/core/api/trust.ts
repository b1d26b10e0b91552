import type { AgentTrustNote } from '../../../shared/contract';
import type { Engine } from '../engine';
import type { AgentRegistry } from '../sessions/agentRegistry';
import { isolationFor } from '../sessions/workspacePolicy/agentIsolation';
import type { Handlers } from '../handlers';
import { importConfirm, importSuggestions } from '../trust/import';
import { readWorkspaceFile } from '../trust/review/readFile';
import { reviewFolder } from '../trust/review/review';
import { withUncovered } from '../trust/review/uncovered';
import { resolveTarget } from '../workspaces/target';

/** Per agent Atrium can launch: what trusting a folder lets it load by itself (its isolation's `whenTrusted`). */
export function agentTrustNotes(agents: AgentRegistry): AgentTrustNote[] {
  return agents.list().map((a) => {
    const iso = isolationFor(a.id, agents.knownAgent(a.id), agents.nameOf(a.id));
    return { agentId: a.id, name: iso.name, isolated: iso.isolated, whenTrusted: iso.whenTrusted };
  });
}

/** The `trust.*` requests of the contract (`src/shared/contract/trust.ts`). */
export type TrustHandlers = Pick<Handlers, Extract<keyof Handlers, `trust.${string}`>>;

/** Maps each `trust.*` request to the engine's TrustService, review and import. */
export function createTrustHandlers(engine: Engine): TrustHandlers {
  const { trust, workspaces } = engine;
  return {
    'trust.status': (target) => ({ status: trust.statusOf(resolveTarget(workspaces, target)) }),
    'trust.set': ({ state, parent, ...target }) => trust.set(resolveTarget(workspaces, target), state, { parent }),
    'trust.clear': ({ parent, ...target }) => trust.clear(resolveTarget(workspaces, target), { parent }),
    'trust.list': () => ({ decisions: trust.list() }),
    'trust.history': ({ limit, ...target }) => {
      const scoped = target.path !== undefined || target.workspaceId !== undefined;
      return { entries: trust.history({ trustRoot: scoped ? resolveTarget(workspaces, target).trustRoot : undefined, limit }) };
    },
    'trust.review': async (target) => {
      const folder = resolveTarget(workspaces, target);
      const status = trust.statusOf(folder);
      const review = await reviewFolder(folder.path, { trustRoot: status.trustRoot, state: status.state, homeDir: engine.homeDir });
      const agents = agentTrustNotes(engine.sessions.agents);
      try {
        // the same coverage the Hooks tab and `atrium hooks list` report, project items listed though held back
        const listing = await engine.hooks.list(target, { includeHeldBack: true });
        return { review: withUncovered(review, listing), agents };
      } catch (error) {
        const message = `what the digests of these hooks and MCP servers do not cover could not be worked out (${(error as Error).message}), so no item says so`;
        return { review: { ...review, warnings: [...review.warnings, { path: '', line: null, message, fix: 'Check them in the Hooks tab or with "atrium hooks list" before trusting.' }] }, agents };
      }
    },
    'trust.readFile': ({ workspaceId, path }) => readWorkspaceFile(workspaces.get(workspaceId).path, path),
    'trust.importSuggestions': ({ from }) => importSuggestions(trust, engine.homeDir, from),
    'trust.importConfirm': ({ decisions }) => importConfirm(trust, decisions),
  };
}
