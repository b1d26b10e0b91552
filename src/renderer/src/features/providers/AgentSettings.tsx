import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import type { AgentSetting, AgentSummary, Provider, RepositoryEndpoint, Workspace } from '../../../../shared/contract';
import { useLive } from '../../api/useLive';
import { useApp } from '../../state/appStore';
import './providers.css';

/**
 * A workspace's Agent settings: per agent, the provider and default model new sessions use (a
 * running session keeps what it started with), the workspace's overrides of provider URLs, and the
 * model endpoints the repository itself supplies, each approved or withheld by digest.
 */
export function AgentSettings({ workspace }: { workspace: Workspace }) {
  const settings = useLive('providers.agentSettings', { workspaceId: workspace.id }, ['providersChanged', 'trustChanged']);
  const providers = useLive('providers.list', {}, ['providersChanged']);
  const agents = useLive('agents.list', {});
  const list = providers.data?.providers ?? [];
  return (
    <div className="prov-section" aria-label="Agent settings">
      <p className="hint">
        Which provider and model each agent uses in this workspace. New sessions record them when they start; changing them never changes a running
        session. Manage providers and keys in <button className="link-button prov-inline-link" onClick={() => useApp.getState().showSettings()}>Settings → Providers and keys</button>.
      </p>
      {settings.error && <div className="banner banner-error">{settings.error}</div>}
      {agents.data && settings.data && (
        <table className="prov-table" aria-label="Agents in this workspace">
          <thead>
            <tr>
              <th>Agent</th>
              <th>Provider</th>
              <th>Default model</th>
              <th>Endpoint</th>
            </tr>
          </thead>
          <tbody>
            {agents.data.agents.map((a) => (
              <AgentRow key={a.id} workspaceId={workspace.id} agent={a} setting={settings.data!.settings.find((s) => s.agentId === a.id) ?? null} providers={list} />
            ))}
          </tbody>
        </table>
      )}
      {list.length > 0 && settings.data && <Overrides workspaceId={workspace.id} providers={list} overrides={settings.data.overrides} />}
      <h2 style={{ marginTop: 18 }}>Model endpoints in this repository</h2>
      {settings.data && settings.data.endpoints.length === 0 && <p className="muted">This repository sets no model endpoint of its own (no ANTHROPIC_BASE_URL in .claude/settings.json, no Codex model_provider, no .env endpoint).</p>}
      {settings.data?.endpoints.map((e) => (
        <EndpointCard key={e.digest} workspace={workspace} endpoint={e} />
      ))}
    </div>
  );
}

function AgentRow({ workspaceId, agent, setting, providers }: { workspaceId: string; agent: AgentSummary; setting: AgentSetting | null; providers: Provider[] }) {
  const client = useApp((s) => s.client);
  const [model, setModel] = useState(setting?.model ?? '');
  useEffect(() => setModel(setting?.model ?? ''), [setting?.model]);
  const save = async (providerId: string | null, nextModel: string) => {
    if (!client) return;
    try {
      await client.request('providers.setAgentSettings', { workspaceId, agentId: agent.id, providerId, model: nextModel.trim() || null });
      toast(`${agent.name}: new sessions use ${providerId ?? 'the inherited environment'}${nextModel.trim() ? `, model ${nextModel.trim()}` : ''}`);
    } catch (error) {
      toast.error((error as Error).message);
    }
  };
  const providerId = setting?.providerId ?? null;
  return (
    <tr data-testid={`agent-setting-${agent.id}`}>
      <td>{agent.name}</td>
      <td>
        <select aria-label={`Provider for ${agent.name}`} value={providerId ?? ''} onChange={(e) => void save(e.target.value || null, model)}>
          <option value="">Inherited environment</option>
          {providers.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
              {p.hasKey ? '' : ' (no key)'}
            </option>
          ))}
        </select>
      </td>
      <td>
        <input
          className="prov-model-input"
          aria-label={`Default model for ${agent.name}`}
          value={model}
          placeholder="agent's default"
          onChange={(e) => setModel(e.target.value)}
          onBlur={() => model !== (setting?.model ?? '') && void save(providerId, model)}
          onKeyDown={(e) => e.key === 'Enter' && (e.target as HTMLInputElement).blur()}
        />
      </td>
      <td>
        <code>{setting?.endpoint ?? '—'}</code>
      </td>
    </tr>
  );
}

