import { useCallback, useEffect, useState } from 'react';
import type { AgentInstallProgress, AgentSummary, ParamsOf } from '../../../../shared/contract';
import { useApp } from '../../state/appStore';

/** Agents with their install state, live install progress, and the actions on them. */
export interface Agents {
  agents: AgentSummary[] | null;
  error: string | null;
  /** Latest progress per agent id while (or after) installing. */
  progress: Record<string, AgentInstallProgress>;
  install(id: string): Promise<AgentSummary | null>;
  define(params: ParamsOf<'agents.define'>): Promise<AgentSummary>;
  reload(): void;
}

/**
 * `agents.list` while `enabled`, with `agentInstallProgress` events applied as they arrive (the
 * final `done`/`failed` event carries the updated agent). `install` resolves with the installed
 * agent, or null when the install failed (the reason is in `progress[id].message` and the agent's
 * `install.error`).
 */
export function useAgents(enabled: boolean): Agents {
  const client = useApp((s) => s.client);
  const [agents, setAgents] = useState<AgentSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<Record<string, AgentInstallProgress>>({});

  const replace = useCallback((agent: AgentSummary) => {
    setAgents((list) => (list ? (list.some((a) => a.id === agent.id) ? list.map((a) => (a.id === agent.id ? agent : a)) : [...list, agent]) : list));
  }, []);

  const reload = useCallback(() => {
    if (!client || !enabled) return;
    client
      .request('agents.list', {})
      .then((r) => {
        setAgents(r.agents);
        setError(null);
      })
      .catch((e: Error) => setError(e.message));
  }, [client, enabled]);

  useEffect(() => reload(), [reload]);

  useEffect(() => {
    if (!client || !enabled) return;
    return client.on('agentInstallProgress', (p) => {
      setProgress((all) => ({ ...all, [p.agentId]: p }));
      if (p.agent) replace(p.agent);
      else if (p.phase === 'started') setAgents((list) => list?.map((a) => (a.id === p.agentId ? { ...a, install: { ...a.install, state: 'installing', error: null } } : a)) ?? list);
    });
  }, [client, enabled, replace]);

  const install = useCallback(
    async (id: string) => {
      if (!client) return null;
      setAgents((list) => list?.map((a) => (a.id === id ? { ...a, install: { ...a.install, state: 'installing', error: null } } : a)) ?? list);
      try {
        const { agent } = await client.request('agents.install', { id });
        replace(agent);
        return agent;
      } catch (e) {
        // the failed progress event carries the agent; reload in case it was missed
        reload();
        setProgress((all) => ({ ...all, [id]: { ...(all[id] ?? { agentId: id, version: '', fetched: 0, elapsedMs: 0, agent: null }), phase: 'failed', message: (e as Error).message } }));
        return null;
      }
    },
    [client, reload, replace],
  );

  const define = useCallback(
    async (params: ParamsOf<'agents.define'>) => {
      if (!client) throw new Error('Not connected to Atrium.');
      const { agent } = await client.request('agents.define', params);
      replace(agent);
      return agent;
    },
    [client, replace],
  );

  return { agents, error, progress, install, define, reload };
}
