import { useEffect } from 'react';
import { create } from 'zustand';
import type { HookListing } from '../../../../shared/contract';
import type { AtriumClient } from '../../api/client';
import { useApp } from '../../state/appStore';

interface Entry {
  data: HookListing | null;
  error: string | null;
}

/** Hook listings by workspace id, shared by the tab badge and the Hooks tab (one request per change, not one per component). */
const useListings = create<{ entries: Record<string, Entry> }>(() => ({ entries: {} }));
const inflight = new Map<string, { again: boolean }>();

function load(client: AtriumClient, workspaceId: string): void {
  const running = inflight.get(workspaceId);
  if (running) {
    running.again = true;
    return;
  }
  const state = { again: false };
  inflight.set(workspaceId, state);
  const set = (patch: Partial<Entry>) =>
    useListings.setState((s) => ({ entries: { ...s.entries, [workspaceId]: { data: s.entries[workspaceId]?.data ?? null, error: null, ...patch } } }));
  client
    .request('hooks.list', { workspaceId })
    .then((data) => set({ data, error: null }))
    .catch((e: Error) => set({ error: e.message }))
    .finally(() => {
      inflight.delete(workspaceId);
      if (state.again) load(client, workspaceId);
    });
}

/**
 * The hook listing of a workspace, kept current: reloaded when hooks change (approval, a file or
 * script changed on disk) or trust changes. Components using the same workspace share one request.
 */
export function useHooksListing(workspaceId: string | null): { data: HookListing | null; error: string | null; reload(): void } {
  const client = useApp((s) => s.client);
  const entry = useListings((s) => (workspaceId ? s.entries[workspaceId] : undefined));
  useEffect(() => {
    if (!client || !workspaceId) return;
    load(client, workspaceId);
    const offs = [
      client.on('hooksChanged', (p) => {
        if (p.reason !== 'run' && (!p.workspaceId || p.workspaceId === workspaceId)) load(client, workspaceId);
      }),
      client.on('trustChanged', () => load(client, workspaceId)),
    ];
    return () => offs.forEach((off) => off());
  }, [client, workspaceId]);
  return { data: entry?.data ?? null, error: entry?.error ?? null, reload: () => client && workspaceId && load(client, workspaceId) };
}