function Overrides({ workspaceId, providers, overrides }: { workspaceId: string; providers: Provider[]; overrides: Array<{ providerId: string; baseUrl: string }> }) {
  const client = useApp((s) => s.client);
  const [providerId, setProviderId] = useState(providers[0]?.id ?? '');
  const [url, setUrl] = useState('');
  const set = async (id: string, baseUrl: string | null) => {
    if (!client) return;
    try {
      await client.request('providers.setOverride', { workspaceId, providerId: id, baseUrl });
      setUrl('');
    } catch (error) {
      toast.error((error as Error).message);
    }
  };
  return (
    <div style={{ marginTop: 14 }}>
      <h2>Provider URLs in this workspace</h2>
      {overrides.map((o) => (
        <div key={o.providerId} className="prov-store">
          <strong>{providers.find((p) => p.id === o.providerId)?.name ?? o.providerId}</strong> → <code>{o.baseUrl}</code>
          <button className="button" onClick={() => void set(o.providerId, null)}>
            Use the provider's own URL
          </button>
        </div>
      ))}
      <form
        className="prov-key-row"
        onSubmit={(e) => {
          e.preventDefault();
          if (url.trim()) void set(providerId, url.trim());
        }}
      >
        <label className="field">
          <span>Provider</span>
          <select aria-label="Provider to point elsewhere" value={providerId} onChange={(e) => setProviderId(e.target.value)}>
            {providers.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <label className="field grow">
          <span>Base URL here</span>
          <input type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://gateway.example.com/anthropic" />
        </label>
        <button className="button" type="submit" disabled={!url.trim()}>
          Point here
        </button>
      </form>
    </div>
  );
}

function EndpointCard({ workspace, endpoint: e }: { workspace: Workspace; endpoint: RepositoryEndpoint }) {
  const client = useApp((s) => s.client);
  const trusted = workspace.trust.state === 'trusted';
  const approve = async (approved: boolean) => {
    if (!client) return;
    try {
      await client.request('providers.approveEndpoint', { workspaceId: workspace.id, digest: e.digest, approved });
      toast(
        !approved
          ? 'Approval withdrawn: new sessions no longer use it'
          : trusted
            ? 'Approved: new sessions send model traffic and your key to this endpoint'
            : 'Approved: new sessions use this endpoint once you trust the folder',
      );
    } catch (error) {
      toast.error((error as Error).message);
    }
  };
  const state =
    e.appliedBy === 'none'
      ? "Nothing Atrium launches applies this (Codex ignores a repository's model_provider and model_providers)."
      : e.appliedBy === 'agent'
        ? `${e.tool === 'codex' ? 'Codex' : 'Gemini CLI'} reads this itself once the folder is trusted; a provider chosen above sets the endpoint and key itself, which this file cannot change.`
      : e.approved
        ? trusted
          ? 'Approved: new Claude Code sessions send model traffic, with your key, to this endpoint.'
          : 'Approved, but the folder is not trusted: not applied until you trust it.'
        : 'Withheld: redirects model traffic. New sessions use your provider or environment instead until you approve this exact definition.';
  return (
    <div className={`prov-endpoint${e.approved && e.appliedBy === 'atrium' ? '' : ' withheld'}`} data-testid={`endpoint-${e.path}`}>
      <div className="prov-endpoint-head">
        <strong>{e.path}</strong>
        <span className="badge badge-warn">redirects model traffic</span>
        <span className="spacer" style={{ flex: 1 }} />
        {e.appliedBy === 'atrium' &&
          (e.approved ? (
            <button className="button" onClick={() => void approve(false)}>
              Revoke
            </button>
          ) : (
            <button className="button" onClick={() => void approve(true)} title="Lets new sessions send your key to this endpoint">
              Approve endpoint
            </button>
          ))}
      </div>
      <div>
        {Object.entries(e.variables).map(([k, v]) => (
          <div key={k}>
            <code>
              {k} = {v}
            </code>
          </div>
        ))}
      </div>
      <p className="hint">
        {state} Digest <code>{e.digest.slice(0, 16)}…</code>
      </p>
    </div>
  );
}
